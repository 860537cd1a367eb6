import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { directApiMessages } from '../../../contract/messages.js';
import { createDirectClient, createLimiter, DIRECT_API_URL, DIRECT_SANDBOX_API_URL, type DirectClientOptions } from '../../../server/direct/api/client.js';
import { DirectApiError } from '../../../server/direct/api/errors.js';
import { parseReportTsv, reportNumber } from '../../../server/direct/api/report-tsv.js';
import { parseUnitsHeader } from '../../../server/direct/api/units.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';

let fake: FakeDirect;
let sleeps: number[];

beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), {
    token: 'good-token',
    pageSize: 2,
    reportProgress: { SEARCH_QUERY_PERFORMANCE_REPORT: [201, 202, 202] },
    retryIn: 3,
  });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
});

/** A client of the fake whose waits are recorded, never slept. */
function client(options: Partial<DirectClientOptions> = {}) {
  sleeps = [];
  return createDirectClient({
    token: 'good-token',
    baseUrl: fake.url,
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<DirectApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DirectApiError);
  return error as DirectApiError;
}

const keywordParams = { SelectionCriteria: { CampaignIds: [701, 702, 703] }, FieldNames: ['Id', 'Keyword', 'AdGroupId'] };

describe('Direct client: get', () => {
  it('follows LimitedBy page after page until every object is collected', async () => {
    const keywords = await client().get<{ Id: number }>('keywords', keywordParams);

    expect(keywords.map((k) => k.Id)).toEqual([10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008]);
    const pages = fake.requests.filter((r) => r.service === 'keywords');
    expect(pages.map((r) => r.body.params.Page)).toEqual([
      { Limit: 10_000, Offset: 0 },
      { Limit: 10_000, Offset: 2 },
      { Limit: 10_000, Offset: 4 },
      { Limit: 10_000, Offset: 6 },
    ]);
    expect(pages.every((r) => r.method === 'get' && r.body.params.SelectionCriteria.CampaignIds.length === 3)).toBe(true);
  });

  it('returns an empty list when nothing matches (the API then leaves the list out)', async () => {
    expect(await client().get('keywords', { SelectionCriteria: { CampaignIds: [999] }, FieldNames: ['Id'] })).toEqual([]);
  });

  it('sends the OAuth token, Client-Login, Russian language and the operator-units choice', async () => {
    await client({ clientLogin: 'teplodom-client', useOperatorUnits: true }).get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] });
    const headers = fake.requests[0]!.headers;
    expect(headers.authorization).toBe('Bearer good-token');
    expect(headers['client-login']).toBe('teplodom-client');
    expect(headers['accept-language']).toBe('ru');
    expect(headers['use-operator-units']).toBe('true');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('leaves Client-Login and Use-Operator-Units out when not asked for', async () => {
    await client().get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] });
    expect(fake.requests[0]!.headers['client-login']).toBeUndefined();
    expect(fake.requests[0]!.headers['use-operator-units']).toBeUndefined();
  });

  it('adds up the points every answer reports in its Units header', async () => {
    const direct = client({ clientLogin: 'teplodom-client' });
    expect(direct.units).toEqual({ spent: 0, available: null, daily: null, requests: 0, usedLogin: null });
    await direct.get('keywords', keywordParams);
    await direct.get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] });

    expect(direct.units).toEqual({ spent: 60, available: fake.unitsLeft(), daily: 64_000, requests: 6, usedLogin: 'teplodom-client' });
  });

  it('picks the production or the sandbox address', () => {
    expect(createDirectClient({ token: 't' }).baseUrl).toBe(DIRECT_API_URL);
    expect(createDirectClient({ token: 't', sandbox: true }).baseUrl).toBe(DIRECT_SANDBOX_API_URL);
    expect(DIRECT_SANDBOX_API_URL).toBe('https://api-sandbox.direct.yandex.com/json/v5');
    expect(createDirectClient({ token: 't', sandbox: true, baseUrl: 'http://127.0.0.1:1/json/v5/' }).baseUrl).toBe('http://127.0.0.1:1/json/v5');
  });
});

