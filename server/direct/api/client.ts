import {
  DirectApiError,
  errorFromApi,
  errorFromHttpStatus,
  networkError,
  protocolError,
  reportNotReadyError,
  type DirectErrorBody,
} from './errors.js';
import { parseReportTsv, type ReportTable } from './report-tsv.js';
import { createUnitsAccount, type DirectUnits } from './units.js';

/**
 * A small client of the Yandex Direct API v5 (JSON): `get` on any service with automatic paging,
 * the Reports service with its queued/building answers, and `write` for the change methods the
 * apply-and-undo flow uses (server/changes): `update`, `suspend`, `resume`, `set`, each answering one
 * result per object (`Id`, `Warnings`, `Errors`), so a call can half succeed.
 *
 * Protocol facts (official pages «Формат запросов», «get», «Отчёты»):
 * - `POST {base}/{service}` with `{method, params}`; headers `Authorization: Bearer`, `Client-Login`
 *   (agency acting for an advertiser), `Accept-Language`, optional `Use-Operator-Units`.
 * - a `get` answer is `{result: {<Objects>: [...], LimitedBy?}}`; `LimitedBy` is the ordinal number of the
 *   last object returned, sent only when more remain, and the next page starts at `Page.Offset = LimitedBy`
 *   (`Page: {Limit, Offset}`, at most 10 000 objects per answer).
 * - Reports answer 200 (ready, TSV), 201 (queued) or 202 (building), with `retryIn` seconds.
 * - at most 5 requests at a time per advertiser, so the client never runs more than that.
 */

export const DIRECT_API_URL = 'https://api.direct.yandex.com/json/v5';
export const DIRECT_SANDBOX_API_URL = 'https://api-sandbox.direct.yandex.com/json/v5';
/**
 * The v4 Live JSON address (official «Формат JSON»: `POST https://api.direct.yandex.ru/live/v4/json/` with
 * `{method, param, locale, token}`): v5 has no call for the shared account's balance, `AccountManagement`
 * «Get» of Live 4 is where it is read. Beside a custom v5 address (a local fake) it is the same host's
 * `/live/v4/json/`.
 */
export const DIRECT_LIVE4_URL = 'https://api.direct.yandex.ru/live/v4/json/';
export const DIRECT_SANDBOX_LIVE4_URL = 'https://api-sandbox.direct.yandex.ru/live/v4/json/';

/** The API's own ceiling for objects in one `get` answer. */
export const DIRECT_MAX_PAGE_LIMIT = 10_000;

export interface DirectClientOptions {
  token: string;
  /** Login of the advertiser when an agency token acts for them. */
  clientLogin?: string;
  /** Use the sandbox address instead of the production one (ignored when `baseUrl` is given). */
  sandbox?: boolean;
  /** Defaults to production or sandbox; tests point it at the local fake. */
  baseUrl?: string;
  /** Sends `Use-Operator-Units` (agency: spend the agency's points instead of the client's). */
  useOperatorUnits?: boolean;
  fetch?: typeof globalThis.fetch;
  /** Waiting between retries and report polls; tests pass one that records instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Requests in flight at most (the API allows 5 per advertiser). */
  maxConcurrent?: number;
  /** Repeats of a request that failed with a retryable error (so `maxRetries + 1` tries in all). */
  maxRetries?: number;
  /** First backoff pause; doubled on every retry, capped at `maxRetryDelayMs`. */
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  /** `Page.Limit` of every `get` (≤ 10 000). */
  pageLimit?: number;
  /** Gives up on one HTTP request after this long (it then counts as a network failure). */
  timeoutMs?: number;
  /** Report polls (201/202 answers) before giving up. */
  reportMaxPolls?: number;
  /** Pause between polls when the API sends no `retryIn`. */
  reportDefaultRetryInSeconds?: number;
  /** Total waiting for one report before giving up (an import must finish in minutes). */
  reportMaxWaitMs?: number;
}

export type ProcessingMode = 'auto' | 'online' | 'offline';

