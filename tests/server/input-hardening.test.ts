import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, genericValidationMessages, validationMessages } from '../../contract/messages.js';
import * as v from 'valibot';
import { isCleanText, text } from '../../contract/text.js';
import { routeContracts } from '../../server/lib/schema.js';
import { call, createTestApp, type TestApp } from './helpers/app.js';
import { createUser, type FixtureUser } from './helpers/fixtures.js';
import { PASSWORD, register, registration } from './auth/helpers.js';
import { projectWithCampaigns, quotedCost } from './analysis/helpers.js';

/**
 * Hostile and malformed input (issue 11): control characters never reach PostgreSQL, every validation
 * answers in Russian, common passwords and unlimited current-password guesses are refused, idempotency
 * keys cannot be reused for another request, authentication comes first on every protected route, the
 * OpenAPI document validates, and the cost quote is what a start charges.
 */

const NUL = '\u0000';
/** Russian text and no English words (valibot's defaults read «Invalid type: Expected …»). */
const expectRussian = (message: string) => {
  expect(message).toMatch(/[а-яё]/i);
  expect(message).not.toMatch(/Invalid|Expected|Received|must|should/);
};

let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  t = await createTestApp({
    jobQueue: { runWorkers: false },
    // A model is configured (so AI plans can start) but never called: no worker runs the jobs here.
    config: { llm: { apiUrl: 'http://127.0.0.1:9/v1', apiKey: null, model: 'test-model', timeoutMs: 1_000 } },
  });
  user = await createUser(t.app, { balance: 10_000 });
});
afterAll(async () => t?.close());

