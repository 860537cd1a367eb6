import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { call, createTestApp, memoryMailer, type TestApp } from '../helpers/app.js';
import { startTestRedis, type TestRedis } from '../helpers/redis.js';
import { uniqueEmail } from './helpers.js';

const wrongLogin = () => ({ email: uniqueEmail('nobody'), password: 'Wrong1234' });
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** With REDIS_URL the rate-limit counters live in Redis, shared by every server process, and not in PostgreSQL. */
describe('rate limits with REDIS_URL', () => {
  let redis: TestRedis;
  let t: TestApp;
  let inspect: Redis;
  // Each run has its own key prefix, so runs sharing the machine's Redis never count each other's hits.
  const nameSpace = `reklama-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    redis = await startTestRedis();
    inspect = new Redis(redis.url);
    t = await createTestApp({ config: { redisUrl: redis.url, rateLimitNamespace: nameSpace, rateLimit: { max: 3, timeWindowMs: 60_000 }, registerRateLimit: { max: 3, timeWindowMs: 60_000 }, loginAccountRateLimit: { max: 4, timeWindowMs: 60_000 }, trustProxy: 1 } });
  });
  afterAll(async () => {
    await t?.close();
    const keys = await inspect.keys(`${nameSpace}*`);
    if (keys.length > 0) await inspect.del(...keys);
    inspect.disconnect();
    await redis?.stop();
  });

  it('answers 429 after N attempts, counting in Redis with the window as expiry', async () => {
    const ip = '10.9.0.1';
    for (let i = 0; i < 3; i++) expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
    const limited = await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Слишком много запросов. Попробуйте позже.', code: 'RATE_LIMITED' });

    const keys = await inspect.keys(`${nameSpace}*${ip}`);
    expect(keys).toEqual([expect.stringContaining('/api/v1/auth/login')]);
    expect(Number(await inspect.get(keys[0]!))).toBe(4);
    const ttl = await inspect.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Nothing was counted in PostgreSQL.
    expect(await t.app.db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });

  it('shares the counters between two server processes', async () => {
    const second = await buildApp({ config: t.config, db: t.database.db, mailer: memoryMailer([]) });
    await second.ready();
    try {
      const ip = '10.9.0.2';
      const url = '/api/v1/auth/reset-password';
      expect((await call(t.app, 'POST', url, { body: { email: uniqueEmail() }, headers: from(ip) })).status).toBe(200);
      expect((await call(second, 'POST', url, { body: { email: uniqueEmail() }, headers: from(ip) })).status).toBe(200);
      expect((await call(t.app, 'POST', url, { body: { email: uniqueEmail() }, headers: from(ip) })).status).toBe(200);
      expect((await call(second, 'POST', url, { body: { email: uniqueEmail() }, headers: from(ip) })).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('opens again when the window has passed', async () => {
    const ip = '10.9.0.3';
    for (let i = 0; i < 4; i++) await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) });
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(429);
    // Expire the window now instead of waiting a minute.
    for (const key of await inspect.keys(`${nameSpace}*${ip}`)) await inspect.pexpire(key, 1);
    await expect.poll(async () => (await inspect.keys(`${nameSpace}*${ip}`)).length).toBe(0);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: wrongLogin(), headers: from(ip) })).status).toBe(401);
  });

  it('counts failed logins per account in Redis too, whatever the address', async () => {
    const email = uniqueEmail('victim');
    const limit = t.config.loginAccountRateLimit.max;
    for (let i = 0; i < limit; i++) {
      expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password: 'Wrong1234' }, headers: from(`10.9.1.${i + 1}`) })).status).toBe(401);
    }
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password: 'Wrong1234' }, headers: from('10.9.2.1') })).status).toBe(429);
    expect(await inspect.get(`${nameSpace}login-account|${email}`)).toBe(String(limit));
    expect(await t.app.db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });
});