/** The `params` of a Reports request (official ReportDefinition). */
export interface ReportDefinition {
  SelectionCriteria: {
    DateFrom?: string;
    DateTo?: string;
    Filter?: { Field: string; Operator: string; Values: string[] }[];
  };
  FieldNames: string[];
  ReportName: string;
  ReportType: string;
  DateRangeType: string;
  Format: 'TSV';
  IncludeVAT: 'YES' | 'NO';
  IncludeDiscount?: 'YES' | 'NO';
  Goals?: (string | number)[];
  AttributionModels?: string[];
  OrderBy?: { Field: string; SortOrder?: 'ASCENDING' | 'DESCENDING' }[];
  Page?: { Limit: number };
}

export interface ReportOptions {
  processingMode?: ProcessingMode;
  /** Money in the account currency with 2 decimals (default) instead of millionths. */
  moneyInMicros?: boolean;
  /** Stops polling (before the next request) once aborted, e.g. when the rest of an import failed. */
  signal?: AbortSignal;
}

/** One object's outcome in a change method's answer (official «Формат ответа»: `ActionResult`). */
export interface DirectActionResult {
  Id?: number;
  Warnings?: DirectNotice[];
  Errors?: DirectNotice[];
}

export interface DirectNotice {
  Code: number;
  Message: string;
  Details?: string;
}

export interface DirectClient {
  readonly baseUrl: string;
  /**
   * A change method (`campaigns.update`, `keywords.suspend`…): the per-object results (`UpdateResults`,
   * `SuspendResults`…), in the order of the request's objects. A request-level error throws.
   */
  write(service: string, method: string, params: Record<string, unknown>): Promise<DirectActionResult[]>;
  /** Every object the `get` method of `service` returns for `params`, all pages collected. */
  get<T = Record<string, unknown>>(service: string, params: Record<string, unknown>): Promise<T[]>;
  /** Builds a report (waiting through 201/202) and returns its rows keyed by column name. */
  reports(definition: ReportDefinition, options?: ReportOptions): Promise<ReportTable>;
  /**
   * One v4 Live method (`{method, param}`; the token travels in the body, as v4 takes it): its `data`. An
   * answer with `error_code` throws a DirectApiError like a v5 error. v4 spends no v5 points.
   */
  live4<T = unknown>(method: string, param: unknown): Promise<T>;
  /** Points spent so far and left now (a copy). */
  readonly units: DirectUnits;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  requestId?: string;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createDirectClient(options: DirectClientOptions): DirectClient {
  const baseUrl = (options.baseUrl ?? (options.sandbox ? DIRECT_SANDBOX_API_URL : DIRECT_API_URL)).replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? realSleep;
  const maxRetries = options.maxRetries ?? 4;
  const retryBase = options.retryBaseDelayMs ?? 1000;
  const retryCap = options.maxRetryDelayMs ?? 30_000;
  const pageLimit = Math.min(options.pageLimit ?? DIRECT_MAX_PAGE_LIMIT, DIRECT_MAX_PAGE_LIMIT);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const units = createUnitsAccount();
  const limit = createLimiter(options.maxConcurrent ?? 5);

  /** One HTTP exchange inside a concurrency slot; the slot is freed before any waiting. */
  function exchange(service: string, body: unknown, extraHeaders: Record<string, string>): Promise<Answer> {
    return limit(async () => {
      const response = await doFetch(`${baseUrl}/${service}`, {
        method: 'POST',
        headers: requestHeaders(options, extraHeaders),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      units.record(response.headers);
      return { status: response.status, headers: response.headers, text, requestId: response.headers.get('requestid') ?? undefined };
    });
  }

  /** Runs `attempt` and repeats its retryable failures (the API's and the network's) with growing pauses. */
  async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      let failure: DirectApiError;
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof DirectApiError) failure = error;
        else if (isTransportError(error)) failure = networkError(error);
        else throw error;
      }
      if (!failure.retryable || tries >= maxRetries) throw failure;
      await sleep(Math.min(retryBase * 2 ** tries, retryCap));
    }
  }

  /** Sends, reads the answer with `interpret`, and repeats retryable failures with growing pauses. */
  function call<T>(service: string, body: unknown, extraHeaders: Record<string, string>, interpret: (answer: Answer) => T): Promise<T> {
    return withRetries(async () => interpret(await exchange(service, body, extraHeaders)));
  }

  const get = <T>(service: string, params: Record<string, unknown>): Promise<T[]> => readAllPages<T>(call, service, params, pageLimit);

  const reports = (definition: ReportDefinition, reportOptions: ReportOptions = {}): Promise<ReportTable> =>
    pollReport(call, sleep, definition, reportOptions, {
      maxPolls: options.reportMaxPolls ?? 60,
      defaultRetryInSeconds: options.reportDefaultRetryInSeconds ?? 5,
      maxWaitMs: options.reportMaxWaitMs ?? 5 * 60_000,
    });

  async function write(service: string, method: string, params: Record<string, unknown>): Promise<DirectActionResult[]> {
    const result = await call(service, { method, params }, {}, readJsonResult);
    return readGetResult<DirectActionResult>(result.value, result.requestId).items;
  }

  const live4Url = options.baseUrl ? `${new URL(baseUrl).origin}/live/v4/json/` : options.sandbox ? DIRECT_SANDBOX_LIVE4_URL : DIRECT_LIVE4_URL;

  /** A v4 Live call (`{method, param, token}` in the body; `{data}` or `{error_code, …}` back), retried as the v5 calls are. */
  function live4<T>(method: string, param: unknown): Promise<T> {
    return withRetries(async () => {
      const answer = await limit(async () => {
        const response = await doFetch(live4Url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ method, param, locale: 'ru', token: options.token }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { status: response.status, text: await response.text() };
      });
      return readLive4Answer<T>(method, answer);
    });
  }

  return {
    baseUrl,
    get,
    write,
    reports,
    live4,
    get units() {
      return units.snapshot();
    },
  };
}

