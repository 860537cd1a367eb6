import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createAccessTokens } from '../../../server/auth/jwt.js';
import { hashSecretToken } from '../../../server/auth/secret-tokens.js';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../../server/auth/sessions.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { PASSWORD, register } from './helpers.js';

const ME = '/api/v1/auth/me';
const REFRESH = '/api/v1/auth/refresh';
const LOGOUT = '/api/v1/auth/logout';

describe('access tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a request without a token, with a malformed one and with a forged one', async () => {
    const user = await register(t.app);
    const forged = await createAccessTokens({ ...t.config, jwtSecret: new Uint8Array(32).fill(7) }).sign({ userId: user.user.id, organizationId: user.organization.id });
    for (const token of [undefined, 'not-a-jwt', forged]) {
      const res = await call(t.app, 'GET', ME, { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
  });

  it('refuses an expired access token', async () => {
    const user = await register(t.app);
    const longAgo = new Date(Date.now() - 2 * t.config.accessTokenTtlSeconds * 1000);
    const expired = await t.app.accessTokens.sign({ userId: user.user.id, organizationId: user.organization.id }, longAgo);
    expect((await call(t.app, 'GET', ME, { token: expired })).status).toBe(401);
  });

  it('refuses a token for another audience or issuer, with another algorithm (none, HS512) or without exp', async () => {
    const user = await register(t.app);
    const claims = { userId: user.user.id, organizationId: user.organization.id };
    const otherAudience = await createAccessTokens({ ...t.config, jwtAudience: 'someone-else' }).sign(claims);
    const otherIssuer = await createAccessTokens({ ...t.config, jwtIssuer: 'someone-else' }).sign(claims);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: user.user.id, org: user.organization.id, typ: 'access', aud: t.config.jwtAudience, iss: t.config.jwtIssuer, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
    // The right secret and claims, but HS512: only HS256 is accepted.
    const otherAlgorithm = await new SignJWT({ org: user.organization.id, typ: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(user.user.id)
      .setAudience(t.config.jwtAudience)
      .setIssuer(t.config.jwtIssuer)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(t.config.jwtSecret);
    // And without an expiry at all.
    const noExpiry = await new SignJWT({ org: user.organization.id, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.user.id)
      .setAudience(t.config.jwtAudience)
      .setIssuer(t.config.jwtIssuer)
      .setIssuedAt()
      .sign(t.config.jwtSecret);
    for (const token of [otherAudience, otherIssuer, `${header}.${payload}.`, otherAlgorithm, noExpiry]) {
      expect((await call(t.app, 'GET', ME, { token })).status).toBe(401);
    }
  });
});

describe('refresh tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('rotates: each refresh gives a new pair and the new access token works', async () => {
    const user = await register(t.app);
    const first = await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(first.body.refresh_token).not.toBe(user.tokens.refresh_token);
    expect((await call(t.app, 'GET', ME, { token: first.body.access_token })).status).toBe(200);
    const second = await call(t.app, 'POST', REFRESH, { body: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
  });

  it('stores refresh tokens only as hashes', async () => {
    const user = await register(t.app);
    const rows = await t.app.db.selectFrom('refresh_tokens').select('token_hash').where('user_id', '=', user.user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(user.tokens.refresh_token);
  });

  /** Moves the rotation of `refreshToken` back in time, past the grace window (the database's clock decides the window). */
  async function rotatedLongAgo(refreshToken: string, seconds = REFRESH_REUSE_GRACE_SECONDS + 1) {
    await t.app.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: sql<Date>`now() - make_interval(secs => ${seconds})` })
      .where('token_hash', '=', hashSecretToken(refreshToken))
      .execute();
  }

  it('revokes the whole family when an old refresh token is used again after the grace window', async () => {
    const user = await register(t.app);
    const rotated = await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } });
    expect(rotated.status).toBe(200);
    await rotatedLongAgo(user.tokens.refresh_token);

    const reuse = await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ error: 'Сессия истекла, войдите снова', code: 'REFRESH_TOKEN_INVALID' });
    // The newest token of the family, held by whoever copied the old one or by the user, is dead too...
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: rotated.body.refresh_token } })).status).toBe(401);
    // ...and so are the family's access tokens.
    expect((await call(t.app, 'GET', ME, { token: rotated.body.access_token })).status).toBe(401);
    // Another login is another family, untouched.
    const again = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: again.body.tokens.refresh_token } })).status).toBe(200);
  });

  it('answers 10 simultaneous refreshes with one token (10 tabs) with the same new refresh token, and the session lives on', async () => {
    const user = await register(t.app);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const issued = new Set(results.map((r) => r.body.refresh_token as string));
    expect(issued.size).toBe(1);
    const [next] = [...issued];
    expect(next).not.toBe(user.tokens.refresh_token);
    // One rotation happened: the family has the old token and one new one.
    const rows = await t.app.db.selectFrom('refresh_tokens').select(['rotated_at', 'revoked_at']).where('user_id', '=', user.user.id).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.revoked_at === null)).toBe(true);
    for (const result of results) expect((await call(t.app, 'GET', ME, { token: result.body.access_token })).status).toBe(200);
    // The session goes on rotating as usual.
    const later = await call(t.app, 'POST', REFRESH, { body: { refresh_token: next } });
    expect(later.status).toBe(200);
    expect((await call(t.app, 'GET', ME, { token: later.body.access_token })).status).toBe(200);
  });

  it('keeps the issued refresh token only sealed, never in clear text, and wipes it once the window is over', async () => {
    const user = await register(t.app);
    const first = await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } });
    const retired = await t.app.db.selectFrom('refresh_tokens').select('successor_sealed').where('token_hash', '=', hashSecretToken(user.tokens.refresh_token)).executeTakeFirstOrThrow();
    expect(retired.successor_sealed).toMatch(/^v1:/);
    expect(retired.successor_sealed).not.toContain(first.body.refresh_token);
    await rotatedLongAgo(user.tokens.refresh_token);
    await call(t.app, 'POST', REFRESH, { body: { refresh_token: first.body.refresh_token } });
    const wiped = await t.app.db.selectFrom('refresh_tokens').select('successor_sealed').where('token_hash', '=', hashSecretToken(user.tokens.refresh_token)).executeTakeFirstOrThrow();
    expect(wiped.successor_sealed).toBeNull();
  });

  it('gives no grace after logout: the family stays revoked', async () => {
    const user = await register(t.app);
    await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } });
    expect((await call(t.app, 'POST', LOGOUT, { body: { refresh_token: user.tokens.refresh_token }, token: user.tokens.access_token })).status).toBeLessThan(300);
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);
  });

  it('refuses unknown and empty refresh tokens', async () => {
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: 'nonsense' } })).status).toBe(401);
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: '' } })).status).toBe(422);
  });

  it('ends the session when the member has been removed from the organization', async () => {
    const owner = await register(t.app);
    const member = await register(t.app, { organization_name: undefined, invitation_code: owner.organization.invitation_code });
    await t.app.db.deleteFrom('memberships').where('user_id', '=', member.user.id).execute();
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: member.tokens.refresh_token } })).status).toBe(401);
  });
});

