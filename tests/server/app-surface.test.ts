import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movedRoutes } from '../../contract/routes/moved.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { call, createTestApp, memoryMailer, type TestApp } from './helpers/app.js';
import { createUser } from './helpers/fixtures.js';

/** What every client sees of the app as a whole: error format, the served PWA and its headers, the OpenAPI document, secrets. */

describe('errors', () => {
  let t: TestApp;
  let app: FastifyInstance;
  const SECRET = 'connection string postgres://admin:hunter2@db';
  beforeAll(async () => {
    t = await createTestApp();
    // The same app with one route that fails the way a bug would.
    app = await buildApp({ config: t.config, db: t.database.db, mailer: memoryMailer([]) });
    app.get('/api/v1/broken', async () => {
      throw new Error(SECRET);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('answer a failure inside the server with 500 {error, code} in Russian and never a stack trace', async () => {
    const res = await call(app, 'GET', '/api/v1/broken');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Внутренняя ошибка сервера', code: 'INTERNAL' });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/\bat \S+ \(|\.ts:\d+|stack/);
  });

  it('answer malformed JSON, a wrong content type and an oversized body in the same format', async () => {
    const user = await createUser(app);
    const malformed = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Некорректный запрос', code: expect.any(String) });
    expect(malformed.body).not.toMatch(/\bat \S+ \(|stack/);

    const wrongType = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/x-something' }, payload: 'x' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toEqual({ error: 'Неподдерживаемый тип содержимого', code: expect.any(String) });

    const huge = await app.inject({
      method: 'POST',
      url: '/api/v1/tokens/calculate-cost',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ campaigns: [{ name: 'x'.repeat(3 * 1024 * 1024), keywords_count: 1, ads_count: 1 }] }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'Файл слишком большой', code: expect.any(String) });
  });

  it('answer every status the spec names with {error, code} (401, 403, 404, 409, 422, 429 have their own tests)', async () => {
    const anonymous = await call(app, 'GET', '/api/v1/auth/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    const missing = await call(app, 'DELETE', '/api/v1/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Не найдено', code: 'NOT_FOUND' });
  });
});

describe('serving the PWA on the API port (production)', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let webRoot: string;
  const shell = '<!doctype html><html lang="ru"><head><link rel="manifest" href="/manifest.webmanifest"></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

  beforeAll(async () => {
    t = await createTestApp();
    webRoot = await mkdtemp(path.join(os.tmpdir(), 'reklama-web-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'index.html'), shell);
    await writeFile(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(path.join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    await writeFile(path.join(webRoot, 'manifest.webmanifest'), JSON.stringify({ name: 'Reklama Lab', start_url: '/projects' }));
    await writeFile(path.join(webRoot, 'agreement.pdf'), '%PDF-1.4 test');
    app = await buildApp({ config: { ...t.config, webRoot }, db: t.database.db, mailer: memoryMailer([]) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
  });

  it.each(['/', '/projects', '/projects/0b7c/analysis/1/results', '/auth/verify-email?token=abc', '/organization/settings'])(
    'answers the client route %s with the app shell (SPA fallback)',
    async (url) => {
      // As a browser navigates (the fallback is for navigations only: tests/server/web-serving.test.ts).
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toBe(shell);
    },
  );

  it('keeps unknown /api paths a JSON 404, never the shell', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Не найдено', code: 'NOT_FOUND' });
  });

  it('serves hashed assets as immutable, and the shell, the service worker and the manifest for revalidation', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/sw.js', '/manifest.webmanifest', '/index.html', '/agreement.pdf']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await app.inject({ method: 'GET', url: '/agreement.pdf' })).headers['content-type']).toBe('application/pdf');
  });

  it('sends security headers with a CSP the PWA works under: own scripts, worker, manifest and API only', async () => {
    const res = await app.inject({ method: 'GET', url: '/projects' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives['default-src']).toEqual(["'self'"]);
    // The built index.html loads one module script from /assets and has no inline script: 'self' suffices.
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['worker-src']).toEqual(["'self'"]);
    expect(directives['manifest-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // The API answers carry them too.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']).toBe(csp);
  });

  it('the real index.html of the PWA has no inline script the CSP would block', async () => {
    const source = await readFile(path.resolve('index.html'), 'utf8');
    const scripts = [...source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
  });
});

describe('the OpenAPI document at /api/docs', () => {
  let t: TestApp;
  let document: { openapi: string; paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, unknown>; parameters?: { in: string; name: string }[]; requestBody?: unknown }>> };

  /** Every route fastify serves, as "METHOD /path/{param}", read from its route tree. */
  function servedRoutes(app: FastifyInstance): string[] {
    const routes: string[] = [];
    const stack: { depth: number; path: string }[] = [];
    for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
      const match = line.match(/^(.*?)(?:├── |└── )(.*?) \(([A-Z, ]+)\)$/);
      if (!match) continue;
      const depth = match[1]!.length;
      while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
      const full = `${stack.at(-1)?.path ?? ''}${match[2]}`;
      stack.push({ depth, path: full });
      for (const method of match[3]!.split(', ')) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        routes.push(`${method} ${full.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1')}`);
      }
    }
    return [...new Set(routes)];
  }

  beforeAll(async () => {
    t = await createTestApp();
    const res = await call(t.app, 'GET', '/api/docs/json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => t?.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([url, methods]) => Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${url.replace(/(.)\/$/, '$1')}`, url, operation })));

  it('is OpenAPI 3 and the docs page is served', async () => {
    expect(document.openapi).toMatch(/^3\./);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
  });

  it('documents every API route the server serves (auth, organizations, tokens, projects, analyses, page checks, admin)', () => {
    const documented = new Set(operations().map((o) => o.key));
    const served = servedRoutes(t.app).filter((route) => route.includes(' /api/') && !route.includes('/api/docs'));
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
    for (const prefix of ['/api/v1/auth/', '/api/v1/organizations', '/api/v1/tokens/', '/api/v1/projects', '/api/v1/analyses/', '/api/v1/page-checks/', '/api/v1/admin/']) {
      expect(served.some((route) => route.includes(prefix)), prefix).toBe(true);
    }
  });

  it('has every call of spec section 7', () => {
    const documented = new Set(operations().map((o) => o.key));
    const section7 = [
      'POST /api/v1/auth/register',
      'POST /api/v1/auth/login',
      'GET /api/v1/auth/me',
      'POST /api/v1/auth/refresh',
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/switch-organization',
      'POST /api/v1/auth/reset-password',
      'POST /api/v1/auth/new-password',
      'POST /api/v1/auth/reset-password/confirm',
      'POST /api/v1/auth/verify-email',
      'POST /api/v1/auth/resend-verification',
      'GET /api/v1/organizations/current',
      'PUT /api/v1/organizations/current',
      'GET /api/v1/organizations/user-role',
      'GET /api/v1/organizations/invitation-code',
      'POST /api/v1/organizations/regenerate-invitation-code',
      'GET /api/v1/organizations/members',
      'DELETE /api/v1/organizations/members/{userId}',
      'GET /api/v1/tokens/balance',
      'POST /api/v1/tokens/calculate-cost',
      'GET /api/v1/tokens/history',
      'POST /api/v1/tokens/admin/credit',
    ];
    expect(section7.filter((call) => !documented.has(call))).toEqual([]);
  });

  it('describes each operation from its valibot contract: summary, tags, responses, parameters, bearer auth', () => {
    for (const { key, url, operation } of operations()) {
      if (url.startsWith('/api/docs')) continue;
      expect(operation.summary, key).toBeTruthy();
      expect(operation.tags?.length, key).toBeGreaterThan(0);
      expect(Object.keys(operation.responses ?? {}).length, key).toBeGreaterThan(0);
      for (const name of [...url.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(operation.parameters?.some((p) => p.in === 'path' && p.name === name), `${key}: path parameter ${name}`).toBe(true);
      }
      // The YooKassa webhook has no session: its body is verified by fetching the object back from YooKassa.
      // A moved path only answers where it went (its new place checks the token); a shared client report is
      // opened by its token in the address (docs/reports.md).
      const open = [...movedRoutes.map((moved) => moved.from.replace(/:(\w+)/g, '{$1}')), '/api/health', '/api/v1/auth/register', '/api/v1/auth/login', '/api/v1/auth/refresh', '/api/v1/auth/reset-password', '/api/v1/auth/reset-password/confirm', '/api/v1/auth/verify-email', '/api/v1/tokens/payments/yookassa-notification', '/api/v1/public/reports/{token}'];
      // A bearer token when there is one: logout by refresh token alone, resend by email.
      const optional = ['/api/v1/auth/logout', '/api/v1/auth/resend-verification'];
      if (optional.includes(url)) expect(operation.security, `${key} takes an optional bearer token`).toEqual([{ bearerAuth: [] }, {}]);
      else if (!open.includes(url)) expect(operation.security, `${key} needs a bearer token`).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('carries the validation rules of the shared schemas (the same ones the forms use)', () => {
    const register = document.paths['/api/v1/auth/register']!.post!.requestBody as { content: Record<string, { schema: { properties: Record<string, { minLength?: number; format?: string }> } }> };
    const schema = register.content['application/json']!.schema;
    expect(schema.properties.password!.minLength).toBe(8);
    expect(schema.properties.first_name!.minLength).toBe(2);
    expect(schema.properties.email!.format).toBe('email');
  });
});

describe('secrets kept in the data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-secrets-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('generates a 256-bit JWT secret on first start, owner-readable only, and reuses it', async () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBe(32);
    const file = path.join(dataDir, 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(loadConfig({ DATA_DIR: dataDir }).jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    // Another data folder, another secret.
    const other = await mkdtemp(path.join(os.tmpdir(), 'reklama-secrets-'));
    try {
      expect(Buffer.from(loadConfig({ DATA_DIR: other }).jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(false);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('takes JWT_SECRET from the environment, refusing one under 256 bits', () => {
    const hex = randomBytes(32).toString('hex');
    expect(Buffer.from(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: hex }).jwtSecret).toString('hex')).toBe(hex);
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'short-secret' })).toThrow(/at least 256 bits/);
  });
});