type Caller = <T>(service: string, body: unknown, extraHeaders: Record<string, string>, interpret: (answer: Answer) => T) => Promise<T>;

/** A `get` of every page: asks for the next offset while the answer says `LimitedBy`. */
async function readAllPages<T>(call: Caller, service: string, params: Record<string, unknown>, pageLimit: number): Promise<T[]> {
  const requested = (params.Page ?? {}) as { Limit?: number; Offset?: number };
  const pageSize = Math.min(requested.Limit ?? pageLimit, DIRECT_MAX_PAGE_LIMIT);
  let offset = requested.Offset ?? 0;
  const items: T[] = [];
  for (;;) {
    const body = { method: 'get', params: { ...params, Page: { Limit: pageSize, Offset: offset } } };
    const result = await call(service, body, {}, readJsonResult);
    const page = readGetResult<T>(result.value, result.requestId);
    items.push(...page.items);
    if (page.limitedBy === undefined) return items;
    // LimitedBy must move forward, or we would ask for the same page forever.
    if (!(page.limitedBy > offset)) throw protocolError(`${service}.get: LimitedBy ${page.limitedBy} does not advance past offset ${offset}`, result.requestId);
    offset = page.limitedBy;
  }
}

/**
 * A report (the Reports service): asked again while Yandex builds it offline (201/202), after the pause its
 * `retryIn` header names, until it is there (200) or the polls or the wait run out.
 */
async function pollReport(
  call: Caller,
  sleep: (ms: number) => Promise<void>,
  definition: ReportDefinition,
  reportOptions: ReportOptions,
  limits: { maxPolls: number; defaultRetryInSeconds: number; maxWaitMs: number },
): Promise<ReportTable> {
  const headers = {
    processingMode: reportOptions.processingMode ?? 'auto',
    returnMoneyInMicros: String(reportOptions.moneyInMicros ?? false),
    skipReportHeader: 'true',
    skipReportSummary: 'true',
  };
  let waited = 0;
  for (let poll = 0; ; poll++) {
    reportOptions.signal?.throwIfAborted();
    const answer = await call('reports', { params: definition }, headers, readReportAnswer);
    if (answer.status === 200) return parseReportTsv(answer.text, definition.FieldNames);
    const retryIn = Number(answer.headers.get('retryin'));
    const pause = (Number.isFinite(retryIn) && retryIn > 0 ? retryIn : limits.defaultRetryInSeconds) * 1000;
    if (poll >= limits.maxPolls || waited + pause > limits.maxWaitMs) {
      throw reportNotReadyError(`report "${definition.ReportName}" still ${answer.status} after ${poll + 1} polls and ${waited} ms`, answer.requestId);
    }
    await sleep(pause);
    waited += pause;
  }
}

