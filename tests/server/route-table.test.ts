/**
 * The route table (contract/routes): what the server serves and documents for each entry, and the
 * test-time check that every JSON 2xx answer of a table route matches its response schema. The API
 * tests of the converted domains (auth, organizations, page check, AI plan, tokens, payments, admin) all
 * run with that check on.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAnalysisResultRoutes } from '../../contract/routes/analyses.js';
import { routes } from '../../contract/routes/index.js';
import { defineRoute, fileAnswer, type ApiRoute } from '../../contract/routes/route.js';
import { addRoute, checkAnswerAgainstRoute } from '../../server/lib/routes.js';
import { valibotValidatorCompiler } from '../../server/lib/schema.js';
import { call, createTestApp, type TestApp } from './helpers/app.js';
import { createUser } from './helpers/fixtures.js';

// The admin area serves the analyses' result pages under its own entries (the same handlers).
const tables = { ...routes, adminAnalysisResults: adminAnalysisResultRoutes };
const entries = Object.entries(tables).flatMap(([domain, table]) => Object.entries(table as Record<string, ApiRoute>).map(([name, route]) => ({ name: `${domain}.${name}`, route })));

describe('the route table in the running app', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, unknown> }>> };

  beforeAll(async () => {
    t = await createTestApp();
    document = (await call(t.app, 'GET', '/api/docs/json')).body;
  });
  afterAll(() => t?.close());

  it('serves and documents each entry with its method, path, summary, tags, statuses and auth', () => {
    expect(entries.length).toBeGreaterThan(25);
    for (const { name, route } of entries) {
      const url = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = (document.paths[url] ?? document.paths[`${url}/`])?.[route.method.toLowerCase()];
      expect(operation, name).toBeDefined();
      expect(operation!.summary, name).toBe(route.summary);
      expect(operation!.tags, name).toEqual(route.tags);
      expect(Object.keys(operation!.responses ?? {}).sort(), name).toEqual(Object.keys(route.response).sort());
      const security = route.auth === 'optional' ? [{ bearerAuth: [] }, {}] : route.auth ? [{ bearerAuth: [] }] : undefined;
      expect(operation!.security, name).toEqual(security);
    }
  });

  it('documents the answers that are not JSON (the progress stream, the export file) and the stored documents of the results', () => {
    const operation = (path: string) => JSON.stringify(document.paths[path.replace(/:(\w+)/g, '{$1}')]?.get?.responses?.['200'] ?? null);
    expect(operation(routes.analyses.events.path)).toContain('text/event-stream');
    expect(operation(routes.analyses.export.path)).toContain('CSV or XLSX');
    expect(operation(routes.analyses.results.path)).toContain('ResultsSummary');
    expect(operation(adminAnalysisResultRoutes.findings.path)).toContain('Finding');
  });

  it('gives the platform-admin access to every route under /api/v1/admin and to no other', () => {
    for (const { name, route } of entries) {
      expect(route.access === 'platform-admin', name).toBe(route.path.startsWith('/api/v1/admin/'));
    }
  });

  it('refuses a member a route of the platform admin or of the organization managers before validating it, and lets them through', async () => {
    const member = await createUser(t.app, { organizationRole: 'member' });
    const admin = await createUser(t.app, { role: 'admin' });
    expect((await call(t.app, 'POST', routes.admin.creditTokens.path, { token: member.token, body: { amount: 'x' } })).status).toBe(403);
    expect((await call(t.app, 'POST', routes.admin.creditTokens.path, { token: admin.token, body: { amount: 'x' } })).status).toBe(422);
    expect((await call(t.app, 'GET', routes.organizations.members.path, { token: member.token })).status).toBe(403);
    expect((await call(t.app, 'PUT', routes.organizations.update.path, { token: member.token, body: { name: 1 } })).status).toBe(403);
  });

  it('answers a moved path with 308 and its new place, keeping the method', async () => {
    const res = await call(t.app, 'POST', '/api/v1/tokens/admin/credit', { body: { amount: 1 } });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(routes.admin.creditTokens.path);
  });

  it('answers the page check\'s old paths (page-relevance) with 308 to its new ones, the id and the query kept', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const moved = [
      ['GET', `/api/v1/projects/${id}/page-relevance/urls`, `/api/v1/projects/${id}/page-checks/urls`],
      ['POST', `/api/v1/projects/${id}/page-relevance`, `/api/v1/projects/${id}/page-checks`],
      ['GET', `/api/v1/projects/${id}/page-relevance?page=2&page_size=5`, `/api/v1/projects/${id}/page-checks?page=2&page_size=5`],
      ['GET', `/api/v1/page-relevance/${id}`, `/api/v1/page-checks/${id}`],
      ['GET', `/api/v1/page-relevance/${id}/events`, `/api/v1/page-checks/${id}/events`],
      ['GET', `/api/v1/page-relevance/${id}/results`, `/api/v1/page-checks/${id}/results`],
      ['POST', `/api/v1/page-relevance/${id}/cancel`, `/api/v1/page-checks/${id}/cancel`],
    ] as const;
    for (const [method, from, to] of moved) {
      const res = await call(t.app, method, from);
      expect(res.status, from).toBe(308);
      expect(res.headers.location, from).toBe(to);
    }
  });

  it('refuses an anonymous call of an entry with auth: true before validating it (401)', async () => {
    const res = await call(t.app, 'DELETE', '/api/v1/organizations/members/not-a-uuid');
    expect(res.status).toBe(401);
    expect(res.body.code).toBeTruthy();
  });

  it('answers the organization calls with bodies that match their schemas (checked by the test-time hook)', async () => {
    const owner = await createUser(t.app, { organizationRole: 'owner' });
    for (const route of [routes.organizations.list, routes.organizations.current, routes.organizations.userRole, routes.organizations.invitationCode, routes.organizations.members, routes.auth.me]) {
      const res = await call(t.app, route.method, route.path, { token: owner.token });
      expect(res.status, route.path).toBe(200);
      expect(v.safeParse(route.response[200], res.body).success, route.path).toBe(true);
    }
    // Russian validation messages, as before the table.
    const invalid = await call(t.app, 'DELETE', '/api/v1/organizations/members/not-a-uuid', { token: owner.token });
    expect(invalid.status).toBe(422);
    expect(JSON.stringify(invalid.body)).toMatch(/[а-яё]/i);
  });

  it('answers the token, payment and admin reads with bodies that match their schemas', async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const reads = [
      routes.tokens.balance,
      routes.tokens.history,
      routes.payments.packages,
      routes.payments.list,
      routes.payments.requisites,
      routes.payments.adminInvoices,
      routes.admin.overview,
      routes.admin.stats,
      routes.admin.users,
      routes.admin.organizations,
      routes.admin.runs,
      routes.admin.queues,
      routes.admin.auditLog,
    ];
    for (const route of reads) {
      const res = await call(t.app, route.method, route.path, { token: admin.token });
      expect(res.status, route.path).toBe(200);
      expect(v.safeParse(route.response[200], res.body).success, route.path).toBe(true);
    }
  });

  it('documents a file answer as binary of its media type, beside the JSON error answers', () => {
    const pdf = document.paths['/api/v1/tokens/invoices/{id}/pdf']!.get!.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
    expect(pdf['200']!.content).toEqual({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } });
    expect(Object.keys(pdf['404']!.content ?? {})).toEqual(['application/json']);
  });
});

describe('the test-time check of answers against the route table', () => {
  const Thing = v.object({ id: v.string(), count: v.number() });
  const thing = defineRoute({ method: 'GET', path: '/api/test/things/:id', params: v.object({ id: v.string() }), response: { 200: Thing }, tags: ['test'], summary: 'A thing' });
  const file = defineRoute({ method: 'GET', path: '/api/test/file', response: { 200: fileAnswer('text/csv') }, tags: ['test'], summary: 'A file' });
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(valibotValidatorCompiler);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.addHook('onSend', checkAnswerAgainstRoute);
    await app.register(
      async (scope) => {
        addRoute(scope, thing, async (request, reply) => {
          const id = request.params.id;
          if (id === 'right') return { id, count: 1 };
          if (id === 'created') reply.status(201); // a status the entry does not declare
          // What a handler could only send by escaping the types.
          return { id, count: 'many' } as unknown as { id: string; count: number };
        });
        // A file route's handler sends the bytes itself and returns the reply (a compile error otherwise).
        addRoute(scope, file, async (_request, reply) => reply.type('text/csv').send(Buffer.from('a;b\n1;2\n')));
      },
      { prefix: '/api/test' },
    );
    // A route outside the table is left alone.
    app.get('/api/test/free', async () => ({ anything: true }));
    await app.ready();
  });
  afterAll(() => app?.close());

  it('passes an answer that matches its schema', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/things/right' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'right', count: 1 });
  });

  it('turns an answer that does not match into a 500 naming the field', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/things/wrong' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'RESPONSE_SCHEMA_MISMATCH', detail: [{ loc: ['response', 'count'] }] });
  });

  it('turns a 2xx status the entry does not declare into a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/things/created' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('RESPONSE_SCHEMA_MISMATCH');
  });

  it('leaves a file answer as it is', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/file' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.body).toBe('a;b\n1;2\n');
  });

  it('leaves routes outside the table alone', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/free' });
    expect(res.statusCode).toBe(200);
  });
});
