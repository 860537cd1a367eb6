import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { regenerateInvitationCode } from '../../../server/organization/service.js';
import { createTestApp, call, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Team {
  owner: FixtureUser;
  admin: FixtureUser;
  member: FixtureUser;
}

/** An organization with one user of each role. */
async function team(): Promise<Team> {
  const owner = await createUser(t.app, { firstName: 'Ольга', lastName: 'Владелец' });
  const admin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin', firstName: 'Антон', lastName: 'Админов' });
  const member = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member', firstName: 'Мария', lastName: 'Участникова' });
  return { owner, admin, member };
}

async function refreshToken(user: FixtureUser, organizationId = user.organizationId) {
  const row = await t.app.db
    .insertInto('refresh_tokens')
    .values({
      family_id: randomUUID(),
      user_id: user.id,
      organization_id: organizationId,
      token_hash: randomBytes(16).toString('hex'),
      expires_at: new Date(Date.now() + 3600_000),
      family_expires_at: new Date(Date.now() + 7200_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const revokedAt = async (id: string) => (await t.app.db.selectFrom('refresh_tokens').select('revoked_at').where('id', '=', id).executeTakeFirstOrThrow()).revoked_at;

describe('GET /api/v1/organizations', () => {
  it("lists every organization of the caller with the caller's role there", async () => {
    const { owner } = await team();
    const other = await createUser(t.app, { organizationRole: 'owner' });
    // The owner of the first organization is also a plain member of another one.
    await t.app.db.insertInto('memberships').values({ user_id: owner.id, organization_id: other.organizationId, role: 'member' }).execute();
    await t.app.db.updateTable('organizations').set({ plan_type: '' }).where('id', '=', other.organizationId).execute();

    const res = await call(t.app, 'GET', '/api/v1/organizations', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.organizations).toHaveLength(2);
    expect(res.body.organizations[0]).toMatchObject({ id: owner.organizationId, plan_type: 'free', role: 'owner' });
    expect(res.body.organizations[1]).toMatchObject({ id: other.organizationId, plan_type: 'free', role: 'member' });
    expect(res.body.organizations[0]).not.toHaveProperty('invitation_code');
  });

  it('answers 401 without a token', async () => {
    expect((await call(t.app, 'GET', '/api/v1/organizations')).status).toBe(401);
  });
});

describe('GET /api/v1/organizations/current and /user-role', () => {
  it('shows the invitation code to the owner and the admin, not to a member', async () => {
    const { owner, admin, member } = await team();
    const org = await t.app.db.selectFrom('organizations').selectAll().where('id', '=', owner.organizationId).executeTakeFirstOrThrow();

    const asOwner = await call(t.app, 'GET', '/api/v1/organizations/current', { token: owner.token });
    expect(asOwner.status).toBe(200);
    expect(asOwner.body).toEqual({ id: org.id, name: org.name, plan_type: 'free', invitation_code: org.invitation_code, role: 'owner' });
    expect((await call(t.app, 'GET', '/api/v1/organizations/current', { token: admin.token })).body).toMatchObject({ invitation_code: org.invitation_code, role: 'admin' });

    const asMember = await call(t.app, 'GET', '/api/v1/organizations/current', { token: member.token });
    expect(asMember.status).toBe(200);
    expect(asMember.body).toEqual({ id: org.id, name: org.name, plan_type: 'free', role: 'member' });
  });

  it("answers the caller's role", async () => {
    const { owner, admin, member } = await team();
    for (const [user, role] of [[owner, 'owner'], [admin, 'admin'], [member, 'member']] as const) {
      const res = await call(t.app, 'GET', '/api/v1/organizations/user-role', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ role });
    }
  });

  it('answers 401 without a token', async () => {
    expect((await call(t.app, 'GET', '/api/v1/organizations/current')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/organizations/user-role')).status).toBe(401);
  });
});

describe('PUT /api/v1/organizations/current', () => {
  it('lets the owner and the admin rename the organization', async () => {
    const { owner, admin } = await team();
    const renamed = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token, body: { name: '  Ромашка  ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: owner.organizationId, name: 'Ромашка', plan_type: 'free', role: 'owner' });
    expect(renamed.body.invitation_code).toBeTruthy();

    const byAdmin = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: admin.token, body: { name: 'Лютик' } });
    expect(byAdmin.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/organizations/current', { token: owner.token })).body.name).toBe('Лютик');
  });

  it('refuses a member with 403', async () => {
    const { member } = await team();
    const res = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: member.token, body: { name: 'Захват' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Недостаточно прав', code: 'FORBIDDEN' });
  });

  it('lets only a platform admin change the plan; sending the same plan back is fine', async () => {
    const { owner } = await team();
    const refused = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token, body: { name: 'Ромашка', plan_type: 'pro' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Тариф меняет только администратор платформы', code: 'PLAN_TYPE_ADMIN_ONLY' });
    expect((await call(t.app, 'GET', '/api/v1/organizations/current', { token: owner.token })).body.plan_type).toBe('free');

    const same = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token, body: { name: 'Ромашка', plan_type: 'free' } });
    expect(same.status).toBe(200);

    const platformAdmin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin', role: 'admin' });
    const changed = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: platformAdmin.token, body: { plan_type: 'pro' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ plan_type: 'pro', name: 'Ромашка' });
  });

  it('answers 422 with the spec messages', async () => {
    const { owner } = await team();
    const short = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token, body: { name: 'Я' } });
    expect(short.status).toBe(422);
    expect(short.body).toEqual({
      error: 'Название организации должно содержать минимум 2 символа',
      code: 'VALIDATION_ERROR',
      detail: [{ loc: ['body', 'name'], msg: 'Название организации должно содержать минимум 2 символа' }],
    });
    const plan = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token, body: { plan_type: 'Про тариф!' } });
    expect(plan.status).toBe(422);
    expect(plan.body.detail).toEqual([{ loc: ['body', 'plan_type'], msg: 'Некорректный тариф' }]);
    const noBody = await call(t.app, 'PUT', '/api/v1/organizations/current', { token: owner.token });
    expect(noBody.status).toBe(422);
    expect(noBody.body.error).toBe('Передайте поля организации: name и/или plan_type');
  });

  it('answers 401 without a token', async () => {
    expect((await call(t.app, 'PUT', '/api/v1/organizations/current', { body: { name: 'Ромашка' } })).status).toBe(401);
  });
});

describe('invitation code', () => {
  it('is shown to the owner and the admin, refused to a member', async () => {
    const { owner, admin, member } = await team();
    const org = await t.app.db.selectFrom('organizations').select('invitation_code').where('id', '=', owner.organizationId).executeTakeFirstOrThrow();
    for (const user of [owner, admin]) {
      const res = await call(t.app, 'GET', '/api/v1/organizations/invitation-code', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ invitation_code: org.invitation_code });
    }
    expect((await call(t.app, 'GET', '/api/v1/organizations/invitation-code', { token: member.token })).status).toBe(403);
    expect((await call(t.app, 'GET', '/api/v1/organizations/invitation-code')).status).toBe(401);
  });

  it('is regenerated as 10 unambiguous characters, replacing the old one', async () => {
    const { owner, admin, member } = await team();
    const before = (await call(t.app, 'GET', '/api/v1/organizations/invitation-code', { token: owner.token })).body.invitation_code;

    const res = await call(t.app, 'POST', '/api/v1/organizations/regenerate-invitation-code', { token: owner.token });
    expect(res.status).toBe(200);
    const code: string = res.body.invitation_code;
    // 10 characters without the look-alikes 0/O and 1/I/L.
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{10}$/);
    expect(code).not.toBe(before);
    expect((await call(t.app, 'GET', '/api/v1/organizations/invitation-code', { token: owner.token })).body).toEqual({ invitation_code: code });

    const byAdmin = await call(t.app, 'POST', '/api/v1/organizations/regenerate-invitation-code', { token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.invitation_code).not.toBe(code);

    expect((await call(t.app, 'POST', '/api/v1/organizations/regenerate-invitation-code', { token: member.token })).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/v1/organizations/regenerate-invitation-code')).status).toBe(401);
  });

  it('draws again when the new code is taken by another organization', async () => {
    const first = await createUser(t.app);
    const second = await createUser(t.app);
    const taken = (await t.app.db.selectFrom('organizations').select('invitation_code').where('id', '=', first.organizationId).executeTakeFirstOrThrow()).invitation_code;
    const draws = [taken, 'ABCDEFGHJK'];
    const code = await regenerateInvitationCode(t.app.db, second.organizationId, () => draws.shift()!);
    expect(code).toBe('ABCDEFGHJK');
    expect(draws).toEqual([]);
  });
});

describe('members', () => {
  let crew: Team;
  beforeEach(async () => {
    crew = await team();
  });

  it('lists the members, owner first, for the owner (with balances) and the admin (without)', async () => {
    const res = await call(t.app, 'GET', '/api/v1/organizations/members', { token: crew.owner.token });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([crew.owner.id, crew.admin.id, crew.member.id]);
    expect(res.body.members[2]).toEqual({
      user_id: crew.member.id,
      email: crew.member.email,
      first_name: 'Мария',
      last_name: 'Участникова',
      full_name: 'Мария Участникова',
      role: 'member',
      joined_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      balance: 0,
      returnable: 0,
    });
    const asAdmin = await call(t.app, 'GET', '/api/v1/organizations/members', { token: crew.admin.token });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.members[2]).not.toHaveProperty('balance');
  });

  it('refuses the member list to a member (403) and to a guest (401)', async () => {
    expect((await call(t.app, 'GET', '/api/v1/organizations/members', { token: crew.member.token })).status).toBe(403);
    expect((await call(t.app, 'GET', '/api/v1/organizations/members')).status).toBe(401);
  });

  it('removes a member: 204, gone from the list, sessions in this organization revoked, access ends', async () => {
    const here = await refreshToken(crew.member);
    const elsewhereOrg = await createUser(t.app);
    await t.app.db.insertInto('memberships').values({ user_id: crew.member.id, organization_id: elsewhereOrg.organizationId, role: 'member' }).execute();
    const elsewhere = await refreshToken(crew.member, elsewhereOrg.organizationId);

    const res = await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.member.id}`, { token: crew.admin.token });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');

    const list = await call(t.app, 'GET', '/api/v1/organizations/members', { token: crew.owner.token });
    expect(list.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([crew.owner.id, crew.admin.id]);
    expect(await revokedAt(here)).toBeInstanceOf(Date);
    expect(await revokedAt(elsewhere)).toBeNull();
    expect((await call(t.app, 'GET', '/api/v1/organizations/current', { token: crew.member.token })).status).toBe(401);
    // Their next login lands in the organization they still belong to.
    const user = await t.app.db.selectFrom('users').select('last_organization_id').where('id', '=', crew.member.id).executeTakeFirstOrThrow();
    expect(user.last_organization_id).toBe(elsewhereOrg.organizationId);
    const audit = await t.app.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', crew.member.id).execute();
    expect(audit).toMatchObject([{ action: 'organization.member_removed', actor_user_id: crew.admin.id, organization_id: crew.owner.organizationId }]);
  });

  it('lets the owner remove an admin, but not an admin another admin', async () => {
    const secondAdmin = await createUser(t.app, { organizationId: crew.owner.organizationId, organizationRole: 'admin' });
    const refused = await call(t.app, 'DELETE', `/api/v1/organizations/members/${secondAdmin.id}`, { token: crew.admin.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Администратора организации может удалить только владелец', code: 'CANNOT_REMOVE_ADMIN' });
    expect((await call(t.app, 'DELETE', `/api/v1/organizations/members/${secondAdmin.id}`, { token: crew.owner.token })).status).toBe(204);
  });

  it('never removes the owner or oneself', async () => {
    const owner = await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.owner.id}`, { token: crew.admin.token });
    expect(owner.status).toBe(403);
    expect(owner.body).toEqual({ error: 'Нельзя удалить владельца организации', code: 'CANNOT_REMOVE_OWNER' });
    const self = await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.admin.id}`, { token: crew.admin.token });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ error: 'Нельзя удалить самого себя', code: 'CANNOT_REMOVE_SELF' });
    const ownerSelf = await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.owner.id}`, { token: crew.owner.token });
    expect(ownerSelf.body.code).toBe('CANNOT_REMOVE_SELF');
    const list = await call(t.app, 'GET', '/api/v1/organizations/members', { token: crew.owner.token });
    expect(list.body.members).toHaveLength(3);
  });

  it('refuses a member (403), a guest (401), an unknown user (404) and a malformed id (422)', async () => {
    const byMember = await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.admin.id}`, { token: crew.member.token });
    expect(byMember.status).toBe(403);
    expect((await call(t.app, 'DELETE', `/api/v1/organizations/members/${crew.member.id}`)).status).toBe(401);
    const unknown = await call(t.app, 'DELETE', `/api/v1/organizations/members/${randomUUID()}`, { token: crew.owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Участник не найден', code: 'MEMBER_NOT_FOUND' });
    const malformed = await call(t.app, 'DELETE', '/api/v1/organizations/members/42', { token: crew.owner.token });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([{ loc: ['params', 'userId'], msg: 'Некорректный идентификатор' }]);
  });
});