/** The `data` of a v4 Live answer; its `error_code` (always with HTTP 200) or an HTTP failure as a DirectApiError. */
function readLive4Answer<T>(method: string, answer: { status: number; text: string }): T {
  const json = parseJson(answer.text) as { data?: unknown; error_code?: number | string; error_str?: string; error_detail?: string } | undefined;
  if (json && json.error_code !== undefined) throw errorFromApi({ error_code: json.error_code, error_string: json.error_str, error_detail: json.error_detail }, answer.status);
  if (answer.status >= 400) throw errorFromHttpStatus(answer.status, answer.text);
  if (!json || typeof json !== 'object' || !('data' in json)) throw protocolError(`${method}: no "data" in the answer`, undefined, answer.status);
  return json.data as T;
}

/** The headers of every request: the token, Russian messages, and the agency's client and whose points pay, when set. */
function requestHeaders(options: DirectClientOptions, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.token}`,
    'Accept-Language': 'ru',
    'Content-Type': 'application/json; charset=utf-8',
    ...extra,
  };
  if (options.clientLogin) headers['Client-Login'] = options.clientLogin;
  if (options.useOperatorUnits !== undefined) headers['Use-Operator-Units'] = String(options.useOperatorUnits);
  return headers;
}

/** A JSON service answer: the `result`, or the `error` turned into a DirectApiError. */
function readJsonResult(answer: Answer): { value: unknown; requestId?: string } {
  const json = parseJson(answer.text);
  const error = errorObject(json);
  if (error) throw errorFromApi(error, answer.status, answer.requestId);
  if (answer.status >= 400 || json === undefined) {
    if (answer.status >= 400) throw errorFromHttpStatus(answer.status, answer.text, answer.requestId);
    throw protocolError(`not JSON: ${answer.text.slice(0, 200)}`, answer.requestId, answer.status);
  }
  if (typeof json !== 'object' || json === null || !('result' in json)) throw protocolError('no "result" in the answer', answer.requestId, answer.status);
  return { value: (json as { result: unknown }).result, requestId: answer.requestId };
}

/** Reports: 200/201/202 are progress; anything else is an error, JSON-described or not. */
function readReportAnswer(answer: Answer): Answer {
  if (answer.status === 200 || answer.status === 201 || answer.status === 202) return answer;
  const error = errorObject(parseJson(answer.text));
  if (error) throw errorFromApi(error, answer.status, answer.requestId);
  throw errorFromHttpStatus(answer.status, answer.text, answer.requestId);
}

/**
 * The objects of a `get` result. The array's key differs per service (Campaigns, AdGroups, Ads,
 * Keywords, SitelinksSets, AdExtensions…), so we take the one array in `result`; an empty
 * selection comes back as `{}`.
 */
function readGetResult<T>(result: unknown, requestId?: string): { items: T[]; limitedBy?: number } {
  if (typeof result !== 'object' || result === null) throw protocolError('"result" is not an object', requestId);
  const record = result as Record<string, unknown>;
  const arrays = Object.entries(record).filter(([, value]) => Array.isArray(value));
  if (arrays.length > 1) throw protocolError(`several object lists in one answer: ${arrays.map(([k]) => k).join(', ')}`, requestId);
  const items = (arrays[0]?.[1] ?? []) as T[];
  const limitedBy = record.LimitedBy === undefined || record.LimitedBy === null ? undefined : Number(record.LimitedBy);
  if (limitedBy !== undefined && !Number.isFinite(limitedBy)) throw protocolError(`LimitedBy is not a number: ${String(record.LimitedBy)}`, requestId);
  return { items, limitedBy };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

function errorObject(json: unknown): DirectErrorBody | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = (json as { error: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as DirectErrorBody) : undefined;
}

/** fetch rejects with TypeError on connection problems and with an AbortError/TimeoutError on timeout. */
function isTransportError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
}

/**
 * At most `max` tasks at once; a finished task hands its slot straight to the next waiting one,
 * so a newcomer can never slip in between and exceed the limit.
 */
export function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
