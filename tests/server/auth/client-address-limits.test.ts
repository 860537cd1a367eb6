import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, trustProxyFromEnv } from '../../../server/config.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { PASSWORD, register, registration, uniqueEmail } from './helpers.js';

const TOO_MANY = { error: 'Слишком много запросов. Попробуйте позже.', code: 'RATE_LIMITED' };
const wrongLogin = () => ({ email: uniqueEmail('nobody'), password: 'Wrong1234' });
const login = (t: TestApp, body: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: body as object, headers, remoteAddress });

describe('TRUST_PROXY: the address the limits count by', () => {
  it('parses the setting: nothing trusted by default, a hop count, or an address list; `true` and junk are refused', () => {
    expect(trustProxyFromEnv(undefined)).toBe(false);
    expect(trustProxyFromEnv('')).toBe(false);
    expect(trustProxyFromEnv('false')).toBe(false);
    expect(trustProxyFromEnv('0')).toBe(false);
    expect(trustProxyFromEnv('2')).toBe(2);
    expect(trustProxyFromEnv('10.0.0.5, 10.1.0.0/16,::1,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'loopback']);
    expect(() => trustProxyFromEnv('true')).toThrow(/TRUST_PROXY=true would let any client forge its address/);
    expect(() => trustProxyFromEnv('10.0.0.5,proxy.local')).toThrow(/"proxy.local" is neither an IP address nor a CIDR range/);
    expect(loadConfig({ NODE_ENV: 'test' }, { jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32), dataDir: '/tmp' }).trustProxy).toBe(false);
  });

  describe('by default (nothing trusted)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ config: { rateLimit: { max: 3, timeWindowMs: 60_000 } } });
    });
    afterAll(() => t.close());

    it('a forged X-Forwarded-For does not reset the limit: the socket address counts', async () => {
      for (let i = 0; i < 3; i++) expect((await login(t, wrongLogin(), { 'x-forwarded-for': `198.51.100.${i}` }, '203.0.113.10')).statusCode).toBe(401);
      const limited = await login(t, wrongLogin(), { 'x-forwarded-for': '198.51.100.99' }, '203.0.113.10');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual(TOO_MANY);
      // Another client (socket) is not affected.
      expect((await login(t, wrongLogin(), {}, '203.0.113.11')).statusCode).toBe(401);
    });
  });

  describe('TRUST_PROXY=1 (one proxy in front)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ config: { trustProxy: trustProxyFromEnv('1'), rateLimit: { max: 3, timeWindowMs: 60_000 } } });
    });
    afterAll(() => t.close());

    it('counts by the address the proxy reports (the last X-Forwarded-For entry), not by what the client prepends', async () => {
      // The proxy (the socket peer, 127.0.0.1 here) appends the client's address; a client's own forged
      // entries come before it.
      for (let i = 0; i < 3; i++) expect((await login(t, wrongLogin(), { 'x-forwarded-for': `1.2.3.${i}, 192.0.2.50` })).statusCode).toBe(401);
      expect((await login(t, wrongLogin(), { 'x-forwarded-for': '9.9.9.9, 192.0.2.50' })).statusCode).toBe(429);
      // Another client behind the same proxy has its own count.
      expect((await login(t, wrongLogin(), { 'x-forwarded-for': '192.0.2.51' })).statusCode).toBe(401);
    });
  });

  describe('TRUST_PROXY as an address list', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ config: { trustProxy: trustProxyFromEnv('10.0.0.5'), rateLimit: { max: 3, timeWindowMs: 60_000 } } });
    });
    afterAll(() => t.close());

    it('takes X-Forwarded-For from the listed proxy only; anyone else is counted by the socket address', async () => {
      for (let i = 0; i < 3; i++) expect((await login(t, wrongLogin(), { 'x-forwarded-for': '192.0.2.60' }, '10.0.0.5')).statusCode).toBe(401);
      expect((await login(t, wrongLogin(), { 'x-forwarded-for': '192.0.2.60' }, '10.0.0.5')).statusCode).toBe(429);
      expect((await login(t, wrongLogin(), { 'x-forwarded-for': '192.0.2.61' }, '10.0.0.5')).statusCode).toBe(401);
      // A direct client cannot choose its address.
      for (let i = 0; i < 3; i++) expect((await login(t, wrongLogin(), { 'x-forwarded-for': `192.0.2.${70 + i}` }, '203.0.113.20')).statusCode).toBe(401);
      expect((await login(t, wrongLogin(), { 'x-forwarded-for': '192.0.2.99' }, '203.0.113.20')).statusCode).toBe(429);
    });
  });
});

