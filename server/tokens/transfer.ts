import { sql } from 'kysely';
import { paymentMessages as m } from '../../src/contract/messages.js';
import type { TransferDirection, TransferResponse } from '../../src/contract/payments.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { fullName } from '../lib/api-values.js';
import { forbidden, HttpError, notFound, paymentRequired } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { applyLedgerEntry, getBalance } from './ledger.js';

/**
 * The owner moves tokens to a member of their organization or back from one: two ledger entries (a
 * debit and a credit) in one transaction under one idempotency key, so a retried or doubled request
 * moves once. Both balance rows are locked first, always in the same order, so transfers in opposite
 * directions between the same two people wait for each other instead of deadlocking.
 */
export async function transferTokens(db: DB, caller: Caller, input: { memberId: string; direction: TransferDirection; amount: number; idempotencyKey: string }): Promise<TransferResponse> {
  if (caller.organizationRole !== 'owner') throw forbidden(m.transferOwnerOnly, 'FORBIDDEN');
  if (input.memberId === caller.userId) throw new HttpError(422, 'TRANSFER_SELF', m.transferSelf, [{ loc: ['params', 'userId'], msg: m.transferSelf }]);
  const member = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.first_name', 'users.last_name'])
    .where('memberships.organization_id', '=', caller.organizationId)
    .where('memberships.user_id', '=', input.memberId)
    .executeTakeFirst();
  if (!member) throw notFound(m.memberNotFound, 'MEMBER_NOT_FOUND');
  const owner = await db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', caller.userId).executeTakeFirstOrThrow();

  const [from, to] = input.direction === 'to_member' ? [caller.userId, member.id] : [member.id, caller.userId];
  const key = `transfer:${caller.organizationId}:${caller.userId}:${input.idempotencyKey}`;
  const requestHash = requestFingerprint({ member: member.id, direction: input.direction, amount: input.amount });
  // Names as the people know each other; the email when a name was never given.
  const memberName = fullName(member.first_name, member.last_name) || member.email;
  const ownerName = fullName(owner.first_name, owner.last_name) || owner.email;
  const reasons =
    input.direction === 'to_member'
      ? { out: `Участнику ${memberName}`, in: `От владельца ${ownerName}` }
      : { out: `Возврат владельцу ${ownerName}`, in: `Возврат от участника ${memberName}` };

  return db.transaction().execute(async (trx) => {
    await trx.insertInto('token_balances').values([{ user_id: from }, { user_id: to }]).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    await sql`SELECT 1 FROM token_balances WHERE user_id IN (${from}, ${to}) ORDER BY user_id FOR UPDATE`.execute(trx);
    const common = { organizationId: caller.organizationId, idempotencyKey: key, createdBy: caller.userId, requestHash };
    let debit;
    try {
      debit = await applyLedgerEntry(trx, { ...common, userId: from, type: 'transfer_out', amount: -input.amount, reason: reasons.out, referenceId: to });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 402) {
        throw paymentRequired(input.direction === 'to_member' ? m.ownerInsufficient : m.memberInsufficient);
      }
      throw error;
    }
    if (debit.applied) {
      await applyLedgerEntry(trx, { ...common, userId: to, type: 'transfer_in', amount: input.amount, reason: reasons.in, referenceId: from });
    }
    return { owner_balance: await getBalance(trx, caller.userId), member_balance: await getBalance(trx, member.id), applied: debit.applied };
  });
}