describe('Direct client: errors and retries', () => {
  it('maps a rejected token to a Russian message and does not repeat it', async () => {
    const error = await failureOf(client({ token: 'revoked' }).get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] }));

    expect(error.code).toBe(53);
    expect(error.message).toBe(directApiMessages.invalidToken);
    expect(error.category).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.detail).toContain('Ошибка авторизации');
    expect(fake.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('repeats a "try later" error with growing pauses and succeeds', async () => {
    fake.failNext('campaigns', { error_code: 1000, error_string: 'Сервер временно недоступен', times: 2 });
    const campaigns = await client().get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] });

    expect(campaigns).toHaveLength(3);
    expect(fake.requests).toHaveLength(4); // 2 failures, then 2 pages
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('gives up after the configured number of retries with the mapped error', async () => {
    fake.failNext('campaigns', { error_code: 52, error_string: 'Сервер авторизации временно недоступен', times: 10 });
    const error = await failureOf(client({ maxRetries: 2 }).get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] }));

    expect(error.code).toBe(52);
    expect(error.message).toBe(directApiMessages.authServerUnavailable);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('repeats an HTTP 5xx answer that is not even JSON', async () => {
    fake.failNext('adgroups', { error_code: 0, error_string: '', httpStatus: 502, rawBody: '<html>502 Bad Gateway</html>' });
    const groups = await client().get('adgroups', { SelectionCriteria: { CampaignIds: [702] }, FieldNames: ['Id'] });

    expect(groups).toEqual([{ Id: 8003 }]);
    expect(sleeps).toEqual([1000]);
  });

  it('does not repeat "not enough units" and says when points come back', async () => {
    fake.failNext('ads', { error_code: 152, error_string: 'Недостаточно баллов', error_detail: 'Баллы будут начислены через час' });
    const error = await failureOf(client().get('ads', { SelectionCriteria: { CampaignIds: [701] }, FieldNames: ['Id'] }));

    expect(error.code).toBe(152);
    expect(error.category).toBe('units');
    expect(error.message).toBe(directApiMessages.notEnoughUnits);
    expect(error.detail).toBe('Недостаточно баллов: Баллы будут начислены через час');
    expect(fake.requests).toHaveLength(1);
  });

  it('treats concurrency and method limits (506, 56) as worth repeating', async () => {
    fake.failNext('ads', { error_code: 506, error_string: 'Превышено ограничение на количество одновременных запросов' });
    fake.failNext('ads', { error_code: 56, error_string: 'Превышен лимит запросов к методу' });
    const ads = await client().get('ads', { SelectionCriteria: { AdGroupIds: [8003] }, FieldNames: ['Id'] });

    expect(ads).toEqual([{ Id: 9004 }]);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('explains an invalid request with its code, without repeating it', async () => {
    const error = await failureOf(client().get('keywords', { SelectionCriteria: { CampaignIds: [701] }, FieldNames: ['Id', 'NoSuchField'] }));

    expect(error.code).toBe(8000);
    expect(error.message).toBe(directApiMessages.invalidRequest.replace('{code}', '8000'));
    expect(error.detail).toContain('NoSuchField');
    expect(error.retryable).toBe(false);
  });

  it('turns a lost connection into a retryable network error', async () => {
    let calls = 0;
    const direct = client({
      maxRetries: 1,
      fetch: async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
    });
    const error = await failureOf(direct.get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] }));

    expect(error.category).toBe('network');
    expect(error.message).toBe(directApiMessages.network);
    expect(calls).toBe(2);
  });

  it('refuses a LimitedBy that does not move forward instead of looping', async () => {
    const stuck = async () => new Response(JSON.stringify({ result: { Campaigns: [{ Id: 1 }], LimitedBy: 0 } }), { status: 200 });
    const error = await failureOf(client({ fetch: stuck }).get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] }));
    expect(error.category).toBe('protocol');
    expect(error.message).toBe(directApiMessages.badResponse);
  });
});

