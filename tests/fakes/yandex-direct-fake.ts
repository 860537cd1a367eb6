import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Yandex Direct API v5 on 127.0.0.1, answering in the documented shapes:
 * - JSON services `campaigns`, `adgroups`, `ads`, `keywords`, `sitelinks`, `adextensions`, `adimages`,
 *   `negativekeywordsharedsets`, `bidmodifiers` (method `get`; `Levels` required):
 *   `{result: {<Objects>: [...], LimitedBy?}}` with `Page: {Limit, Offset}` honoured and a small page size
 *   of its own, so paging is exercised; unknown `FieldNames` and too many `CampaignIds` are refused the
 *   way the API refuses them (error 8000 / 4001); `adimages` selects by `AdImageHashes` (at most 10 000)
 *   and `Associated` and answers `{result: {AdImages: [{AdImageHash, Name, …}]}}`;
 * - the `Units: spent/available/daily`, `Units-Used-Login` and `RequestId` headers on every JSON answer;
 * - errors as `{"error": {request_id, error_code, error_string, error_detail}}` (HTTP 200 for JSON
 *   services, 400/500 for Reports), a wrong token answering 53;
 * - `reports`: 201/202 with `retryIn` as configured, then 200 with TSV (title and `Total rows` lines
 *   unless the request skips them); `CampaignId IN` and `AdNetworkType EQUALS` filters are applied, and a
 *   report that asks for `Placement` is answered from `placementRows`.
 * - the change methods the apply-and-undo flow uses, changing `account` as Direct would: `campaigns.update`
 *   (`NegativeKeywords`, `ExcludedSites` up to 1 000 sites, at most 10 campaigns a call), `adgroups.update`
 *   (`NegativeKeywords`, 1 000 groups), `keywords.update` (`Keyword`, 10 000), `ads.update` (`TextAd` fields,
 *   1 000; the ad goes to moderation again), `keywords.suspend`/`resume` (`SelectionCriteria.Ids`, 10 000),
 *   `keywordbids.set` (`KeywordBids: [{KeywordId, SearchBid, NetworkBid}]`, 10 000; `keywordbids.get` reads
 *   the same bids as `Search.Bid` / `Network.Bid`). Each answers one result
 *   per object (`{Id}` or `{Errors: [{Code, Message, Details}]}`, `Warnings` likewise), so a call can half
 *   succeed (`failItems`); too many objects is a request error (4001). `writes()` lists the change calls made.
 * - `campaigns.get` answers `Funds` when asked (as the campaign objects hold it: `{Mode: 'CAMPAIGN_FUNDS',
 *   CampaignFunds: {Sum, Balance, BalanceBonus, SumAvailableForTransfer}}` in micro-units, or `{Mode:
 *   'SHARED_ACCOUNT_FUNDS', SharedAccountFunds: {Refund, Spend}}`);
 * - the v4 Live JSON address `/live/v4/json/` (`{method, param, locale, token}`, the token in the body):
 *   `AccountManagement` with `Action: 'Get'` answers `{data: {Accounts: [...], ActionsResult: []}}` from
 *   `sharedAccounts` (by `SelectionCriteria.Logins` when given, each login's from its `clientAccounts` entry
 *   or the main account; the main account's every one otherwise); errors are v4's
 *   `{error_code, error_str, error_detail}` (53 for a wrong token); `failNext('live4', …)` fails it.
 */

export type ApiObject = Record<string, unknown> & { Id: number };
/** An uploaded image (adimages.get): keyed by its hash, not by an Id. */
export type ApiAdImage = Record<string, unknown> & { AdImageHash: string };

export interface FakeDirectAccount {
  campaigns: ApiObject[];
  adGroups: ApiObject[];
  ads: ApiObject[];
  keywords: ApiObject[];
  sitelinksSets: ApiObject[];
  adExtensions: ApiObject[];
  adImages: ApiAdImage[];
  /** Shared negative sets (negativekeywordsharedsets.get: `Id`, `Name`, `NegativeKeywords` as an array of strings). */
  negativeKeywordSharedSets?: ApiObject[];
  /** Bid adjustments (bidmodifiers.get: `Id`, `CampaignId`, `AdGroupId`, `Level`, `Type` and the type's structure, e.g. `MobileAdjustment: {BidModifier}`). */
  bidModifiers?: ApiObject[];
  /** An agency's clients (agencyclients.get, by their `Login`); absent: not an agency, the service refuses (54). */
  agencyClients?: (Record<string, unknown> & { Login: string })[];
  /**
   * The advertiser's shared accounts (v4 Live AccountManagement «Get»: `AccountID`, `Login`, `Amount` in the
   * account currency as a float, `Currency`, …).
   */
  sharedAccounts?: (Record<string, unknown> & { AccountID: number; Login: string; Amount: number })[];
  /** Rows per ReportType; values are written as given (`--` for none). */
  reportRows: Record<string, Record<string, string | number>[]>;
  /**
   * Rows of a report that asks for `Placement` (a CUSTOM_REPORT grouped by campaign and site): one per
   * campaign, placement type and site, with `CampaignId`, `AdNetworkType`, `Placement` and the metrics.
   */
  placementRows?: Record<string, string | number>[];
}

export interface FakeFailure {
  error_code: number;
  error_string: string;
  error_detail?: string;
  /** HTTP status of the failing answer (JSON services default to 200, as the API does). */
  httpStatus?: number;
  /** A non-JSON body instead of the error object (a proxy's page). */
  rawBody?: string;
  /** How many answers fail before the service answers normally again (default 1). */
  times?: number;
}

export interface RecordedRequest {
  service: string;
  method?: string;
  headers: Record<string, string | undefined>;
  body: any;
}

export interface FakeDirectOptions {
  token?: string;
  /** Which tokens the API accepts, when not only `token` (tokens issued by a fake Yandex ID). */
  acceptsToken?: (token: string) => boolean;
  /** Objects per `get` answer at most (the real API: 10 000). */
  pageSize?: number;
  units?: { available: number; daily: number; perRequest: number };
  /** Statuses answered before 200 for each ReportType, e.g. `{SEARCH_QUERY_PERFORMANCE_REPORT: [201, 202]}`. */
  reportProgress?: Record<string, number[]>;
  /** `retryIn` header sent with 201/202, seconds. */
  retryIn?: number;
  /**
   * An agency's clients' own accounts, by `Client-Login`: a request naming one reads it (and a failure queued
   * with that login fails only its requests); a request without the header reads the main account.
   */
  clientAccounts?: Record<string, FakeDirectAccount>;
}

export interface HeldService {
  arrived: Promise<void>;
  release(): void;
}

export interface FakeDirect {
  /** Base address, like https://api.direct.yandex.com/json/v5 */
  url: string;
  requests: RecordedRequest[];
  account: FakeDirectAccount;
  /** The next answer(s) of `service` fail as described; with `clientLogin`, only that client's answers. */
  failNext(service: string, failure: FakeFailure, clientLogin?: string): void;
  /** Forgets failures not yet used. */
  clearFailures(): void;
  /** The next writes of these objects of `service` answer this error for the object (the rest of the call succeeds). */
  failItems(service: string, ids: number[], error: { Code: number; Message: string; Details?: string }): void;
  /** The change calls made so far (every method but `get`), in order. */
  writes(): { service: string; method: string; params: any }[];
  /**
   * Holds every answer of `service` until `release()` (a slow account, frozen where a test wants to
   * look at the progress); `arrived` resolves once the first such request is being held.
   */
  hold(service: string): HeldService;
  /** Requests being answered right now, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  unitsLeft(): number;
  close(): Promise<void>;
}

/** Field names each service accepts (official `get` pages). */
const FIELDS: Record<string, { top: string[]; sub?: Record<string, { param: string; names: string[] }> }> = {
  campaigns: {
    top: ['Id', 'Name', 'ClientInfo', 'StartDate', 'EndDate', 'TimeTargeting', 'TimeZone', 'NegativeKeywords', 'BlockedIps', 'ExcludedSites', 'DailyBudget', 'Notification', 'Type', 'Status', 'State', 'StatusPayment', 'StatusClarification', 'SourceId', 'Statistics', 'Currency', 'Funds', 'RepresentedBy'],
    sub: {
      TextCampaign: { param: 'TextCampaignFieldNames', names: ['BiddingStrategy', 'Settings', 'CounterIds', 'RelevantKeywords', 'PriorityGoals', 'AttributionModel'] },
      UnifiedCampaign: { param: 'UnifiedCampaignFieldNames', names: ['BiddingStrategy', 'Settings', 'CounterIds', 'PriorityGoals', 'AttributionModel'] },
    },
  },
  adgroups: { top: ['Id', 'Name', 'CampaignId', 'RegionIds', 'NegativeKeywords', 'NegativeKeywordSharedSetIds', 'TrackingParams', 'Status', 'Type', 'Subtype', 'ServingStatus', 'RestrictedRegionIds'] },
  ads: {
    top: ['Id', 'AdGroupId', 'CampaignId', 'State', 'Status', 'StatusClarification', 'Type', 'Subtype', 'AgeLabel', 'AdCategories'],
    sub: {
      TextAd: {
        param: 'TextAdFieldNames',
        names: ['Title', 'Title2', 'Text', 'Href', 'Mobile', 'DisplayDomain', 'DisplayUrlPath', 'VCardId', 'AdImageHash', 'SitelinkSetId', 'DisplayUrlPathModeration', 'VCardModeration', 'SitelinksModeration', 'AdImageModeration', 'AdExtensions', 'VideoExtension', 'TurboPageId', 'TurboPageModeration', 'BusinessId', 'PreferVCardOverBusiness'],
      },
      TextImageAd: { param: 'TextImageAdFieldNames', names: ['AdImageHash', 'Href', 'TurboPageId', 'TurboPageModeration'] },
    },
  },
  keywords: { top: ['Id', 'Keyword', 'State', 'Status', 'ServingStatus', 'AdGroupId', 'CampaignId', 'Bid', 'ContextBid', 'StrategyPriority', 'UserParam1', 'UserParam2', 'Productivity', 'StatisticsSearch', 'StatisticsNetwork', 'AutotargetingCategories'] },
  sitelinks: { top: ['Id', 'Sitelinks'] },
  adextensions: { top: ['Id', 'Type', 'Status', 'StatusClarification', 'Associated'], sub: { Callout: { param: 'CalloutFieldNames', names: ['CalloutText'] } } },
  adimages: { top: ['AdImageHash', 'OriginalUrl', 'PreviewUrl', 'Name', 'Type', 'Subtype', 'Associated'] },
  negativekeywordsharedsets: { top: ['Id', 'Name', 'NegativeKeywords', 'Associated'] },
  agencyclients: { top: ['Login', 'ClientId', 'ClientInfo', 'Archived', 'Currency', 'Type'] },
  bidmodifiers: {
    top: ['Id', 'CampaignId', 'AdGroupId', 'Level', 'Type'],
    sub: {
      MobileAdjustment: { param: 'MobileAdjustmentFieldNames', names: ['BidModifier', 'OperatingSystemType'] },
      TabletAdjustment: { param: 'TabletAdjustmentFieldNames', names: ['BidModifier', 'OperatingSystemType'] },
      DesktopAdjustment: { param: 'DesktopAdjustmentFieldNames', names: ['BidModifier'] },
      DesktopOnlyAdjustment: { param: 'DesktopOnlyAdjustmentFieldNames', names: ['BidModifier'] },
      DemographicsAdjustment: { param: 'DemographicsAdjustmentFieldNames', names: ['Gender', 'Age', 'BidModifier', 'Enabled'] },
      RetargetingAdjustment: { param: 'RetargetingAdjustmentFieldNames', names: ['RetargetingConditionId', 'BidModifier', 'Accessible', 'Enabled'] },
      RegionalAdjustment: { param: 'RegionalAdjustmentFieldNames', names: ['RegionId', 'BidModifier', 'Enabled'] },
      VideoAdjustment: { param: 'VideoAdjustmentFieldNames', names: ['BidModifier'] },
    },
  },
};

const RESULT_KEY: Record<string, keyof FakeDirectAccount> = {
  campaigns: 'campaigns',
  adgroups: 'adGroups',
  ads: 'ads',
  keywords: 'keywords',
  sitelinks: 'sitelinksSets',
  adextensions: 'adExtensions',
  adimages: 'adImages',
  negativekeywordsharedsets: 'negativeKeywordSharedSets',
  agencyclients: 'agencyClients',
  bidmodifiers: 'bidModifiers',
};
const RESULT_NAME: Record<string, string> = {
  campaigns: 'Campaigns',
  adgroups: 'AdGroups',
  ads: 'Ads',
  keywords: 'Keywords',
  sitelinks: 'SitelinksSets',
  adextensions: 'AdExtensions',
  adimages: 'AdImages',
  negativekeywordsharedsets: 'NegativeKeywordSharedSets',
  agencyclients: 'Clients',
  bidmodifiers: 'BidModifiers',
};


type Notice = { Code: number; Message: string; Details?: string };

/** The change methods (official pages of each): where the objects are, how many a call takes, what they change. */
const WRITES: Record<string, { table: string; objects: string; idField: string; results: string; max: number; apply: (target: Record<string, any>, object: any) => Notice | null }> = {
  'campaigns.update': {
    table: 'campaigns', objects: 'Campaigns', idField: 'Id', results: 'UpdateResults', max: 10,
    apply(target, object) {
      if (object.ExcludedSites && (object.ExcludedSites.Items ?? []).length > 1000) return { Code: 4001, Message: 'Неверно задан параметр', Details: 'В списке ExcludedSites не более 1000 элементов' };
      if ('NegativeKeywords' in object) target.NegativeKeywords = object.NegativeKeywords;
      if ('ExcludedSites' in object) target.ExcludedSites = object.ExcludedSites;
      return null;
    },
  },
  'adgroups.update': {
    table: 'adgroups', objects: 'AdGroups', idField: 'Id', results: 'UpdateResults', max: 1000,
    apply(target, object) {
      if ('NegativeKeywords' in object) target.NegativeKeywords = object.NegativeKeywords;
      return null;
    },
  },
  'keywords.update': {
    table: 'keywords', objects: 'Keywords', idField: 'Id', results: 'UpdateResults', max: 10_000,
    apply(target, object) {
      if (typeof object.Keyword === 'string' && object.Keyword.length > 4096) return { Code: 5001, Message: 'Превышена длина ключевой фразы', Details: 'Не более 4096 символов' };
      if ('Keyword' in object) target.Keyword = object.Keyword;
      return null;
    },
  },
  'ads.update': {
    table: 'ads', objects: 'Ads', idField: 'Id', results: 'UpdateResults', max: 1000,
    apply(target, object) {
      if (object.TextAd && !target.TextAd) return { Code: 5005, Message: 'Тип объявления не соответствует', Details: 'Объявление не является текстовым' };
      if (object.TextAd) {
        target.TextAd = { ...target.TextAd, ...object.TextAd };
        // A changed text goes to moderation again.
        target.Status = 'MODERATION';
      }
      return null;
    },
  },
  'keywords.suspend': {
    table: 'keywords', objects: 'Ids', idField: 'Id', results: 'SuspendResults', max: 10_000,
    apply(target) {
      target.State = 'SUSPENDED';
      return null;
    },
  },
  'keywords.resume': {
    table: 'keywords', objects: 'Ids', idField: 'Id', results: 'ResumeResults', max: 10_000,
    apply(target) {
      target.State = 'ON';
      return null;
    },
  },
  'keywordbids.set': {
    table: 'keywords', objects: 'KeywordBids', idField: 'KeywordId', results: 'SetResults', max: 10_000,
    apply(target, object) {
      if ('SearchBid' in object) target.Bid = object.SearchBid;
      if ('NetworkBid' in object) target.ContextBid = object.NetworkBid;
      return null;
    },
  },
};

export async function startFakeDirect(account: FakeDirectAccount, options: FakeDirectOptions = {}): Promise<FakeDirect> {
  const token = options.token ?? 'fake-token';
  const acceptsToken = options.acceptsToken ?? ((given: string) => given === token);
  const pageSize = options.pageSize ?? 2;
  const units = { ...(options.units ?? { available: 20_000, daily: 64_000, perRequest: 10 }) };
  const failures = new Map<string, FakeFailure[]>();
  const reportPolls = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>();
  const itemFailures = new Map<string, { Code: number; Message: string; Details?: string }>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    readBody(req)
      .then(async (text) => {
        const held = holds.get(serviceOf(req));
        if (held) {
          held.arrived();
          await held.released;
        }
        handle(req, res, text);
      })
      .catch((error: Error) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`fake crashed: ${error.message}`);
      });
  });

  function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    const service = serviceOf(req);
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    requests.push({ service, method: body?.method, headers: flatHeaders(req), body });
    const requestId = randomUUID();
    const isReport = service === 'reports';
    const send = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      const headers: Record<string, string> = { RequestId: requestId, ...extra };
      if (!isReport) {
        units.available -= units.perRequest;
        headers.Units = `${units.perRequest}/${units.available}/${units.daily}`;
        headers['Units-Used-Login'] = req.headers['client-login']?.toString() ?? 'teplodom-advertiser';
      }
      if (typeof payload === 'string') {
        res.writeHead(status, { 'Content-Type': isReport ? 'text/tab-separated-values; charset=utf-8' : 'text/html', ...headers });
        res.end(payload);
      } else {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(payload));
      }
    };
    const error = (code: number, string: string, detail = '', status = isReport ? 400 : 200) =>
      send(status, { error: { request_id: requestId, error_code: code, error_string: string, error_detail: detail } });

    if (req.method !== 'POST') return send(405, 'Method Not Allowed');
    if (service === LIVE4) return answerLive4(body, res);
    if (!acceptsToken(/^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1] ?? '')) return error(53, 'Ошибка авторизации', 'OAuth-токен не найден или недействителен');

    const clientLogin = req.headers['client-login']?.toString();
    const forClient = clientLogin ? failures.get(`${service}@${clientLogin}`) : undefined;
    const queued = forClient && forClient.length > 0 ? forClient : failures.get(service);
    if (queued && queued.length > 0) {
      const failure = queued[0]!;
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) queued.shift();
      if (failure.rawBody !== undefined) return send(failure.httpStatus ?? 502, failure.rawBody);
      return error(failure.error_code, failure.error_string, failure.error_detail ?? '', failure.httpStatus ?? (isReport ? 400 : 200));
    }

    if (body === undefined) return error(8000, 'Неверный запрос', 'Тело запроса не является JSON');
    const read = (clientLogin && options.clientAccounts?.[clientLogin]) || account;
    if (isReport) return answerReport(req, read, body, send, error);
    if (body.method !== 'get' && `${service}.${String(body.method)}` in WRITES) return answerWrite(service, body.method, body.params ?? {}, send, error);
    if (service === 'keywordbids' && body.method === 'get') return answerKeywordBids(read, body.params ?? {}, send, error);
    if (!(service in FIELDS)) return send(404, 'Not Found');
    if (body.method !== 'get') return error(8000, 'Неверный запрос', `Фейк не поддерживает метод ${String(body.method)}`);
    return answerGet(read, service, body.params ?? {}, send, error);
  }

  function answerGet(account: FakeDirectAccount, service: string, params: any, send: (s: number, p: unknown) => void, error: (c: number, s: string, d?: string) => void) {
    const spec = FIELDS[service]!;
    const fieldNames: string[] = params.FieldNames ?? [];
    if (fieldNames.length === 0) return error(8000, 'Неверный запрос', 'Не указан параметр FieldNames');
    const unknown = fieldNames.filter((name) => !spec.top.includes(name));
    for (const [, sub] of Object.entries(spec.sub ?? {})) for (const name of params[sub.param] ?? []) if (!sub.names.includes(name)) unknown.push(name);
    if (unknown.length > 0) return error(8000, 'Неверный запрос', `Неизвестные имена полей: ${unknown.join(', ')}`);

    const criteria = params.SelectionCriteria ?? {};
    if (Array.isArray(criteria.CampaignIds) && criteria.CampaignIds.length > 10 && service !== 'campaigns') {
      return error(4001, 'Неверно задан параметр', 'В массиве CampaignIds не более 10 элементов');
    }
    if (service === 'bidmodifiers' && !Array.isArray(criteria.Levels)) return error(8000, 'Неверный запрос', 'Не указан параметр Levels');
    if (['adgroups', 'ads', 'keywords', 'bidmodifiers'].includes(service) && !criteria.Ids && !criteria.CampaignIds && !criteria.AdGroupIds) {
      return error(4001, 'Неверно задан параметр', 'Должен быть указан один из параметров Ids, CampaignIds, AdGroupIds');
    }
    if (Array.isArray(criteria.AdImageHashes) && criteria.AdImageHashes.length > 10_000) {
      return error(4001, 'Неверно задан параметр', 'В массиве AdImageHashes не более 10000 элементов');
    }
    if (service === 'agencyclients' && !account.agencyClients) return error(54, 'Нет прав', 'Метод доступен только агентствам');
    const matches = ((account[RESULT_KEY[service]!] ?? []) as Record<string, unknown>[]).filter(
      (object) =>
        (!criteria.Ids || criteria.Ids.includes(object.Id)) &&
        (!criteria.CampaignIds || criteria.CampaignIds.includes(object.CampaignId)) &&
        (!criteria.AdGroupIds || criteria.AdGroupIds.includes(object.AdGroupId)) &&
        (!criteria.States || criteria.States.includes(object.State)) &&
        (!criteria.Levels || criteria.Levels.includes(object.Level)) &&
        (!criteria.AdImageHashes || criteria.AdImageHashes.includes(object.AdImageHash)) &&
        (!criteria.Associated || criteria.Associated === object.Associated) &&
        (!criteria.Archived || service !== 'agencyclients' || criteria.Archived === (object.Archived ?? 'NO')),
    );
    const offset = Number(params.Page?.Offset ?? 0);
    const limit = Math.min(Number(params.Page?.Limit ?? 10_000), pageSize);
    const page = matches.slice(offset, offset + limit).map((object) => project(object, fieldNames, spec.sub ?? {}, params));
    const result: Record<string, unknown> = {};
    // The API leaves the list out when nothing matched.
    if (page.length > 0) result[RESULT_NAME[service]!] = page;
    if (offset + page.length < matches.length) result.LimitedBy = offset + page.length;
    send(200, { result });
  }


  /** v4 Live: `{data}` or `{error_code, error_str, error_detail}`, always HTTP 200; no v5 `Units`. */
  function answerLive4(body: any, res: ServerResponse) {
    const reply = (payload: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(payload));
    };
    const v4error = (code: number, str: string, detail = '') => reply({ error_code: code, error_str: str, error_detail: detail });
    if (body === undefined) return v4error(8, 'Неверный запрос', 'Тело запроса не является JSON');
    if (!acceptsToken(String(body.token ?? ''))) return v4error(53, 'Ошибка авторизации', 'OAuth-токен не найден или недействителен');
    const queued = failures.get(LIVE4);
    if (queued && queued.length > 0) {
      const failure = queued[0]!;
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) queued.shift();
      return v4error(failure.error_code, failure.error_string, failure.error_detail ?? '');
    }
    if (body.method !== 'AccountManagement' || body.param?.Action !== 'Get') return v4error(55, 'Метод не поддерживается', `Фейк не поддерживает ${String(body.method)}`);
    const logins: string[] | undefined = body.param?.SelectionCriteria?.Logins;
    // An agency names its clients: each login's shared accounts (a client account of the fake, else the main one).
    const accounts = logins
      ? logins.flatMap((login) => ((options.clientAccounts?.[login] ?? account).sharedAccounts ?? []).filter((item) => item.Login.toLowerCase() === login.toLowerCase()))
      : (account.sharedAccounts ?? []);
    reply({ data: { Accounts: accounts, ActionsResult: [] } });
  }

  /**
   * keywordbids.get (official «get» of KeywordBids): selects by `KeywordIds` / `AdGroupIds` / `CampaignIds`,
   * answers `KeywordBids: [{KeywordId, AdGroupId, CampaignId, Search: {Bid}, Network: {Bid}}]` from the
   * keywords' `Bid` and `ContextBid` (micro-units), paged like the other services.
   */
  function answerKeywordBids(account: FakeDirectAccount, params: any, send: (s: number, p: unknown) => void, error: (c: number, s: string, d?: string) => void) {
    const top = ['KeywordId', 'AdGroupId', 'CampaignId', 'ServingStatus', 'StrategyPriority'];
    const fieldNames: string[] = params.FieldNames ?? [];
    if (fieldNames.length === 0) return error(8000, 'Неверный запрос', 'Не указан параметр FieldNames');
    const unknown = [
      ...fieldNames.filter((name) => !top.includes(name)),
      ...((params.SearchFieldNames ?? []) as string[]).filter((name) => !['Bid', 'AutotargetingSearchBidIsAuto', 'AuctionBids'].includes(name)),
      ...((params.NetworkFieldNames ?? []) as string[]).filter((name) => !['Bid', 'Coverage'].includes(name)),
    ];
    if (unknown.length > 0) return error(8000, 'Неверный запрос', `Неизвестные имена полей: ${unknown.join(', ')}`);
    const criteria = params.SelectionCriteria ?? {};
    if (!criteria.KeywordIds && !criteria.AdGroupIds && !criteria.CampaignIds) return error(4001, 'Неверно задан параметр', 'Должен быть указан один из параметров KeywordIds, AdGroupIds, CampaignIds');
    if (Array.isArray(criteria.KeywordIds) && criteria.KeywordIds.length > 10_000) return error(4001, 'Неверно задан параметр', 'В массиве KeywordIds не более 10000 элементов');
    const matches = (account.keywords as Record<string, any>[]).filter(
      (keyword) =>
        (!criteria.KeywordIds || criteria.KeywordIds.includes(keyword.Id)) &&
        (!criteria.AdGroupIds || criteria.AdGroupIds.includes(keyword.AdGroupId)) &&
        (!criteria.CampaignIds || criteria.CampaignIds.includes(keyword.CampaignId)),
    );
    const offset = Number(params.Page?.Offset ?? 0);
    const limit = Math.min(Number(params.Page?.Limit ?? 10_000), pageSize);
    const page = matches.slice(offset, offset + limit).map((keyword) => {
      const full: Record<string, unknown> = { KeywordId: keyword.Id, AdGroupId: keyword.AdGroupId, CampaignId: keyword.CampaignId, ServingStatus: keyword.ServingStatus ?? 'ELIGIBLE', StrategyPriority: null };
      const answer: Record<string, unknown> = Object.fromEntries(fieldNames.map((name) => [name, full[name]]));
      if ((params.SearchFieldNames ?? []).includes('Bid')) answer.Search = { Bid: keyword.Bid ?? null };
      if ((params.NetworkFieldNames ?? []).includes('Bid')) answer.Network = { Bid: keyword.ContextBid ?? null };
      return answer;
    });
    const result: Record<string, unknown> = {};
    if (page.length > 0) result.KeywordBids = page;
    if (offset + page.length < matches.length) result.LimitedBy = offset + page.length;
    send(200, { result });
  }

  /** A change method: per-object results, the account changed for the objects that succeed. */
  function answerWrite(service: string, method: string, params: any, send: (s: number, p: unknown) => void, error: (c: number, s: string, d?: string) => void) {
    const spec = WRITES[`${service}.${method}`];
    if (!spec) return error(8000, 'Неверный запрос', `Метод ${service}.${method} не поддерживается фейком`);
    const objects: any[] = spec.objects === 'Ids' ? (params.SelectionCriteria?.Ids ?? []) : (params[spec.objects] ?? []);
    if (!Array.isArray(objects) || objects.length === 0) return error(8000, 'Неверный запрос', `Не указан параметр ${spec.objects}`);
    if (objects.length > spec.max) return error(4001, 'Неверно задан параметр', `В массиве ${spec.objects} не более ${spec.max} элементов`);
    const list = (account[RESULT_KEY[spec.table]!] ?? []) as Record<string, any>[];
    const results = objects.map((object) => {
      const id = spec.objects === 'Ids' ? Number(object) : Number(object[spec.idField]);
      const failure = itemFailures.get(`${service}:${id}`);
      if (failure) {
        itemFailures.delete(`${service}:${id}`);
        return { Errors: [failure] };
      }
      const target = list.find((item) => item.Id === id);
      if (!target) return { Errors: [{ Code: 8800, Message: 'Объект не найден', Details: `Объект с Id ${id} не найден` }] };
      const refused = spec.apply(target, object);
      if (refused) return { Errors: [refused] };
      return { [spec.idField]: id };
    });
    send(200, { result: { [spec.results]: results } });
  }

  function answerReport(req: IncomingMessage, account: FakeDirectAccount, body: any, send: (s: number, p: unknown, h?: Record<string, string>) => void, error: (c: number, s: string, d?: string, st?: number) => void) {
    const definition = body.params;
    if (!definition?.ReportName || !definition.ReportType || !Array.isArray(definition.FieldNames)) {
      return error(8000, 'Неверный запрос', 'Не указаны обязательные параметры отчёта');
    }
    if (!req.headers.processingmode) return error(8000, 'Неверный запрос', 'Не указан заголовок processingMode');
    const progress = options.reportProgress?.[definition.ReportType] ?? [];
    const polls = reportPolls.get(definition.ReportName) ?? 0;
    reportPolls.set(definition.ReportName, polls + 1);
    if (polls < progress.length) return send(progress[polls]!, '', { retryIn: String(options.retryIn ?? 2) });

    const columns: string[] = definition.FieldNames;
    const filters: any[] = definition.SelectionCriteria?.Filter ?? [];
    const filter = filters.find((f) => f.Field === 'CampaignId' && f.Operator === 'IN');
    const network = filters.find((f) => f.Field === 'AdNetworkType' && f.Operator === 'EQUALS');
    const source = columns.includes('Placement') ? (account.placementRows ?? []) : (account.reportRows[definition.ReportType] ?? []);
    const rows = source.filter((row) => (!filter || filter.Values.includes(String(row.CampaignId))) && (!network || network.Values.includes(String(row.AdNetworkType))));
    const lines: string[] = [];
    if (req.headers.skipreportheader !== 'true') lines.push(`"${definition.ReportName} (${definition.SelectionCriteria?.DateFrom} - ${definition.SelectionCriteria?.DateTo})"`);
    if (req.headers.skipcolumnheader !== 'true') lines.push(columns.join('\t'));
    for (const row of rows) lines.push(columns.map((column) => String(row[column] ?? '--')).join('\t'));
    if (req.headers.skipreportsummary !== 'true') lines.push(`Total rows: ${rows.length}`);
    send(200, `${lines.join('\n')}\n`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/json/v5`,
    requests,
    account,
    failNext(service, failure, clientLogin) {
      const key = clientLogin ? `${service}@${clientLogin}` : service;
      const list = failures.get(key) ?? [];
      list.push({ ...failure });
      failures.set(key, list);
    },
    clearFailures: () => failures.clear(),
    failItems(service, ids, failure) {
      for (const id of ids) itemFailures.set(`${service}:${id}`, failure);
    },
    writes: () => requests.filter((request) => request.method && request.method !== 'get' && request.service !== 'reports').map((request) => ({ service: request.service, method: request.method!, params: request.body?.params })),
    hold(service) {
      let arrived!: () => void;
      let release!: () => void;
      const arrivedPromise = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(service, { arrived, released });
      return {
        arrived: arrivedPromise,
        release: () => {
          holds.delete(service);
          release();
        },
      };
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    unitsLeft: () => units.available,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Keeps the requested fields; sub-objects (TextAd, Callout…) only when their field list was asked for. */
function project(object: Record<string, unknown>, fieldNames: string[], sub: Record<string, { param: string }>, params: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fieldNames) if (name in object) out[name] = object[name];
  for (const [key, { param }] of Object.entries(sub)) {
    const wanted: string[] | undefined = params[param];
    const value = object[key] as Record<string, unknown> | undefined;
    if (!wanted || !value) continue;
    out[key] = Object.fromEntries(Object.entries(value).filter(([name]) => wanted.includes(name)));
  }
  return out;
}

/** The v4 Live address's service name (`failNext('live4', …)`). */
const LIVE4 = 'live4';

function serviceOf(req: IncomingMessage): string {
  const path = (req.url ?? '').replace(/\?.*$/, '');
  if (/^\/live\/v4\/json\/?$/.test(path)) return LIVE4;
  return path.replace(/^\/json\/v5\//, '');
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/* ------------------------------------------------------------------------------------------------
 * A fictional advertiser, «ТеплоДом» (heated floors), for the tests. Money in millionths of a rouble,
 * as the API sends it.
 * ---------------------------------------------------------------------------------------------- */

export function teplodomAccount(): FakeDirectAccount {
  return {
    campaigns: [
      {
        Id: 701, Name: 'Тёплый пол — Поиск', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', DailyBudget: { Amount: 1_500_000_000, Mode: 'STANDARD' }, NegativeKeywords: { Items: ['бесплатно', 'своими руками', 'вакансии'] },
        StartDate: '2024-03-01', EndDate: null, TimeZone: 'Europe/Moscow',
        // Weekdays 8:00–20:00 (evening hours at 50 %), off all weekend.
        TimeTargeting: { Schedule: { Items: [1, 2, 3, 4, 5].map((day) => [day, ...Array.from({ length: 24 }, (_, hour) => (hour < 8 ? 0 : hour < 18 ? 100 : hour < 20 ? 50 : 0))].join(',')).concat(['6,' + Array(24).fill(0).join(','), '7,' + Array(24).fill(0).join(',')]) }, ConsiderWorkingWeekends: 'YES' },
        TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION', PlacementTypes: { SearchResults: 'YES', ProductGallery: 'YES', DynamicPlaces: 'YES' } }, Network: { BiddingStrategyType: 'SERVING_OFF' } }, RelevantKeywords: null },
      },
      {
        Id: 702, Name: 'Тёплый пол — РСЯ', Type: 'TEXT_CAMPAIGN', State: 'SUSPENDED', Status: 'ACCEPTED', Currency: 'RUB', DailyBudget: null, NegativeKeywords: null, StartDate: '2024-04-15', EndDate: '2024-12-31', TimeZone: 'Europe/Moscow',
        TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'SERVING_OFF' }, Network: { BiddingStrategyType: 'WB_MAXIMUM_CLICKS', WbMaximumClicks: { WeeklySpendLimit: 7_000_000_000, BidCeiling: 20_000_000 } } } },
      },
      { Id: 703, Name: 'Архив 2022', Type: 'TEXT_CAMPAIGN', State: 'ARCHIVED', Status: 'ACCEPTED', Currency: 'RUB', NegativeKeywords: null },
    ],
    adGroups: [
      { Id: 8001, Name: 'Электрический тёплый пол', CampaignId: 701, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', RegionIds: [213, 2], NegativeKeywords: { Items: ['ремонт'] } },
      { Id: 8002, Name: 'Водяной тёплый пол', CampaignId: 701, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'RARELY_SERVED', RegionIds: [213], NegativeKeywords: null, NegativeKeywordSharedSetIds: { Items: [7001] } },
      { Id: 8003, Name: 'Тёплый пол под плитку', CampaignId: 702, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [213], NegativeKeywords: null, NegativeKeywordSharedSetIds: null },
      { Id: 8004, Name: 'Старая группа', CampaignId: 703, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', RegionIds: [213], NegativeKeywords: null },
    ],
    ads: [
      {
        Id: 9001, AdGroupId: 8001, CampaignId: 701, State: 'ON', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
        TextAd: {
          Title: 'Электрический тёплый пол от 990 ₽', Title2: 'Монтаж за 1 день', Text: 'Маты и кабель в наличии. Гарантия 15 лет. Доставка по Москве',
          Href: 'https://teplodom.example/elektro', DisplayUrlPath: 'elektro-pol', Mobile: 'NO', SitelinkSetId: 5001, AdImageHash: 'fakeHash02',
          AdExtensions: [{ AdExtensionId: 6001, Type: 'CALLOUT' }, { AdExtensionId: 6002, Type: 'CALLOUT' }],
        },
      },
      {
        Id: 9002, AdGroupId: 8001, CampaignId: 701, State: 'ON', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
        TextAd: { Title: 'Тёплый пол в квартиру', Title2: null, Text: 'Рассчитаем комплект за 5 минут', Href: 'https://teplodom.example/elektro?m=1', DisplayUrlPath: null, Mobile: 'YES', SitelinkSetId: null, AdImageHash: null, AdExtensions: [] },
      },
      {
        Id: 9003, AdGroupId: 8002, CampaignId: 701, State: 'SUSPENDED', Status: 'REJECTED', StatusClarification: 'Объявление отклонено. Причина: в тексте не указан товар или услуга с сайта.', Type: 'TEXT_AD', Subtype: 'NONE',
        TextAd: { Title: 'Водяной тёплый пол под ключ', Title2: 'Проект бесплатно', Text: 'Коллекторы и трубы в наличии', Href: 'https://teplodom.example/voda', DisplayUrlPath: 'voda', Mobile: 'NO', SitelinkSetId: 5001, AdExtensions: [{ AdExtensionId: 6002, Type: 'CALLOUT' }] },
      },
      { Id: 9004, AdGroupId: 8003, CampaignId: 702, State: 'ON', Status: 'ACCEPTED', Type: 'IMAGE_AD', Subtype: 'TEXT_IMAGE_AD', TextImageAd: { AdImageHash: 'fakeHash01', Href: 'https://teplodom.example/plitka' } },
      {
        Id: 9005, AdGroupId: 8002, CampaignId: 701, State: 'ARCHIVED', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
        TextAd: { Title: 'Старое объявление', Title2: null, Text: 'Акция 2022', Href: 'https://teplodom.example/old', DisplayUrlPath: null, Mobile: 'NO', SitelinkSetId: null, AdExtensions: [] },
      },
    ],
    keywords: [
      { Id: 10001, Keyword: 'тёплый пол электрический -водяной -отзывы', AdGroupId: 8001, CampaignId: 701, Bid: 25_000_000, ContextBid: 5_000_000, State: 'ON', Status: 'ACCEPTED' },
      { Id: 10002, Keyword: '"купить тёплый пол"', AdGroupId: 8001, CampaignId: 701, Bid: 30_500_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
      { Id: 10003, Keyword: '"!тёплый !пол"', AdGroupId: 8001, CampaignId: 701, Bid: 12_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
      { Id: 10004, Keyword: '---autotargeting', AdGroupId: 8001, CampaignId: 701, Bid: 10_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
      { Id: 10005, Keyword: 'водяной тёплый пол -[своими руками] -!как', AdGroupId: 8002, CampaignId: 701, Bid: 18_000_000, ContextBid: 0, State: 'SUSPENDED', Status: 'ACCEPTED' },
      { Id: 10006, Keyword: 'тёплый пол санкт-петербург', AdGroupId: 8002, CampaignId: 701, Bid: 20_000_000, ContextBid: 0, State: 'ON', Status: 'MODERATION', ServingStatus: 'RARELY_SERVED' },
      { Id: 10007, Keyword: 'тёплый пол под плитку', AdGroupId: 8003, CampaignId: 702, Bid: null, ContextBid: 3_000_000, State: 'OFF', Status: 'ACCEPTED' },
      { Id: 10008, Keyword: 'старая фраза', AdGroupId: 8004, CampaignId: 703, Bid: 1_000_000, ContextBid: 0, State: 'OFF', Status: 'ACCEPTED' },
    ],
    negativeKeywordSharedSets: [
      { Id: 7001, Name: 'Общие минус-слова', NegativeKeywords: ['бесплатно', 'своими руками', 'пермь'], Associated: 'YES' },
      { Id: 7002, Name: 'Неиспользуемый набор', NegativeKeywords: ['отзывы'], Associated: 'NO' },
    ],
    sitelinksSets: [
      {
        Id: 5001,
        Sitelinks: [
          { Title: 'Цены', Href: 'https://teplodom.example/ceny', Description: 'Прайс на монтаж и материалы' },
          { Title: 'Гарантия', Href: 'https://teplodom.example/garantiya', Description: null },
          { Title: 'Контакты', Href: null, Description: null },
        ],
      },
    ],
    adExtensions: [
      { Id: 6001, Type: 'CALLOUT', Status: 'ACCEPTED', Callout: { CalloutText: 'Монтаж за 1 день' } },
      { Id: 6002, Type: 'CALLOUT', Status: 'ACCEPTED', Callout: { CalloutText: 'Гарантия 15 лет' } },
    ],
    adImages: [
      { AdImageHash: 'fakeHash01', Name: 'plitka_1080x607.jpg', Type: 'WIDE', Subtype: 'NONE', Associated: 'YES', OriginalUrl: 'https://avatars.example/fakeHash01/orig', PreviewUrl: 'https://avatars.example/fakeHash01/x90' },
      { AdImageHash: 'fakeHash02', Name: 'elektro-pol_450x450.png', Type: 'REGULAR', Subtype: 'NONE', Associated: 'YES', OriginalUrl: 'https://avatars.example/fakeHash02/orig', PreviewUrl: 'https://avatars.example/fakeHash02/x90' },
      { AdImageHash: 'fakeHash99', Name: 'unused.jpg', Type: 'REGULAR', Subtype: 'NONE', Associated: 'NO', OriginalUrl: 'https://avatars.example/fakeHash99/orig', PreviewUrl: 'https://avatars.example/fakeHash99/x90' },
    ],
    reportRows: {
      CUSTOM_REPORT: [
        { CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10001, CriterionType: 'KEYWORD', Impressions: 1200, Clicks: 60, Cost: '1500.50', Conversions: 3 },
        { CampaignId: 701, AdGroupId: 8001, AdId: 9002, CriterionId: 10001, CriterionType: 'KEYWORD', Impressions: 300, Clicks: 10, Cost: '250.25', Conversions: '--' },
        { CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10002, CriterionType: 'KEYWORD', Impressions: 800, Clicks: 40, Cost: '1200.00', Conversions: 2 },
        { CampaignId: 701, AdGroupId: 8002, AdId: 9003, CriterionId: 10005, CriterionType: 'KEYWORD', Impressions: 100, Clicks: 2, Cost: '50.00', Conversions: 0 },
        { CampaignId: 702, AdGroupId: 8003, AdId: 9004, CriterionId: 10007, CriterionType: 'KEYWORD', Impressions: 5000, Clicks: 25, Cost: '300.00', Conversions: 0 },
      ],
      SEARCH_QUERY_PERFORMANCE_REPORT: [
        { CampaignId: 701, CampaignName: 'Тёплый пол — Поиск', AdGroupName: 'Электрический тёплый пол', Criterion: 'тёплый пол электрический -водяной -отзывы', Query: 'тёплый пол электрический под ламинат цена', Impressions: 150, Clicks: 9, Cost: '220.50', Conversions: 1 },
        { CampaignId: 701, CampaignName: 'Тёплый пол — Поиск', AdGroupName: 'Электрический тёплый пол', Criterion: '"купить тёплый пол"', Query: 'купить тёплый пол', Impressions: 90, Clicks: 6, Cost: '180.00', Conversions: 2 },
        { CampaignId: 701, CampaignName: 'Тёплый пол — Поиск', AdGroupName: 'Водяной тёплый пол', Criterion: '---autotargeting', Query: 'тёплый пол своими руками видео', Impressions: 40, Clicks: 3, Cost: '75.00', Conversions: '--' },
      ],
    },
  };
}

/**
 * «ТеплоДом» with what an audit turns into suggestions the API can carry: a broad keyword that narrower ones
 * of its group overlap (cross-minus), an ad title over Direct's limit (an ad fix), search queries for
 * free-of-charge and DIY intents (negatives), and a keyword spending without conversions (verdict «stop»).
 */
export function teplodomApplyAccount(): FakeDirectAccount {
  const account = teplodomAccount();
  account.keywords.push(
    { Id: 10011, Keyword: 'тёплый пол', AdGroupId: 8001, CampaignId: 701, Bid: 15_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
    { Id: 10012, Keyword: 'тёплый пол электрический купить', AdGroupId: 8001, CampaignId: 701, Bid: 15_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' },
  );
  const ad = account.ads.find((item) => item.Id === 9002)!;
  (ad.TextAd as Record<string, unknown>).Title = 'Тёплый пол в квартиру и частный дом с монтажом под ключ недорого';
  // «тёплый пол» spent 2 500 ₽ on 45 clicks without a conversion: the audit says to stop it.
  account.reportRows.CUSTOM_REPORT!.push({ CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10011, CriterionType: 'KEYWORD', Impressions: 900, Clicks: 45, Cost: '2500.00', Conversions: 0 });
  const rows = account.reportRows.SEARCH_QUERY_PERFORMANCE_REPORT!;
  for (const [query, clicks] of [
    ['тёплый пол скачать схему укладки', 14],
    ['тёплый пол торрент инструкция скачать', 9],
    ['тёплый пол вакансии монтажник', 8],
    ['как сделать тёплый пол самому', 12],
  ] as const) {
    rows.push({ CampaignId: 701, CampaignName: 'Тёплый пол — Поиск', AdGroupName: 'Электрический тёплый пол', Criterion: 'тёплый пол', Query: query, Impressions: 300, Clicks: clicks, Cost: `${clicks * 40}.00`, Conversions: 0 });
  }
  return account;
}

/**
 * «ТеплоДом» for bids and excluded sites: search campaign 701 bids by hand (`HIGHEST_POSITION`), so the audit
 * advises bids — lower for «тёплый пол электрический купить» (a conversion at 2 400 ₽), higher for the two
 * keywords whose conversions are cheap — and network campaign 702 (already excluding one site) shows on three
 * sites with a suspicious CTR and no conversion.
 */
export function teplodomBidsSitesAccount(): FakeDirectAccount {
  const account = teplodomApplyAccount();
  const rows = account.reportRows.CUSTOM_REPORT!;
  const stop = rows.find((row) => row.CriterionId === 10011)!;
  stop.Cost = '3000.00';
  rows.push({ CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10012, CriterionType: 'KEYWORD', Impressions: 700, Clicks: 40, Cost: '2400.00', Conversions: 1 });
  account.campaigns.find((campaign) => campaign.Id === 702)!.ExcludedSites = { Items: ['old-site.example'] };
  const site = (placement: string, impressions: number, clicks: number, cost: string) => ({ CampaignId: 702, AdNetworkType: 'AD_NETWORK', Placement: placement, Impressions: impressions, Clicks: clicks, Cost: cost, Conversions: 0 });
  account.placementRows = [site('games-one.example', 1000, 60, '600.00'), site('weather.example', 800, 40, '400.00'), site('com.puzzle.game', 500, 20, '200.00'), site('old-site.example', 900, 50, '500.00')];
  return account;
}
