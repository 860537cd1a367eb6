import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { call, createTestApp, memoryMailer, type TestApp } from '../helpers/app.js';
import { registration, uniqueEmail } from './helpers.js';

const TOO_MANY = { error: 'Слишком много запросов. Попробуйте позже.', code: 'RATE_LIMITED' };
const wrongLogin = () => ({ email: uniqueEmail('nobody'), password: 'Wrong1234' });

describe('rate limits on login, register, reset and resend', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One proxy in front (TRUST_PROXY=1), so X-Forwarded-For gives each test its own client address.
    t = await createTestApp({ config: { trustProxy: 1, rateLimit: { max: 3, timeWindowMs: 60_000 }, registerRateLimit: { max: 3, timeWindowMs: 60_000 } } });
  });
  afterAll(() => t.close());

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('answers 429 in the error format after N attempts from one address', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from('10.0.0.1') })).status).toBe(401);
    }
    const limited = await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from('10.0.0.1') });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(TOO_MANY);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address still gets through, and so does another limited route from the same address.
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from('10.0.0.2') })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: uniqueEmail() }, headers: from('10.0.0.1') })).status).toBe(200);
  });

  it.each([
    ['register', '/api/v1/auth/register', () => registration()],
    ['reset-password', '/api/v1/auth/reset-password', () => ({ email: uniqueEmail() })],
    ['resend-verification', '/api/v1/auth/resend-verification', () => ({ email: uniqueEmail() })],
  ])('limits %s too', async (_name, url, body) => {
    const ip = `10.1.0.${url.length}`;
    for (let i = 0; i < 3; i++) expect((await call(t.app, 'POST', url, { body: body(), headers: from(ip) })).status).toBeLessThan(300);
    const limited = await call(t.app, 'POST', url, { body: body(), headers: from(ip) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(TOO_MANY);
  });

  it('counts in PostgreSQL, so two server processes on one database share the limit', async () => {
    const second = await buildApp({ config: t.config, db: t.database.db, mailer: memoryMailer([]) });
    await second.ready();
    try {
      const ip = '10.2.0.1';
      expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
      expect((await call(second, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
      expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
      expect((await call(second, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(429);
      const rows = await t.app.db.selectFrom('rate_limits').select(['key', 'hits']).where('key', 'like', '%10.2.0.1').execute();
      expect(rows).toEqual([{ key: expect.stringContaining('/api/v1/auth/login'), hits: 4 }]);
    } finally {
      await second.close();
    }
  });

  it('opens again when the window has passed', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 4; i++) await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) });
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(429);
    // Move the window's end into the past instead of waiting a minute.
    await t.app.db.updateTable('rate_limits').set({ reset_at: sql<Date>`now() - interval '1 second'` }).where('key', 'like', `%${ip}`).execute();
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
  });

  it('counts concurrent hits exactly (one atomic upsert per hit)', async () => {
    const ip = '10.4.0.1';
    const results = await Promise.all(Array.from({ length: 10 }, () => call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: uniqueEmail() }, headers: from(ip) })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
  });

  it('does not limit the other auth routes', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: 'x' }, headers: from('10.5.0.1') })).status).toBe(401);
    }
  });
});