describe('refresh family lifetime', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A family that is already over when it starts: the absolute limit applies however fresh the token is.
    t = await createTestApp({ config: { refreshFamilyTtlSeconds: 0 } });
  });
  afterAll(() => t.close());

  it('refuses a refresh after the absolute lifetime of the family', async () => {
    const user = await register(t.app);
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);
  });
});

describe('logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 204 and revokes the session: refresh token and access token stop working', async () => {
    const user = await register(t.app);
    const res = await call(t.app, 'POST', LOGOUT, { token: user.tokens.access_token });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);
    expect((await call(t.app, 'GET', ME, { token: user.tokens.access_token })).status).toBe(401);
  });

  it('accepts an empty JSON body and leaves other sessions alone', async () => {
    const user = await register(t.app);
    const other = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    const res = await t.app.inject({ method: 'POST', url: LOGOUT, headers: { authorization: `Bearer ${user.tokens.access_token}`, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(204);
    expect((await call(t.app, 'GET', ME, { token: other.body.tokens.access_token })).status).toBe(200);
  });

  it('revokes by refresh token alone, and refuses a call with neither', async () => {
    const user = await register(t.app);
    expect((await call(t.app, 'POST', LOGOUT, { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(204);
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);
    expect((await call(t.app, 'POST', LOGOUT)).status).toBe(401);
  });
});

describe('switch-organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives a token pair for another organization of the user, and the session goes on there', async () => {
    const first = await register(t.app, { organization_name: 'Первая' });
    const second = await register(t.app, { organization_name: 'Вторая' });
    await t.app.db.insertInto('memberships').values({ user_id: first.user.id, organization_id: second.organization.id, role: 'admin' }).execute();

    const res = await call(t.app, 'POST', '/api/v1/auth/switch-organization', { token: first.tokens.access_token, body: { organization_id: second.organization.id } });
    expect(res.status).toBe(200);
    expect(res.body.organization).toEqual({ id: second.organization.id, name: 'Вторая', plan_type: 'free', role: 'admin', invitation_code: second.organization.invitation_code });
    expect(res.body.tokens).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const claims = await t.app.accessTokens.verify(res.body.tokens.access_token);
    expect(claims?.organizationId).toBe(second.organization.id);

    // The refresh token now continues in the new organization; the one from before the switch is retired.
    const refreshed = await call(t.app, 'POST', REFRESH, { body: { refresh_token: res.body.tokens.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await t.app.accessTokens.verify(refreshed.body.access_token))?.organizationId).toBe(second.organization.id);
  });

  it('refuses an organization the user is not a member of', async () => {
    const user = await register(t.app);
    const stranger = await register(t.app);
    const res = await call(t.app, 'POST', '/api/v1/auth/switch-organization', { token: user.tokens.access_token, body: { organization_id: stranger.organization.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Вы не состоите в этой организации', code: 'NOT_MEMBER' });
  });

  it('needs a login', async () => {
    expect((await call(t.app, 'POST', '/api/v1/auth/switch-organization', { body: { organization_id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(401);
  });
});

describe('new-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('changes the password with the current one; other sessions end, this one stays', async () => {
    const user = await register(t.app);
    const other = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
    const res = await call(t.app, 'POST', '/api/v1/auth/new-password', { token: user.tokens.access_token, body: { current_password: PASSWORD, password: 'Changed456' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Пароль изменён' });

    expect((await call(t.app, 'GET', ME, { token: user.tokens.access_token })).status).toBe(200);
    expect((await call(t.app, 'POST', REFRESH, { body: { refresh_token: other.body.tokens.refresh_token } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'Changed456' } })).status).toBe(200);
  });

  it('refuses a wrong current password and a weak new one', async () => {
    const user = await register(t.app);
    const wrong = await call(t.app, 'POST', '/api/v1/auth/new-password', { token: user.tokens.access_token, body: { current_password: 'Wrong1234', password: 'Changed456' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toEqual([{ loc: ['body', 'current_password'], msg: 'Неверный текущий пароль' }]);
    const weak = await call(t.app, 'POST', '/api/v1/auth/new-password', { token: user.tokens.access_token, body: { current_password: PASSWORD, password: 'weakpass1' } });
    expect(weak.status).toBe(422);
    expect(weak.body.detail).toContainEqual({ loc: ['body', 'password'], msg: 'Пароль должен содержать заглавные латинские буквы' });
  });
});