describe('Direct client: at most 5 requests at once', () => {
  it('queues the sixth request until one of the five answers', async () => {
    let active = 0;
    let most = 0;
    const pending: (() => void)[] = [];
    const held: typeof fetch = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise<void>((resolve) => pending.push(resolve));
      active--;
      return new Response(JSON.stringify({ result: { Campaigns: [] } }), { status: 200, headers: { Units: '1/100/200' } });
    };
    const direct = client({ fetch: held });
    const all = Promise.all(Array.from({ length: 12 }, () => direct.get('campaigns', { SelectionCriteria: {}, FieldNames: ['Id'] })));

    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(active).toBe(5);
    while (pending.length > 0) {
      pending.shift()!();
      await settle();
      expect(active).toBeLessThanOrEqual(5);
    }
    await all;
    expect(most).toBe(5);
    expect(direct.units.requests).toBe(12);
  });

  it('the limiter hands a freed slot to the next waiting task', async () => {
    const run = createLimiter(2);
    const order: string[] = [];
    const gate = () => {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      return { promise, open };
    };
    const a = gate();
    const b = gate();
    const first = run(async () => (await a.promise, order.push('a')));
    const second = run(async () => (await b.promise, order.push('b')));
    const third = run(async () => order.push('c'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    b.open();
    await second;
    await third;
    expect(order).toEqual(['b', 'c']);
    a.open();
    await first;
  });
});

describe('Direct client: reports', () => {
  const definition = {
    SelectionCriteria: { DateFrom: '2024-05-01', DateTo: '2024-05-31' },
    FieldNames: ['CampaignName', 'AdGroupName', 'Criterion', 'Query', 'Impressions', 'Clicks', 'Cost', 'Conversions'],
    ReportName: 'sq-test',
    ReportType: 'SEARCH_QUERY_PERFORMANCE_REPORT',
    DateRangeType: 'CUSTOM_DATE',
    Format: 'TSV' as const,
    IncludeVAT: 'YES' as const,
  };

  it('waits through 201 and 202 for the time retryIn asks, then reads the TSV', async () => {
    const table = await client().reports({ ...definition, ReportName: 'sq-poll' });

    expect(sleeps).toEqual([3000, 3000, 3000]);
    const calls = fake.requests.filter((r) => r.service === 'reports');
    expect(calls).toHaveLength(4);
    expect(calls.every((r) => JSON.stringify(r.body) === JSON.stringify(calls[0]!.body))).toBe(true);
    expect(calls[0]!.headers).toMatchObject({
      processingmode: 'auto',
      returnmoneyinmicros: 'false',
      skipreportheader: 'true',
      skipreportsummary: 'true',
      authorization: 'Bearer good-token',
    });
    expect(table.columns).toEqual(definition.FieldNames);
    expect(table.rows).toHaveLength(3);
    expect(table.rows[0]).toEqual({
      CampaignName: 'Тёплый пол — Поиск',
      AdGroupName: 'Электрический тёплый пол',
      Criterion: 'тёплый пол электрический -водяной -отзывы',
      Query: 'тёплый пол электрический под ламинат цена',
      Impressions: '150',
      Clicks: '9',
      Cost: '220.50',
      Conversions: '1',
    });
  });

  it('asks for the processing mode it is given', async () => {
    await client().reports({ ...definition, ReportType: 'CUSTOM_REPORT', ReportName: 'online-one', FieldNames: ['CampaignId', 'Clicks'] }, { processingMode: 'online' });
    expect(fake.requests[0]!.headers.processingmode).toBe('online');
  });

  it('gives up on a report that is never ready, with a Russian message', async () => {
    const error = await failureOf(client({ reportMaxPolls: 1 }).reports({ ...definition, ReportName: 'sq-never' }));
    expect(error.message).toBe(directApiMessages.reportNotReady);
    expect(sleeps).toEqual([3000]);
  });

  it('maps a refused report (HTTP 400 with an error object)', async () => {
    fake.failNext('reports', { error_code: 4000, error_string: 'Неверные параметры отчета', error_detail: 'Поле Query недопустимо для этого типа отчета' });
    const error = await failureOf(client().reports({ ...definition, ReportName: 'sq-bad' }));
    expect(error.code).toBe(4000);
    expect(error.httpStatus).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(directApiMessages.invalidRequest.replace('{code}', '4000'));
  });

  it('repeats a report whose server failed (HTTP 500)', async () => {
    fake.failNext('reports', { error_code: 1000, error_string: 'Сервер временно недоступен', httpStatus: 500 });
    const table = await client().reports({ ...definition, ReportType: 'CUSTOM_REPORT', ReportName: 'custom-after-500', FieldNames: ['CampaignId', 'Clicks'] });
    expect(table.rows.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000]);
  });
});

describe('report TSV and Units header', () => {
  it('skips a title line, a BOM, CRLF and the Total rows summary', () => {
    const text = '\uFEFF"Отчёт (2024-05-01 - 2024-05-31)"\r\nCampaignId\tClicks\tCost\r\n701\t60\t1500.50\r\n702\t--\t0\r\nTotal rows: 2\r\n';
    expect(parseReportTsv(text, ['CampaignId', 'Clicks', 'Cost'])).toEqual({
      columns: ['CampaignId', 'Clicks', 'Cost'],
      rows: [
        { CampaignId: '701', Clicks: '60', Cost: '1500.50' },
        { CampaignId: '702', Clicks: '--', Cost: '0' },
      ],
    });
  });

  it('reads an empty report as no rows', () => {
    expect(parseReportTsv('CampaignId\tClicks\n', ['CampaignId', 'Clicks']).rows).toEqual([]);
    expect(parseReportTsv('', ['CampaignId']).rows).toEqual([]);
  });

  it('reads report numbers: -- as none, a decimal comma as a point', () => {
    expect(reportNumber('--')).toBe(0);
    expect(reportNumber('12,5')).toBe(12.5);
    expect(reportNumber('1500.50')).toBe(1500.5);
  });

  it('parses Units: spent/available/daily', () => {
    expect(parseUnitsHeader('10/20828/64000')).toEqual({ spent: 10, available: 20828, daily: 64000 });
    expect(parseUnitsHeader('garbage')).toBeNull();
    expect(parseUnitsHeader(null)).toBeNull();
  });
});
