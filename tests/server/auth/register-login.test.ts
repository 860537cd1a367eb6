import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { mailTo, PASSWORD, register, registration, tokenFromLink, uniqueEmail } from './helpers.js';

const REGISTER = '/api/v1/auth/register';
const LOGIN = '/api/v1/auth/login';

describe('register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { welcomeCredit: 100 } });
  });
  afterAll(() => t.close());

  const sentTo = (email: string) => ({ message: `Мы отправили письмо на ${email}. Перейдите по ссылке из письма, чтобы подтвердить email, и войдите` });

  it('creates the user and an organization owned by them with an invitation code; the session comes with the login', async () => {
    const body = registration({ email: 'New.Owner@Example.test' });
    const res = await call(t.app, 'POST', REGISTER, { body });
    expect(res.status).toBe(202);
    expect(res.body).toEqual(sentTo('New.Owner@Example.test'));

    const login = await call(t.app, 'POST', LOGIN, { body: { email: 'new.owner@example.test', password: body.password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual({
      id: expect.any(String),
      email: 'new.owner@example.test',
      first_name: 'Анна',
      last_name: 'Смирнова',
      full_name: 'Анна Смирнова',
      role: 'user',
      is_verified: false,
    });
    expect(login.body.organization).toEqual({ id: expect.any(String), name: 'Рога и копыта', plan_type: 'free', role: 'owner', invitation_code: expect.stringMatching(/^[A-Z0-9]{5,20}$/) });
    expect(login.body.tokens).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await call(t.app, 'GET', '/api/v1/auth/me', { token: login.body.tokens.access_token });
    expect(me.body).toEqual(login.body.user);
    // The verification link goes to the new address.
    await mailTo(t.outbox, 'new.owner@example.test', /Подтвердите email/);
  });

  // Issue 27: the welcome credit waits for the verified e-mail (a throwaway address gets nothing).
  it('grants the welcome credit through the ledger, once, when the e-mail is verified', async () => {
    const user = await register(t.app);
    const ledger = () => t.app.db.selectFrom('token_ledger').select(['type', 'amount', 'balance_after', 'idempotency_key']).where('user_id', '=', user.user.id).execute();
    expect(await ledger()).toEqual([]);
    const mail = await mailTo(t.outbox, user.email, /Подтвердите/);
    expect((await call(t.app, 'POST', '/api/v1/auth/verify-email', { body: { token: tokenFromLink(mail.text, '/auth/verify-email') } })).status).toBe(200);
    const entries = await ledger();
    expect(entries).toEqual([{ type: 'welcome', amount: 100, balance_after: 100, idempotency_key: 'welcome' }]);
    const balance = await t.app.db.selectFrom('token_balances').select('balance').where('user_id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(balance.balance).toBe(100);
  });

  it('stores the password as an argon2id hash with the OWASP parameters', async () => {
    const user = await register(t.app);
    const row = await t.app.db.selectFrom('users').select('password_hash').where('id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('joins an existing organization as a member with its invitation code (any case, spaces trimmed)', async () => {
    const owner = await register(t.app);
    const code: string = owner.organization.invitation_code;
    const member = await register(t.app, { organization_name: undefined, invitation_code: ` ${code.toLowerCase()} ` });
    expect(member.organization.id).toBe(owner.organization.id);
    expect(member.organization.role).toBe('member');
    // Members do not see the invitation code.
    expect(member.organization.invitation_code).toBeUndefined();
  });

  it('answers 404 with a clear message for an unknown invitation code', async () => {
    const res = await call(t.app, 'POST', REGISTER, { body: registration({ organization_name: undefined, invitation_code: 'NOSUCHCODE' }) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Код приглашения не найден', code: 'INVITATION_CODE_NOT_FOUND' });
  });

  // Issue 27: registration does not tell a stranger which addresses have accounts.
  describe('an address that already has an account', () => {
    /** What the database holds about an account and its organization, to prove nothing changed. */
    async function accountState(userId: string) {
      const db = t.app.db;
      return {
        user: await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow(),
        memberships: await db.selectFrom('memberships').selectAll().where('user_id', '=', userId).execute(),
        organizations: await db.selectFrom('organizations').selectAll().innerJoin('memberships', 'memberships.organization_id', 'organizations.id').where('memberships.user_id', '=', userId).execute(),
        balance: await db.selectFrom('token_balances').selectAll().where('user_id', '=', userId).execute(),
        ledger: await db.selectFrom('token_ledger').selectAll().where('user_id', '=', userId).execute(),
        emailTokens: await db.selectFrom('email_tokens').selectAll().where('user_id', '=', userId).execute(),
        sessions: await db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', userId).execute(),
      };
    }
    const counts = async () => ({
      users: Number((await t.app.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
      organizations: Number((await t.app.db.selectFrom('organizations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    });

    it('gets the same answer as a new one (status, body, no session), whatever its case', async () => {
      const existing = await register(t.app);
      const fresh = uniqueEmail('fresh');
      const taken = existing.email.toUpperCase();
      const forNew = await call(t.app, 'POST', REGISTER, { body: registration({ email: fresh }) });
      const forExisting = await call(t.app, 'POST', REGISTER, { body: registration({ email: taken }) });
      expect(forExisting.status).toBe(forNew.status);
      expect(forNew.status).toBe(202);
      expect(forNew.body).toEqual(sentTo(fresh));
      expect(forExisting.body).toEqual(sentTo(taken));
      for (const answer of [forNew, forExisting]) expect(answer.headers['set-cookie']).toBeUndefined();
      expect(Object.keys(forExisting.headers).sort()).toEqual(Object.keys(forNew.headers).sort());
    });

    it('changes nothing: no row written, the old password still works, the new one does not', async () => {
      const existing = await register(t.app, { first_name: 'Ирина' });
      await mailTo(t.outbox, existing.email, /Подтвердите email/);
      const before = await accountState(existing.user.id);
      const countsBefore = await counts();
      const res = await call(t.app, 'POST', REGISTER, { body: registration({ email: existing.email, password: 'Другой-Pass-2024', first_name: 'Пётр', organization_name: 'Захват' }) });
      expect(res.status).toBe(202);
      await mailTo(t.outbox, existing.email, /Попытка регистрации/);
      expect(await accountState(existing.user.id)).toEqual(before);
      expect(await counts()).toEqual(countsBefore);
      expect((await call(t.app, 'POST', LOGIN, { body: { email: existing.email, password: 'Другой-Pass-2024' } })).status).toBe(401);
      expect((await call(t.app, 'POST', LOGIN, { body: { email: existing.email, password: existing.password } })).status).toBe(200);
    });

    it("mails the address's owner (not a verification link) with the ways to sign in and to reset the password", async () => {
      const existing = await register(t.app, { first_name: 'Ирина' });
      await mailTo(t.outbox, existing.email, /Подтвердите email/);
      await call(t.app, 'POST', REGISTER, { body: registration({ email: existing.email, first_name: 'Пётр' }) });
      const mail = await mailTo(t.outbox, existing.email, /Попытка регистрации/);
      expect(mail.text).toContain('Здравствуйте, Ирина!');
      expect(mail.text).toContain('Войти: http://localhost:5173/auth\n');
      expect(mail.text).toContain('Задать новый пароль: http://localhost:5173/auth/reset-password\n');
      expect(t.outbox.filter((m) => m.to === existing.email && /Подтвердите email/.test(m.subject))).toHaveLength(1);
    });

    it('still answers 404 for an unknown invitation code, as for a new address', async () => {
      const existing = await register(t.app);
      const res = await call(t.app, 'POST', REGISTER, { body: registration({ email: existing.email, organization_name: undefined, invitation_code: 'NOSUCHCODE' }) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Код приглашения не найден', code: 'INVITATION_CODE_NOT_FOUND' });
    });
  });

  it('creates one account for two simultaneous registrations with the same email; both get the same answer', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all([1, 2].map(() => call(t.app, 'POST', REGISTER, { body: registration({ email }) })));
    expect(results.map((r) => r.status)).toEqual([202, 202]);
    expect(results[0]!.body).toEqual(results[1]!.body);
    const users = await t.app.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
  });

  describe('answers 422 with the messages of spec section 5', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['empty first name', { first_name: '' }, 'first_name', 'Введите имя'],
      ['missing first name', { first_name: undefined }, 'first_name', 'Введите имя'],
      ['one-letter first name', { first_name: 'А' }, 'first_name', 'Имя должно содержать минимум 2 символа'],
      ['empty last name', { last_name: '' }, 'last_name', 'Введите фамилию'],
      ['one-letter last name', { last_name: 'С' }, 'last_name', 'Фамилия должна содержать минимум 2 символа'],
      ['missing last name', { last_name: undefined }, 'last_name', 'Введите фамилию'],
      ['empty email', { email: '' }, 'email', 'Введите email'],
      ['missing email', { email: undefined }, 'email', 'Введите email'],
      ['invalid email', { email: 'not-an-email' }, 'email', 'Некорректный email'],
      ['missing password', { password: undefined }, 'password', 'Пароль должен содержать минимум 8 символов'],
      ['short password', { password: 'Ab1' }, 'password', 'Пароль должен содержать минимум 8 символов'],
      ['password without lowercase', { password: 'ABCDEFG1' }, 'password', 'Пароль должен содержать строчные латинские буквы'],
      ['password without uppercase', { password: 'abcdefg1' }, 'password', 'Пароль должен содержать заглавные латинские буквы'],
      ['password without digits', { password: 'Abcdefgh' }, 'password', 'Пароль должен содержать цифры'],
      ['one-letter organization name', { organization_name: 'А' }, 'organization_name', 'Название организации должно содержать минимум 2 символа'],
      ['short invitation code', { organization_name: undefined, invitation_code: 'ABCD' }, 'invitation_code', 'Код приглашения должен содержать минимум 5 символов'],
    ];
    it.each(cases)('%s', async (_name, overrides, field, message) => {
      const res = await call(t.app, 'POST', REGISTER, { body: registration(overrides) });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.detail).toContainEqual({ loc: ['body', field], msg: message });
    });

    it('neither organization name nor invitation code', async () => {
      const res = await call(t.app, 'POST', REGISTER, { body: registration({ organization_name: undefined }) });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { msg: string }) => d.msg)).toEqual(['Заполните обязательные поля для выбранного типа организации']);
      expect(res.body.error).toBe('Заполните обязательные поля для выбранного типа организации');
    });

    it('both organization name and invitation code', async () => {
      const res = await call(t.app, 'POST', REGISTER, { body: registration({ invitation_code: 'ABCDEF' }) });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { msg: string }) => d.msg)).toEqual(['Заполните обязательные поля для выбранного типа организации']);
    });
  });
});

describe('login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns user, organization and tokens for the right password (email in any case)', async () => {
    const user = await register(t.app);
    const res = await call(t.app, 'POST', LOGIN, { body: { email: user.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(user.user);
    expect(res.body.organization).toEqual(user.organization);
    const me = await call(t.app, 'GET', '/api/v1/auth/me', { token: res.body.tokens.access_token });
    expect(me.body.id).toBe(user.user.id);
  });

  it('gives the same 401 for a wrong password and for an unknown email', async () => {
    const user = await register(t.app);
    const wrong = await call(t.app, 'POST', LOGIN, { body: { email: user.email, password: 'Wrong1234' } });
    const unknown = await call(t.app, 'POST', LOGIN, { body: { email: uniqueEmail('nobody'), password: 'Wrong1234' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Неверный email или пароль', code: 'INVALID_CREDENTIALS' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('spends about the same time on an unknown email as on a wrong password (a password hash is checked either way)', async () => {
    const user = await register(t.app);
    const timed = async (email: string) => {
      const started = performance.now();
      await call(t.app, 'POST', LOGIN, { body: { email, password: 'Wrong1234' } });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(user.email));
      unknown.push(await timed(uniqueEmail('nobody')));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Without the dummy check an unknown email would answer in a small fraction of the argon2 time.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });

  it('lands in the organization used last', async () => {
    const owner = await register(t.app);
    const other = await register(t.app, { organization_name: 'Вторая' });
    // The second owner joins the first organization too, then switches to it.
    await t.app.db.insertInto('memberships').values({ user_id: other.user.id, organization_id: owner.organization.id, role: 'member' }).execute();
    const switched = await call(t.app, 'POST', '/api/v1/auth/switch-organization', { token: other.tokens.access_token, body: { organization_id: owner.organization.id } });
    expect(switched.status).toBe(200);
    const res = await call(t.app, 'POST', LOGIN, { body: { email: other.email, password: PASSWORD } });
    expect(res.body.organization).toEqual({ id: owner.organization.id, name: 'Рога и копыта', plan_type: 'free', role: 'member' });
  });

  describe('answers 422 with the messages of spec section 5', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['empty email', { email: '', password: 'x' }, 'email', 'Введите email'],
      ['missing email', { password: 'x' }, 'email', 'Введите email'],
      ['invalid email', { email: 'nope', password: 'x' }, 'email', 'Некорректный email'],
      ['empty password', { email: 'a@b.ru', password: '' }, 'password', 'Введите пароль'],
      ['missing password', { email: 'a@b.ru' }, 'password', 'Введите пароль'],
    ];
    it.each(cases)('%s', async (_name, body, field, message) => {
      const res = await call(t.app, 'POST', LOGIN, { body });
      expect(res.status).toBe(422);
      expect(res.body.detail).toContainEqual({ loc: ['body', field], msg: message });
    });
  });
});
