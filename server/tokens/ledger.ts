import { sql, type Kysely } from 'kysely';
import { apiMessages } from '../../src/contract/messages.js';
import { prepareQuery } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import type { LedgerEntryType } from '../db/tables/core.js';
import { conflict, paymentRequired } from '../lib/errors.js';
import { requireSameRequest } from '../lib/idempotency.js';

export interface LedgerEntryInput {
  userId: string;
  organizationId: string | null;
  type: LedgerEntryType;
  /** Signed: positive credits, negative debits. */
  amount: number;
  /** Same key, same user: the operation is applied once, whatever the number of retries. */
  idempotencyKey: string;
  reason?: string | null;
  referenceId?: string | null;
  createdBy?: string | null;
  /** Fingerprint of the request behind the key (server/lib/idempotency.ts): the same key with another request is 409. */
  requestHash?: string;
}

export interface LedgerEntry {
  id: string;
  type: LedgerEntryType;
  amount: number;
  balance_after: number;
  idempotency_key: string;
  reason: string | null;
  reference_id: string | null;
  created_at: Date;
}

export interface LedgerResult {
  /** False when the key had been used already: nothing changed, the first entry is returned. */
  applied: boolean;
  entry: LedgerEntry;
  balance: number;
}

const entryColumns = ['id', 'type', 'amount', 'balance_after', 'idempotency_key', 'reason', 'reference_id', 'created_at'] as const;

/**
 * The only way the token balance changes. Inside one transaction it writes the ledger entry (unique per
 * user and idempotency key), then moves the balance with one conditional UPDATE that can never take it
 * below zero, then records the balance after. A failed condition rolls the entry back with it.
 * Pass a transaction to make the change part of a larger one (e.g. debit and enqueue a job together).
 */
export async function applyLedgerEntry(db: Kysely<Database>, input: LedgerEntryInput): Promise<LedgerResult> {
  if (!Number.isInteger(input.amount) || input.amount === 0) throw new Error(`Ledger amount must be a non-zero integer, got ${input.amount}`);
  if (!db.isTransaction) return db.transaction().execute((trx) => applyLedgerEntry(trx, input));

  const inserted = await db
    .insertInto('token_ledger')
    .values({
      user_id: input.userId,
      organization_id: input.organizationId,
      type: input.type,
      amount: input.amount,
      balance_after: 0,
      idempotency_key: input.idempotencyKey,
      reason: input.reason ?? null,
      reference_id: input.referenceId ?? null,
      created_by: input.createdBy ?? null,
      request_hash: input.requestHash ?? null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();

  if (!inserted) {
    const existing = await db
      .selectFrom('token_ledger')
      .select([...entryColumns, 'request_hash'])
      .where('user_id', '=', input.userId)
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirstOrThrow();
    if (existing.amount !== input.amount || existing.type !== input.type) {
      throw conflict('Ключ идемпотентности уже использован для другой операции', 'IDEMPOTENCY_KEY_REUSED');
    }
    if (input.requestHash !== undefined) requireSameRequest(existing.request_hash, input.requestHash);
    const current = await getBalance(db, input.userId);
    return { applied: false, entry: existing, balance: current };
  }

  if (input.amount > 0) {
    await db.insertInto('token_balances').values({ user_id: input.userId, balance: 0 }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  }
  const moved = await db
    .updateTable('token_balances')
    .set({ balance: sql<number>`balance + ${input.amount}`, updated_at: sql<Date>`now()` })
    .where('user_id', '=', input.userId)
    .where(sql<boolean>`balance + ${input.amount} >= 0`)
    .returning('balance')
    .executeTakeFirst();
  if (!moved) throw paymentRequired(apiMessages.insufficientTokens);

  const entry = await db
    .updateTable('token_ledger')
    .set({ balance_after: moved.balance })
    .where('id', '=', inserted.id)
    .returning(entryColumns)
    .executeTakeFirstOrThrow();
  return { applied: true, entry, balance: moved.balance };
}

// Compiled once: the balance is read on every page of the PWA (GET /api/v1/tokens/balance).
const selectBalance = prepareQuery((db, userId: string) => db.selectFrom('token_balances').select('balance').where('user_id', '=', userId));

export async function getBalance(db: Kysely<Database>, userId: string): Promise<number> {
  const [row] = await selectBalance(db, userId);
  return row?.balance ?? 0;
}
