import { directApiMessages as m } from '../../../contract/messages.js';

/**
 * Errors of the Yandex Direct API v5, turned into something a person can act on.
 *
 * The API answers a failed call with `{"error": {request_id, error_code, error_string, error_detail}}`
 * (JSON services usually with HTTP 200, Reports with 4xx/5xx). Codes and meanings follow the
 * official list «Ошибки и предупреждения» (52, 53, 54, 58, 1000–1002 are quoted there); 56, 152, 506,
 * 513, 3000/3001, 8000, 8800 and 9000 are as public clients handle them (tapi-yandex-direct retries
 * 52/1000/1001/1002/56/506/9000 and stops on 53 and 152).
 */

export type DirectErrorCategory =
  /** The token or the login: a person has to reconnect or fix Client-Login. */
  | 'auth'
  /** Out of API points (152); they come back within the hour. */
  | 'units'
  /** Rate/concurrency/queue limits; worth repeating after a pause. */
  | 'limit'
  /** Yandex's side failed; worth repeating. */
  | 'server'
  /** The request itself was refused (our bug or an unsupported account). */
  | 'request'
  /** No answer at all (DNS, connection reset, timeout). */
  | 'network'
  /** An answer we could not read. */
  | 'protocol';

interface CodeInfo {
  message: string;
  category: DirectErrorCategory;
  retryable: boolean;
}

const known: Record<number, CodeInfo> = {
  52: { message: m.authServerUnavailable, category: 'server', retryable: true },
  53: { message: m.invalidToken, category: 'auth', retryable: false },
  54: { message: m.noRights, category: 'auth', retryable: false },
  56: { message: m.methodLimit, category: 'limit', retryable: true },
  58: { message: m.registrationIncomplete, category: 'auth', retryable: false },
  152: { message: m.notEnoughUnits, category: 'units', retryable: false },
  506: { message: m.tooManyConcurrent, category: 'limit', retryable: true },
  513: { message: m.loginNotInDirect, category: 'auth', retryable: false },
  1000: { message: m.serverUnavailable, category: 'server', retryable: true },
  1001: { message: m.serverUnavailable, category: 'server', retryable: true },
  1002: { message: m.serverUnavailable, category: 'server', retryable: true },
  3000: { message: m.noApiAccess, category: 'auth', retryable: false },
  3001: { message: m.noApiAccess, category: 'auth', retryable: false },
  8800: { message: m.objectNotFound, category: 'request', retryable: false },
  9000: { message: m.reportQueueFull, category: 'limit', retryable: true },
};

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

export interface DirectApiErrorInit {
  /** The API's `error_code`; for failures without one, the HTTP status, or 0 when nothing answered. */
  code: number;
  message: string;
  /** What Yandex said (`error_string: error_detail`) or what went wrong locally; for logs, not for people. */
  detail: string;
  requestId?: string;
  retryable: boolean;
  category: DirectErrorCategory;
  httpStatus?: number;
}

export class DirectApiError extends Error {
  readonly code: number;
  readonly detail: string;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly category: DirectErrorCategory;
  readonly httpStatus?: number;

  constructor(init: DirectApiErrorInit) {
    super(init.message);
    this.name = 'DirectApiError';
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.category = init.category;
    this.httpStatus = init.httpStatus;
  }
}

/** The `error` object of an API answer, as far as it can be read. */
export interface DirectErrorBody {
  request_id?: string;
  error_code?: number | string;
  error_string?: string;
  error_detail?: string;
}

export function errorFromApi(body: DirectErrorBody, httpStatus: number, requestIdHeader?: string): DirectApiError {
  const code = Number(body.error_code);
  const info = Number.isFinite(code) ? known[code] : undefined;
  const detail = [body.error_string, body.error_detail].filter(Boolean).join(': ');
  const requestId = body.request_id ?? requestIdHeader;
  if (info) return new DirectApiError({ code, detail, requestId, httpStatus, ...info });
  // Unlisted codes: 4000–8999 are request/parameter problems; anything with a 5xx status is Yandex's.
  const serverSide = httpStatus >= 500;
  const requestSide = code >= 4000 && code < 9000;
  return new DirectApiError({
    code: Number.isFinite(code) ? code : httpStatus,
    message: fill(requestSide ? m.invalidRequest : serverSide ? m.serverUnavailable : m.unknown, { code: Number.isFinite(code) ? code : httpStatus }),
    detail,
    requestId,
    httpStatus,
    retryable: serverSide,
    category: requestSide ? 'request' : serverSide ? 'server' : 'request',
  });
}

/** A non-2xx answer without a readable `error` object (a proxy's HTML page, an empty 502…). */
export function errorFromHttpStatus(httpStatus: number, text: string, requestId?: string): DirectApiError {
  const serverSide = httpStatus >= 500 || httpStatus === 429;
  return new DirectApiError({
    code: httpStatus,
    message: serverSide ? m.serverUnavailable : fill(m.unknown, { code: httpStatus }),
    detail: `HTTP ${httpStatus}: ${text.slice(0, 300)}`,
    requestId,
    httpStatus,
    retryable: serverSide,
    category: serverSide ? 'server' : 'protocol',
  });
}

export function networkError(cause: unknown): DirectApiError {
  return new DirectApiError({
    code: 0,
    message: m.network,
    detail: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    retryable: true,
    category: 'network',
  });
}

export function protocolError(detail: string, requestId?: string, httpStatus?: number): DirectApiError {
  return new DirectApiError({ code: httpStatus ?? 0, message: m.badResponse, detail, requestId, httpStatus, retryable: false, category: 'protocol' });
}

export function reportNotReadyError(detail: string, requestId?: string): DirectApiError {
  return new DirectApiError({ code: 0, message: m.reportNotReady, detail, requestId, retryable: true, category: 'limit' });
}
