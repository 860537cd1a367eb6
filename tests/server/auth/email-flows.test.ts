import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { PASSWORD, mailTo, register, tokenFromLink, uniqueEmail } from './helpers.js';

const VERIFY_PATH = '/auth/verify-email';
const RESET_PATH = '/auth/reset-password/confirm';

describe('email verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('mails a link on registration; posting its token verifies the email, once', async () => {
    const user = await register(t.app, { first_name: 'Ольга' });
    const mail = await mailTo(t.outbox, user.email, /Подтвердите email/);
    expect(mail.text).toContain('Здравствуйте, Ольга!');
    expect(mail.text).toContain(`http://localhost:5173${VERIFY_PATH}?token=`);
    expect(mail.html).toContain(`http://localhost:5173${VERIFY_PATH}?token=`);
    const token = tokenFromLink(mail.text, VERIFY_PATH);

    const res = await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Email подтверждён', user: { ...user.user, is_verified: true } });
    expect((await call(t.app, 'GET', '/api/v1/auth/me', { token: user.tokens.access_token })).body.is_verified).toBe(true);

    const again = await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Ссылка недействительна или устарела', code: 'EMAIL_TOKEN_INVALID' });
  });

  it('refuses an unknown, an empty and an expired token', async () => {
    expect((await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token: 'made-up' } })).status).toBe(400);
    const empty = await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ['body', 'token'], msg: 'Ссылка недействительна' }]);

    const user = await register(t.app);
    const token = tokenFromLink((await mailTo(t.outbox, user.email, /Подтвердите email/)).text, VERIFY_PATH);
    await t.app.db.updateTable('email_tokens').set({ expires_at: sql<Date>`now() - interval '1 second'` }).where('user_id', '=', user.user.id).execute();
    expect((await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token } })).status).toBe(400);
  });

  it('resends the link to the logged-in user, and says so when the email is verified already', async () => {
    const user = await register(t.app);
    await mailTo(t.outbox, user.email, /Подтвердите email/);
    const res = await call(t.app, 'POST', '/api/v1/auth/resend-verification', { token: user.tokens.access_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Письмо с подтверждением отправлено' });
    await expect.poll(() => t.outbox.filter((m) => m.to === user.email).length).toBe(2);
    // The newest link works.
    const latest = t.outbox.filter((m) => m.to === user.email).at(-1)!;
    expect((await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token: tokenFromLink(latest.text, VERIFY_PATH) } })).status).toBe(200);

    const done = await call(t.app, 'POST', '/api/v1/auth/resend-verification', { token: user.tokens.access_token });
    expect(done.body).toEqual({ message: 'Email уже подтверждён' });
  });

  it('resends by email with the same answer whether or not the address has an account', async () => {
    const user = await register(t.app);
    const known = await call(t.app, 'POST', '/api/v1/auth/resend-verification', { body: { email: user.email } });
    const unknown = await call(t.app, 'POST', '/api/v1/auth/resend-verification', { body: { email: uniqueEmail('ghost') } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await expect.poll(() => t.outbox.filter((m) => m.to === user.email).length).toBe(2);
  });

  it('refuses a resend with neither a login nor an email', async () => {
    expect((await call(t.app, 'POST', '/api/v1/auth/resend-verification')).status).toBe(401);
  });
});

describe('password reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const user = await register(t.app);
    const ghost = uniqueEmail('ghost');
    const known = await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    const unknown = await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: ghost } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ message: 'Если такой email зарегистрирован, мы отправили на него ссылку для восстановления пароля' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await mailTo(t.outbox, user.email, /Восстановление пароля/);
    expect(t.outbox.some((m) => m.to === ghost)).toBe(false);
  });

  it('spends about the same time on a known and an unknown email (the same database work; the mail leaves after the answer)', async () => {
    const user = await register(t.app);
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email } });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      known.push(await timed(user.email));
      unknown.push(await timed(uniqueEmail('nobody')));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Generous bounds for a busy test machine; a mail sent before answering would take many times longer.
    expect(median(known)).toBeLessThan(median(unknown) * 3);
    expect(median(unknown)).toBeLessThan(median(known) * 3);
  });

  it('makes each reset link a fresh 256-bit random token that expires within the hour', async () => {
    const user = await register(t.app);
    for (let i = 0; i < 2; i++) await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    await expect.poll(() => t.outbox.filter((m) => m.to === user.email && /Восстановление пароля/.test(m.subject)).length).toBe(2);
    const tokens = t.outbox.filter((m) => m.to === user.email && /Восстановление пароля/.test(m.subject)).map((m) => tokenFromLink(m.text, RESET_PATH));
    expect(new Set(tokens).size).toBe(2);
    for (const token of tokens) expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.app.db
      .selectFrom('email_tokens')
      .select(sql<number>`extract(epoch from (expires_at - created_at))`.as('lifetime'))
      .where('user_id', '=', user.user.id)
      .where('purpose', '=', 'reset_password')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Number(row.lifetime)).toBeLessThanOrEqual(3600);
  });

  it('sets the new password from the link once, ends every session and verifies the email', async () => {
    const user = await register(t.app);
    await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email.toUpperCase() } });
    const mail = await mailTo(t.outbox, user.email, /Восстановление пароля/);
    const token = tokenFromLink(mail.text, RESET_PATH);

    const res = await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token, password: 'Renewed789' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Пароль изменён' });

    expect((await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.tokens.refresh_token } })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/auth/me', { token: user.tokens.access_token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'Renewed789' } });
    expect(login.status).toBe(200);
    expect(login.body.user.is_verified).toBe(true);

    const reuse = await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token, password: 'Another789' } });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ error: 'Ссылка недействительна или устарела', code: 'EMAIL_TOKEN_INVALID' });
  });

  it('refuses an expired link and a weak password', async () => {
    const user = await register(t.app);
    await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    const token = tokenFromLink((await mailTo(t.outbox, user.email, /Восстановление пароля/)).text, RESET_PATH);

    const weak = await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token, password: 'short' } });
    expect(weak.status).toBe(422);
    expect(weak.body.detail).toContainEqual({ loc: ['body', 'password'], msg: 'Пароль должен содержать минимум 8 символов' });

    await t.app.db.updateTable('email_tokens').set({ expires_at: sql<Date>`now() - interval '1 second'` }).where('user_id', '=', user.user.id).execute();
    expect((await call(t.app, 'POST', '/api/v1/auth/reset-password/confirm', { body: { token, password: 'Renewed789' } })).status).toBe(400);
  });

  it('keeps only hashes of the mailed tokens', async () => {
    const user = await register(t.app);
    await call(t.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    const token = tokenFromLink((await mailTo(t.outbox, user.email, /Восстановление пароля/)).text, RESET_PATH);
    const rows = await t.app.db.selectFrom('email_tokens').select('token_hash').where('user_id', '=', user.user.id).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).not.toBe(token);
  });
});
