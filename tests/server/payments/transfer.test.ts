import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const balanceOf = async (user: FixtureUser) => (await call(t.app, 'GET', '/api/v1/tokens/balance', { token: user.token })).body.balance as number;
const transfer = (actor: FixtureUser, member: FixtureUser | string, body: object) =>
  call(t.app, 'POST', `/api/v1/organizations/members/${typeof member === 'string' ? member : member.id}/transfer`, { token: actor.token, body });

async function team() {
  const owner = await createUser(t.app, { balance: 1704, firstName: 'Ольга', lastName: 'Смирнова' });
  const member = await createUser(t.app, { organizationId: owner.organizationId, balance: 100, firstName: 'Пётр', lastName: 'Иванов' });
  return { owner, member };
}

describe('team balance transfers', () => {
  it('moves tokens to a member and back as two ledger entries each', async () => {
    const { owner, member } = await team();
    const to = await transfer(owner, member, { direction: 'to_member', amount: 500, idempotency_key: 't1' });
    expect(to.status).toBe(200);
    expect(to.body).toEqual({ owner_balance: 1204, member_balance: 600, applied: true });
    // Back: what the owner gave (500), not the member's own 100 (issue 27).
    const back = await transfer(owner, member, { direction: 'from_member', amount: 500, idempotency_key: 't2' });
    expect(back.body).toEqual({ owner_balance: 1704, member_balance: 100, applied: true });

    const memberHistory = await call(t.app, 'GET', '/api/v1/tokens/history', { token: member.token });
    expect(memberHistory.body.items.map((item: { type: string; amount: number; reason: string }) => [item.type, item.amount, item.reason])).toEqual([
      ['transfer_out', -500, 'Возврат владельцу Ольга Смирнова'],
      ['transfer_in', 500, 'От владельца Ольга Смирнова'],
    ]);
    const ownerHistory = await call(t.app, 'GET', '/api/v1/tokens/history', { token: owner.token });
    expect(ownerHistory.body.items.map((item: { type: string; amount: number; reason: string }) => [item.type, item.amount, item.reason])).toEqual([
      ['transfer_in', 500, 'Возврат от участника Пётр Иванов'],
      ['transfer_out', -500, 'Участнику Пётр Иванов'],
    ]);
  });

  it('moves once under 20 concurrent identical requests', async () => {
    const { owner, member } = await team();
    const body = { direction: 'to_member', amount: 300, idempotency_key: 'same-click' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => transfer(owner, member, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.applied)).toHaveLength(1);
    expect(await balanceOf(owner)).toBe(1404);
    expect(await balanceOf(member)).toBe(400);
    const entries = await t.app.db.selectFrom('token_ledger').select(['user_id', 'amount']).where('idempotency_key', 'like', '%same-click').execute();
    expect(entries).toHaveLength(2);
    // The same key with another amount is a client bug: 409, nothing moves.
    const reused = await transfer(owner, member, { ...body, amount: 5 });
    expect(reused.status).toBe(409);
    expect(await balanceOf(member)).toBe(400);
  });

  it('refuses more than the balance holds, in Russian, moving nothing', async () => {
    const { owner, member } = await team();
    const tooMuch = await transfer(owner, member, { direction: 'to_member', amount: 5000, idempotency_key: 'big' });
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.body.error).toBe('На вашем балансе недостаточно токенов');
    const back = await transfer(owner, member, { direction: 'from_member', amount: 101, idempotency_key: 'big-back' });
    expect(back.status).toBe(402);
    expect(back.body.error).toBe('На балансе участника недостаточно токенов');
    expect([await balanceOf(owner), await balanceOf(member)]).toEqual([1704, 100]);
  });

  it('lets only the owner transfer, only within the organization', async () => {
    const { owner, member } = await team();
    const admin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin', balance: 50 });
    const outsider = await createUser(t.app, { balance: 50 });
    const body = { direction: 'to_member', amount: 10, idempotency_key: 'p' };
    const byMember = await transfer(member, owner, body);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toBe('Переводить токены может только владелец организации');
    expect((await transfer(admin, member, body)).status).toBe(403);
    const otherOrg = await transfer(owner, outsider, body);
    expect(otherOrg.status).toBe(404);
    expect(otherOrg.body.error).toBe('Участник не найден');
    expect((await transfer(owner, owner, body)).status).toBe(422);
    expect((await transfer(owner, member, { direction: 'sideways', amount: -1, idempotency_key: 'p' })).status).toBe(422);
    expect((await call(t.app, 'POST', `/api/v1/organizations/members/${member.id}/transfer`, { body })).status).toBe(401);
    expect([await balanceOf(owner), await balanceOf(member), await balanceOf(outsider)]).toEqual([1704, 100, 50]);
  });

  it('shows the members’ balances to the owner only', async () => {
    const { owner, member } = await team();
    const admin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin', balance: 50 });
    const asOwner = await call(t.app, 'GET', '/api/v1/organizations/members', { token: owner.token });
    expect(asOwner.body.members.map((m: { user_id: string; balance: number }) => [m.user_id, m.balance])).toEqual(
      expect.arrayContaining([
        [owner.id, 1704],
        [member.id, 100],
        [admin.id, 50],
      ]),
    );
    const asAdmin = await call(t.app, 'GET', '/api/v1/organizations/members', { token: admin.token });
    expect(asAdmin.body.members.every((m: object) => !('balance' in m))).toBe(true);
    const other = await createUser(t.app);
    const asOther = await call(t.app, 'GET', '/api/v1/organizations/members', { token: other.token });
    expect(asOther.body.members.map((m: { user_id: string }) => m.user_id)).toEqual([other.id]);
  });
});