describe('NUL and other control characters', () => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('refuses our own CSV template with a NUL in one cell: 422 with the file, row and column, and the server keeps serving', async () => {
    const template = await readFile(path.join(import.meta.dirname, '../fixtures/imports/template.csv'), 'utf8');
    const lines = template.split('\r\n');
    // Row 2 is the first data row; its first cell is the campaign name.
    lines[1] = lines[1]!.replace('Диваны', `Ди${NUL}ваны`);
    const form = new FormData();
    form.append('files', new Blob([lines.join('\r\n')], { type: 'text/csv' }), 'шаблон.csv');
    const response = await fetch(`${baseUrl}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; code: string; detail: { loc: unknown[]; msg: string }[] };
    expect(body.code).toBe('IMPORT_FAILED');
    expect(body.detail).toContainEqual({ loc: ['files', 'шаблон.csv', 2, 'Кампания'], msg: expect.stringContaining('управляющий символ (0x00)') });
    expectRussian(body.detail[0]!.msg);

    const health = await fetch(`${baseUrl}/api/health`);
    expect(health.status).toBe(200);
    // The same file without the NUL still imports.
    const clean = new FormData();
    clean.append('files', new Blob([template], { type: 'text/csv' }), 'шаблон.csv');
    expect((await fetch(`${baseUrl}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: clean })).status).toBe(200);
  });

  it('drops control characters from an uploaded file name instead of failing on it', async () => {
    const template = await readFile(path.join(import.meta.dirname, '../fixtures/imports/template.csv'));
    const form = new FormData();
    form.append('files', new Blob([template], { type: 'text/csv' }), `шаб${NUL}лон.csv`);
    const response = await fetch(`${baseUrl}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { file_names: string[] }).file_names).toEqual(['шаблон.csv']);
  });

  it('answers 422 in Russian for a NUL in a project name, region or competitor, on create and on update', async () => {
    const base = { name: 'Окна', site_url: 'okna.example.ru', platform: 'yandex_direct' };
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ ...base, name: `Ок${NUL}на` }, ['body', 'name']],
      [{ ...base, region: `Моск${NUL}ва` }, ['body', 'region']],
      [{ ...base, settings: { competitors: ['Рога', `Ко${NUL}пыта`] } }, ['body', 'settings', 'competitors', 1]],
      [{ ...base, name: 'Окна\u0007' }, ['body', 'name']],
    ];
    for (const [body, loc] of cases) {
      const response = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.detail).toEqual([{ loc, msg: genericValidationMessages.controlCharacters }]);
    }
    const created = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body: { ...base, region: 'Москва\tи область' } });
    expect(created.status).toBe(201);
    const updated = await call(t.app, 'PATCH', `/api/v1/projects/${created.body.id}`, { token: user.token, body: { region: `Мо${NUL}сква` } });
    expect(updated.status).toBe(422);
    expect(updated.body.error).toBe(genericValidationMessages.controlCharacters);
    const search = await call(t.app, 'GET', `/api/v1/projects?search=${encodeURIComponent(`ок${NUL}`)}`, { token: user.token });
    expect(search.status).toBe(422);
  });

  it('never answers 5xx to control characters anywhere in a JSON body', async () => {
    const bodies: [string, string, unknown][] = [
      ['POST', '/api/v1/auth/login', { email: `a${NUL}@b.ru`, password: `x${NUL}` }],
      ['POST', '/api/v1/auth/register', registration({ first_name: `Ан${NUL}на` })],
      ['POST', '/api/v1/auth/refresh', { refresh_token: NUL }],
      ['POST', '/api/v1/tokens/calculate-cost', { campaigns: [{ name: `к${NUL}`, keywords_count: 1, ads_count: 1 }] }],
      ['PUT', '/api/v1/organizations/current', { name: `Орг${NUL}` }],
    ];
    for (const [method, url, body] of bodies) {
      const response = await call(t.app, method as 'POST', url, { token: user.token, body });
      expect(response.status, url).toBe(422);
      expectRussian(response.body.error);
    }
  });
});

describe('Russian messages from every validation', () => {
  it('answers malformed bodies (wrong type, missing field, bad email, too long) with Russian error and detail', async () => {
    const cases: [string, string, unknown, string?][] = [
      ['POST', '/api/v1/auth/refresh', { refresh_token: 5 }],
      ['POST', '/api/v1/auth/register', registration({ email: 'not-an-email' })],
      ['POST', '/api/v1/auth/register', registration({ first_name: 'А'.repeat(101) })],
      ['POST', '/api/v1/auth/switch-organization', {}, user.token],
      ['POST', '/api/v1/auth/switch-organization', { organization_id: 42 }, user.token],
      ['POST', '/api/v1/tokens/calculate-cost', { campaigns: [{ keywords_count: 'много', ads_count: 1 }] }, user.token],
      ['POST', '/api/v1/projects', { name: 'Окна', site_url: 'okna.example.ru', platform: 'yandex_direct', settings: { competitors: 'Рога' } }, user.token],
      ['POST', '/api/v1/auth/logout', { refresh_token: 7 }],
    ];
    for (const [method, url, body, token] of cases) {
      const response = await call(t.app, method as 'POST', url, { body, ...(token ? { token } : {}) });
      expect(response.status, `${url} ${JSON.stringify(body)}`).toBe(422);
      expectRussian(response.body.error);
      for (const item of response.body.detail) expectRussian(item.msg);
    }
    const missing = await call(t.app, 'POST', '/api/v1/auth/switch-organization', { token: user.token, body: {} });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'organization_id'], msg: genericValidationMessages.missingKey }]);
    const tooLong = await call(t.app, 'GET', `/api/v1/projects?search=${'я'.repeat(201)}`, { token: user.token });
    expect(tooLong.body.detail).toEqual([{ loc: ['querystring', 'search'], msg: 'Не длиннее 200 символов' }]);
  });
});

describe('common passwords (ASVS 6.2.4)', () => {
  it('are refused on registration, on a password change and on a reset, in Russian', async () => {
    for (const password of ['Password1', 'Qwerty123', 'qWERTY123', 'Football1']) {
      const response = await call(t.app, 'POST', '/api/v1/auth/register', { body: registration({ password }) });
      expect(response.status, password).toBe(422);
      expect(response.body.detail).toEqual([{ loc: ['body', 'password'], msg: validationMessages.passwordCommon }]);
    }
    // «123456789» is common too, but the composition rules refuse it first.
    const digits = await call(t.app, 'POST', '/api/v1/auth/register', { body: registration({ password: '123456789' }) });
    expect(digits.status).toBe(422);
    expect(digits.body.detail.map((d: { msg: string }) => d.msg)).toContain(validationMessages.passwordLowercase);

    const account = await register(t.app);
    const change = await call(t.app, 'POST', '/api/v1/auth/new-password', { token: account.tokens.access_token, body: { current_password: PASSWORD, password: 'Qwerty123' } });
    expect(change.status).toBe(422);
    expect(change.body.detail).toEqual([{ loc: ['body', 'password'], msg: validationMessages.passwordCommon }]);

    const reset = await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token: 'any-token', password: 'Iloveyou1' } });
    expect(reset.status).toBe(422);
    expect(reset.body.detail).toEqual([{ loc: ['body', 'password'], msg: validationMessages.passwordCommon }]);

    // An uncommon password passes.
    expect((await call(t.app, 'POST', '/api/v1/auth/register', { body: registration({ password: 'Zubr-Lesnoi-82' }) })).status).toBe(202);
  });
});

describe('current_password tries on new-password', () => {
  it('allows 5 tries per account in 15 minutes, then answers 429 in Russian, even with the right password; other accounts are not affected', async () => {
    const account = await register(t.app);
    const token = account.tokens.access_token;
    for (let i = 0; i < 5; i++) {
      const wrong = await call(t.app, 'POST', '/api/v1/auth/new-password', { token, body: { current_password: `Wrong${i}abcd`, password: 'Novyi-Parol-77' } });
      expect(wrong.status).toBe(422);
      expect(wrong.body.detail).toEqual([{ loc: ['body', 'current_password'], msg: apiMessages.currentPasswordInvalid }]);
    }
    const limited = await call(t.app, 'POST', '/api/v1/auth/new-password', { token, body: { current_password: PASSWORD, password: 'Novyi-Parol-77' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'Слишком много попыток ввести текущий пароль. Попробуйте через 15 мин.', code: 'RATE_LIMITED' });

    // The counter is the account's: another session of another user still changes its password.
    const other = await register(t.app);
    const changed = await call(t.app, 'POST', '/api/v1/auth/new-password', { token: other.tokens.access_token, body: { current_password: PASSWORD, password: 'Novyi-Parol-77' } });
    expect(changed.status).toBe(200);
  });
});

describe('idempotency key reused with another body', () => {
  let project: Awaited<ReturnType<typeof projectWithCampaigns>>;
  beforeAll(async () => {
    project = await projectWithCampaigns(t.app, user);
  });

  it('analyses: the same key and body return the first run, another body is 409', async () => {
    const url = `/api/v1/projects/${project.projectId}/analyses`;
    const key = randomUUID();
    const first = await call(t.app, 'POST', url, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: key } });
    expect(first.status).toBe(201);
    const again = await call(t.app, 'POST', url, { token: user.token, body: { campaign_ids: [...project.campaignIds].reverse(), idempotency_key: key } });
    expect(again.status).toBe(200);
    expect(again.body.analysis.id).toBe(first.body.analysis.id);
    for (const body of [{ campaign_ids: project.campaignIds.slice(0, 1) }, { campaign_ids: project.campaignIds, settings: { min_clicks_for_negative: 9 } }]) {
      const other = await call(t.app, 'POST', url, { token: user.token, body: { ...body, idempotency_key: key } });
      expect(other.status, JSON.stringify(body)).toBe(409);
      expect(other.body).toEqual({ error: apiMessages.idempotencyKeyOtherRequest, code: 'IDEMPOTENCY_KEY_REUSED' });
    }
    expect(await t.app.db.selectFrom('token_ledger').select('id').where('idempotency_key', '=', `analysis:${key}`).execute()).toHaveLength(1);
  });

  it('page checks: the same key and body return the first run, other pages are 409', async () => {
    const url = `/api/v1/projects/${project.projectId}/page-checks`;
    const key = randomUUID();
    const first = await call(t.app, 'POST', url, { token: user.token, body: { urls: ['https://okna.example.ru/a'], idempotency_key: key } });
    expect(first.status).toBe(201);
    const again = await call(t.app, 'POST', url, { token: user.token, body: { urls: ['https://okna.example.ru/a'], idempotency_key: key } });
    expect(again.status).toBe(200);
    expect(again.body.analysis.id).toBe(first.body.analysis.id);
    const other = await call(t.app, 'POST', url, { token: user.token, body: { urls: ['https://okna.example.ru/b'], idempotency_key: key } });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: apiMessages.idempotencyKeyOtherRequest, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('AI plans: the same key for the same audit returns the first plan, for another audit 409', async () => {
    const audits: string[] = [];
    for (let i = 0; i < 2; i++) {
      const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
      audits.push(started.body.analysis.id);
    }
    await t.app.db.updateTable('analyses').set({ status: 'completed', stage: 'done', progress: 100 }).where('id', 'in', audits).execute();
    const key = randomUUID();
    const first = await call(t.app, 'POST', `/api/v1/analyses/${audits[0]}/ai-plans`, { token: user.token, body: { idempotency_key: key } });
    expect(first.status).toBe(201);
    const again = await call(t.app, 'POST', `/api/v1/analyses/${audits[0]}/ai-plans`, { token: user.token, body: { idempotency_key: key } });
    expect(again.status).toBe(200);
    expect(again.body.ai_plan.id).toBe(first.body.ai_plan.id);
    const other = await call(t.app, 'POST', `/api/v1/analyses/${audits[1]}/ai-plans`, { token: user.token, body: { idempotency_key: key } });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('admin credits: the same key and body credit once, another reason or recipient is 409', async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const [first, second] = [await createUser(t.app), await createUser(t.app)];
    const url = '/api/v1/admin/tokens/credit';
    const key = randomUUID();
    const body = { user_id: first.id, amount: 50, reason: 'Компенсация', idempotency_key: key };
    const credited = await call(t.app, 'POST', url, { token: admin.token, body });
    expect(credited.status).toBe(200);
    const again = await call(t.app, 'POST', url, { token: admin.token, body });
    expect(again.status).toBe(200);
    expect(again.body.entry.id).toBe(credited.body.entry.id);
    expect(again.body.balance).toBe(50);
    for (const changed of [{ ...body, reason: 'Другая причина' }, { ...body, user_id: second.id }]) {
      const other = await call(t.app, 'POST', url, { token: admin.token, body: changed });
      expect(other.status, JSON.stringify(changed)).toBe(409);
      expect(other.body).toEqual({ error: apiMessages.idempotencyKeyOtherRequest, code: 'IDEMPOTENCY_KEY_REUSED' });
    }
    expect((await call(t.app, 'GET', '/api/v1/tokens/balance', { token: second.token })).body.balance).toBe(0);
  });
});

describe('authentication from the contract, first', () => {
  it('answers 401 to an anonymous call with an invalid body on every protected route of the document', async () => {
    const document = (await call(t.app, 'GET', '/api/docs/json')).body as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
    const routes = Object.entries(document.paths).flatMap(([url, operations]) =>
      Object.entries(operations)
        // Optional bearer ([{bearerAuth: []}, {}]) lets anonymous calls through by design.
        .filter(([, operation]) => operation.security?.length === 1 && 'bearerAuth' in operation.security[0]!)
        .map(([method, operation]) => ({ method: method.toUpperCase(), url: url.replace(/\{\w+\}/g, 'not-a-uuid'), operation })),
    );
    expect(routes.length).toBeGreaterThan(40);
    for (const route of ['POST /api/v1/auth/switch-organization', 'POST /api/v1/auth/new-password', 'POST /api/v1/projects/import-preview', 'GET /api/v1/admin/overview']) {
      expect(routes.some((r) => `${r.method} ${r.url}` === route), route).toBe(true);
    }
    for (const route of routes) {
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      const response = await t.app.inject({
        method: route.method as 'POST',
        url: `${route.url}?page=-1&search=${'x'.repeat(300)}`,
        ...(hasBody ? { payload: { unexpected: NUL, organization_id: 5, current_password: 1 } } : {}),
      });
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(401);
      expect(response.json()).toEqual({ error: apiMessages.unauthorized, code: 'UNAUTHORIZED' });
    }
  });
});

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.0.3', async () => {
    const document = (await call(t.app, 'GET', '/api/docs/json')).body;
    expect(document.openapi).toBe('3.0.3');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('calculate-cost without analysis_kinds', () => {
  it('quotes what an audit start charges', async () => {
    const project = await projectWithCampaigns(t.app, user);
    const quote = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', {
      token: user.token,
      body: { campaigns: project.campaigns.map((c) => ({ keywords_count: c.keywords_count, ads_count: c.ads_count, groups_count: c.groups_count })) },
    });
    expect(quote.status).toBe(200);
    expect(quote.body.total).toBe(await quotedCost(t.app, user.token, project.campaigns));
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, { token: user.token, body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() } });
    expect(started.status).toBe(201);
    expect(started.body.analysis.cost).toBe(quote.body.total);

    // The README's example: 300 keywords and 60 ads cost 13 for scoring, 20 with the semantics a start always runs.
    const example = await call(t.app, 'POST', '/api/v1/tokens/calculate-cost', { token: user.token, body: { campaigns: [{ keywords_count: 300, ads_count: 60 }] } });
    expect(example.body.total).toBe(20);
  });
});

describe('the contract text rule', () => {
  type Node = { kind?: string; type?: string; requirement?: unknown; pipe?: Node[]; entries?: Record<string, Node>; item?: Node; wrapped?: Node; options?: Node[]; key?: Node; value?: Node };
  const guarded = (schema: Node): boolean => Boolean(schema.pipe?.some((step) => step.requirement === isCleanText) || (schema.pipe && guarded(schema.pipe[0]!)));

  /** Paths of string schemas inside `schema` that do not go through `text()`. */
  function unguardedStrings(schema: Node, path: string, found: string[]): string[] {
    if (schema.type === 'string') {
      if (!guarded(schema)) found.push(path);
      return found;
    }
    for (const step of schema.pipe ?? []) if (step !== schema && step.kind === 'schema') unguardedStrings(step, path, found);
    for (const [key, entry] of Object.entries(schema.entries ?? {})) unguardedStrings(entry, `${path}.${key}`, found);
    for (const child of [schema.item, schema.wrapped, schema.key, schema.value]) if (child) unguardedStrings(child, path, found);
    for (const option of schema.options ?? []) if (typeof option === 'object') unguardedStrings(option, path, found);
    return found;
  }

  it('guards every string of every request body, query and path parameter of the app', () => {
    // The walker itself: a bare string is found, text() and what is built on it are not.
    const sample = v.object({ bare: v.optional(v.string()), clean: v.pipe(text(), v.trim()), list: v.array(v.nullable(v.string())) });
    expect(unguardedStrings(sample as unknown as Node, 'sample', [])).toEqual(['sample.bare', 'sample.list']);

    expect(routeContracts.size).toBeGreaterThan(40);
    const found: string[] = [];
    for (const contract of routeContracts) {
      for (const part of ['body', 'querystring', 'params'] as const) {
        const schema = contract[part];
        if (schema) unguardedStrings(schema as unknown as Node, `${contract.summary ?? '?'} ${part}`, found);
      }
    }
    expect(found).toEqual([]);
  });
});