describe('failed logins per account, whatever the address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Addresses differ (one proxy reports them); the per-address limit is far away.
    t = await createTestApp({ config: { trustProxy: 1, rateLimit: { max: 1000, timeWindowMs: 60_000 }, loginAccountRateLimit: { max: 10, timeWindowMs: 15 * 60_000 } } });
  });
  afterAll(() => t.close());

  it('stops the 11th try from a new address, even with the right password, and leaves other accounts alone', async () => {
    const victim = await register(t.app);
    const other = await register(t.app);
    for (let i = 0; i < 10; i++) {
      const wrong = await login(t, { email: victim.email, password: `Guess${i}xyz1` }, { 'x-forwarded-for': `198.18.0.${i + 1}` });
      expect(wrong.statusCode).toBe(401);
    }
    const eleventh = await login(t, { email: victim.email.toUpperCase(), password: 'Guess99xyz1' }, { 'x-forwarded-for': '198.18.1.1' });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toEqual(TOO_MANY);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(800);
    // The right password does not get through either: the limit must not confirm a guess.
    expect((await login(t, { email: victim.email, password: PASSWORD }, { 'x-forwarded-for': '198.18.1.2' })).statusCode).toBe(429);
    expect((await login(t, { email: other.email, password: PASSWORD }, { 'x-forwarded-for': '198.18.0.1' })).statusCode).toBe(200);
  });

  it('treats an email without an account the same way (the answer tells nobody which emails exist)', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 0; i < 10; i++) expect((await login(t, { email, password: 'Wrong1234' }, { 'x-forwarded-for': `198.19.0.${i + 1}` })).statusCode).toBe(401);
    expect((await login(t, { email, password: 'Wrong1234' }, { 'x-forwarded-for': '198.19.1.1' })).statusCode).toBe(429);
  });

  it('does not count successful logins', async () => {
    const user = await register(t.app);
    for (let i = 0; i < 12; i++) expect((await login(t, { email: user.email, password: PASSWORD }, { 'x-forwarded-for': '198.20.0.1' })).statusCode).toBe(200);
  });
});

describe('registrations per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    const defaults = loadConfig({ NODE_ENV: 'test' }, { jwtSecret: new Uint8Array(32), secretsKey: new Uint8Array(32), dataDir: '/tmp' });
    expect(defaults.registerRateLimit).toEqual({ max: 5, timeWindowMs: 3_600_000 });
    t = await createTestApp({ config: { trustProxy: 1, registerRateLimit: defaults.registerRateLimit } });
  });
  afterAll(() => t.close());

  it('allows 5 an hour from one address, then 429; another address may still register', async () => {
    const from = { 'x-forwarded-for': '192.0.2.200' };
    for (let i = 0; i < 5; i++) expect((await call(t.app, 'POST', '/api/v1/auth/register', { body: registration(), headers: from })).status).toBe(202);
    const sixth = await call(t.app, 'POST', '/api/v1/auth/register', { body: registration(), headers: from });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual(TOO_MANY);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await call(t.app, 'POST', '/api/v1/auth/register', { body: registration(), headers: { 'x-forwarded-for': '192.0.2.201' } })).status).toBe(202);
  });
});
