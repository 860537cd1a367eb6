import { sql } from 'kysely';
import { paymentMessages as m } from '../../contract/messages.js';
import type { TransferDirection, TransferResponse } from '../../contract/payments.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { fullName } from '../lib/api-values.js';
import { forbidden, HttpError, notFound } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { applyLedgerEntry, getBalance, getOwnBalance, type LedgerSource } from './ledger.js';

/**
 * The owner moves tokens to a member of their organization or back from one: two ledger entries (a
 * debit and a credit) in one transaction under one idempotency key, so a retried or doubled request
 * moves once. Both balance rows are locked first, always in the same order, so transfers in opposite
 * directions between the same two people wait for each other instead of deadlocking.
 *
 * What may move (server/tokens/ledger.ts, sources): the owner gives only their own tokens (never a welcome
 * credit nor what another owner granted them), and the member holds them as this owner's grant; back
 * moves only what is left of that grant (never what the member bought, was credited or welcomed with).
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

  const sources: { out: LedgerSource; in: LedgerSource } =
    input.direction === 'to_member' ? { out: { kind: 'own' }, in: { kind: 'granted', by: caller.userId } } : { out: { kind: 'granted', by: caller.userId }, in: { kind: 'own' } };

  return db.transaction().execute(async (trx) => {
    await trx.insertInto('token_balances').values([{ user_id: from }, { user_id: to }]).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    await sql`SELECT 1 FROM token_balances WHERE user_id IN (${from}, ${to}) ORDER BY user_id FOR UPDATE`.execute(trx);
    const common = { organizationId: caller.organizationId, idempotencyKey: key, createdBy: caller.userId, requestHash };
    let debit;
    try {
      debit = await applyLedgerEntry(trx, { ...common, userId: from, type: 'transfer_out', amount: -input.amount, reason: reasons.out, referenceId: to, source: sources.out });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 402) throw await refusal(db, input.direction, caller.userId, member.id);
      throw error;
    }
    if (debit.applied) {
      await applyLedgerEntry(trx, { ...common, userId: to, type: 'transfer_in', amount: input.amount, reason: reasons.in, referenceId: from, source: sources.in });
    }
    return { owner_balance: await getBalance(trx, caller.userId), member_balance: await getBalance(trx, member.id), applied: debit.applied };
  });
}

/** The 402 of a transfer, with how much could move (the transaction that failed is rolled back: read outside it). */
async function refusal(db: DB, direction: TransferDirection, ownerId: string, memberId: string): Promise<HttpError> {
  if (direction === 'to_member') {
    const own = await getOwnBalance(db, ownerId);
    return new HttpError(402, 'INSUFFICIENT_TOKENS', m.ownerInsufficient, [{ loc: ['body', 'amount'], msg: m.ownerInsufficientDetail.replace('{own}', String(own)) }]);
  }
  const grant = await db.selectFrom('token_grants').select('amount').where('user_id', '=', memberId).where('granted_by', '=', ownerId).executeTakeFirst();
  return new HttpError(402, 'INSUFFICIENT_TOKENS', m.memberInsufficient, [{ loc: ['body', 'amount'], msg: m.memberInsufficientDetail.replace('{returnable}', String(grant?.amount ?? 0)) }]);
}
