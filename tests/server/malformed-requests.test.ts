/**
 * Issue 27: every malformed request is a 4xx with a Russian body in the error format. Over real HTTP
 * (what Node's parser refuses never reaches fastify's inject): a URL over 16 KB, a request line that is
 * not HTTP; and JSON of the wrong shape (an array where an object is expected), which valibot's `object`
 * took as `{}`. Malformed multipart is in projects/upload-limits.test.ts.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, genericValidationMessages } from '../../contract/messages.js';
import { call, createTestApp, type TestApp } from './helpers/app.js';
import { createUser, type FixtureUser } from './helpers/fixtures.js';
import { createProject } from './projects/helpers.js';

let t: TestApp;
let baseUrl: URL;
let user: FixtureUser;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }));
  user = await createUser(t.app);
});
afterAll(async () => t?.close());

/** Sends `text` as it is on a new connection and returns everything the server wrote before closing it. */
function rawExchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(baseUrl.port), baseUrl.hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('requests Node refuses before the app', () => {
  it('answers a URL over 16 KB with 431 and a Russian body in the error format, and keeps serving', async () => {
    const response = await fetch(`${baseUrl.origin}/api/v1/projects?search=${'a'.repeat(17_000)}`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Before: {"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}
    expect(await response.json()).toEqual({ error: apiMessages.requestTooLong, code: 'REQUEST_TOO_LONG' });
    expect((await fetch(`${baseUrl.origin}/api/health`)).status).toBe(200);
  });

  it('answers a request line that is not HTTP with 400 in Russian', async () => {
    const answer = await rawExchange('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: apiMessages.badRequest, code: 'BAD_REQUEST' });
  });
});

describe('JSON of the wrong shape', () => {
  it('refuses an array body where an object is expected with 400 and the detail, and changes nothing', async () => {
    const project = await createProject(t.app, user.token);
    // Every field of the edit is optional: before, `[]` passed as `{}` and answered 200.
    const response = await call(t.app, 'PATCH', `/api/v1/projects/${project.id}`, { token: user.token, body: [] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: genericValidationMessages.object, code: 'VALIDATION_ERROR', detail: [{ loc: ['body'], msg: genericValidationMessages.object }] });
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: [{ email: user.email }] });
    expect(login.status).toBe(400);
    expect(login.body.detail).toEqual([{ loc: ['body'], msg: genericValidationMessages.object }]);
  });

  it('refuses an array in place of a nested object with 422 at its field', async () => {
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body: { name: 'Окна', site_url: 'okna.example.ru', platform: 'yandex_direct', settings: [] } });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([{ loc: ['body', 'settings'], msg: genericValidationMessages.object }]);
  });

  it('still takes an absent body where the body may be absent', async () => {
    const response = await call(t.app, 'POST', '/api/v1/auth/resend-verification', { token: user.token });
    expect(response.status).toBeLessThan(300);
  });
});
