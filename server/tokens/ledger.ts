import { sql, type Kysely } from 'kysely';
import { apiMessages } from '../../contract/messages.js';
import { prepareQuery } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import type { LedgerEntryType, LedgerSources } from '../db/tables/core.js';
import { conflict, paymentRequired } from '../lib/errors.js';
import { requireSameRequest } from '../lib/idempotency.js';

/**
 * Which of the user's tokens an entry moves. A balance has three parts: the welcome credit (spent on
 * analyses, never transferred), what owners granted (by giver: only that giver may move it back) and the
 * user's own tokens (bought, credited by an admin, moved back to them: theirs to spend or give).
 * - `own`: only own tokens (a purchase, a credit; a transfer from the owner's balance, a purchase refund);
 * - `welcome`: the welcome credit;
 * - `granted`: the grant of one giver (a transfer to a member; moving it back takes only from it);
 * - `spend`: a debit for an analysis: the welcome credit first, then grants, then own tokens last, so what
 *   a user bought stays theirs the longest;
 * - `refund`: a credit giving back what the debit of this reference took, part by part (the welcome credit
 *   first), so cancelling a run never turns a welcome credit or a grant into own tokens.
 */
export type LedgerSource = { kind: 'own' } | { kind: 'welcome' } | { kind: 'granted'; by: string } | { kind: 'spend' } | { kind: 'refund'; referenceId: string };

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
  /** Which tokens move; by default from the type (`defaultSource`). */
  source?: LedgerSource;
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

function defaultSource(input: LedgerEntryInput): LedgerSource {
  if (input.type === 'welcome') return { kind: 'welcome' };
  if (input.type === 'analysis_refund' && input.referenceId) return { kind: 'refund', referenceId: input.referenceId };
  if (input.type === 'purchase_refund') return { kind: 'own' };
  return input.amount > 0 ? { kind: 'own' } : { kind: 'spend' };
}

/**
 * The only way the token balance changes. Inside one transaction it writes the ledger entry (unique per
 * user and idempotency key), then moves the balance and its parts (welcome credit, grants) with one
 * conditional UPDATE that can take none of them below zero nor the parts above the balance, then records
 * the balance after and the parts moved. A failed condition rolls the entry back with it (402).
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
  const parts = await partsOf(db, input, input.source ?? defaultSource(input), inserted.id);
  const welcome = parts.welcome ?? 0;
  const granted = Object.values(parts.granted ?? {}).reduce((sum, part) => sum + part, 0);
  const moved = await db
    .updateTable('token_balances')
    .set({
      balance: sql<number>`balance + ${input.amount}`,
      welcome: sql<number>`welcome + ${welcome}`,
      granted: sql<number>`granted + ${granted}`,
      updated_at: sql<Date>`now()`,
    })
    .where('user_id', '=', input.userId)
    .where(sql<boolean>`balance + ${input.amount} >= 0 AND welcome + ${welcome} >= 0 AND granted + ${granted} >= 0 AND welcome + ${welcome} + granted + ${granted} <= balance + ${input.amount}`)
    .returning('balance')
    .executeTakeFirst();
  if (!moved) throw paymentRequired(apiMessages.insufficientTokens);
  for (const [giver, part] of Object.entries(parts.granted ?? {})) {
    const grant =
      part > 0
        ? await db
            .insertInto('token_grants')
            .values({ user_id: input.userId, granted_by: giver, amount: part })
            .onConflict((oc) => oc.columns(['user_id', 'granted_by']).doUpdateSet({ amount: sql<number>`token_grants.amount + ${part}` }))
            .returning('amount')
            .executeTakeFirst()
        : await db
            .updateTable('token_grants')
            .set({ amount: sql<number>`amount + ${part}` })
            .where('user_id', '=', input.userId)
            .where('granted_by', '=', giver)
            .where(sql<boolean>`amount + ${part} >= 0`)
            .returning('amount')
            .executeTakeFirst();
    // A debit of more than this giver granted: nothing of it moves (the transaction rolls back).
    if (!grant) throw paymentRequired(apiMessages.insufficientTokens);
  }

  const entry = await db
    .updateTable('token_ledger')
    .set({ balance_after: moved.balance, sources: welcome === 0 && granted === 0 ? null : JSON.stringify(parts) })
    .where('id', '=', inserted.id)
    .returning(entryColumns)
    .executeTakeFirstOrThrow();
  return { applied: true, entry, balance: moved.balance };
}

/** The signed parts of an entry that are not own tokens, with the balance row locked for the decision. */
async function partsOf(db: Kysely<Database>, input: LedgerEntryInput, source: LedgerSource, entryId: string): Promise<LedgerSources> {
  switch (source.kind) {
    case 'own':
      return {};
    case 'welcome':
      return { welcome: input.amount };
    case 'granted':
      return { granted: { [source.by]: input.amount } };
    case 'spend': {
      if (input.amount > 0) return {};
      const row = await db.selectFrom('token_balances').select(['welcome', 'granted']).where('user_id', '=', input.userId).forUpdate().executeTakeFirst();
      if (!row) return {};
      let need = -input.amount;
      const parts: LedgerSources = {};
      const welcome = Math.min(row.welcome, need);
      if (welcome > 0) parts.welcome = -welcome;
      need -= welcome;
      if (need > 0 && row.granted > 0) {
        const grants = await db.selectFrom('token_grants').select(['granted_by', 'amount']).where('user_id', '=', input.userId).where('amount', '>', 0).orderBy('granted_by').forUpdate().execute();
        for (const grant of grants) {
          if (need === 0) break;
          const take = Math.min(Number(grant.amount), need);
          parts.granted = { ...parts.granted, [grant.granted_by]: -take };
          need -= take;
        }
      }
      return parts;
    }
    case 'refund': {
      // What the debits of this reference took from each part, less what earlier refunds gave back.
      const earlier = await db
        .selectFrom('token_ledger')
        .select(['amount', 'sources'])
        .where('user_id', '=', input.userId)
        .where('reference_id', '=', source.referenceId)
        .where('type', 'in', ['analysis_debit', 'analysis_refund'])
        .where('id', '!=', entryId)
        .execute();
      let welcomeOwed = 0;
      const grantsOwed = new Map<string, number>();
      for (const entry of earlier) {
        welcomeOwed -= entry.sources?.welcome ?? 0;
        for (const [giver, part] of Object.entries(entry.sources?.granted ?? {})) grantsOwed.set(giver, (grantsOwed.get(giver) ?? 0) - part);
      }
      let left = input.amount;
      const parts: LedgerSources = {};
      const welcome = Math.min(Math.max(welcomeOwed, 0), left);
      if (welcome > 0) parts.welcome = welcome;
      left -= welcome;
      for (const [giver, owed] of [...grantsOwed].sort(([a], [b]) => a.localeCompare(b))) {
        const part = Math.min(Math.max(owed, 0), left);
        if (part > 0) parts.granted = { ...parts.granted, [giver]: part };
        left -= part;
      }
      return parts;
    }
  }
}

/** The tokens a user may give away or have refunded: the balance less the welcome credit and the grants. */
export async function getOwnBalance(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db.selectFrom('token_balances').select(sql<number>`balance - welcome - granted`.as('own')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.own ?? 0);
}

// Compiled once: the balance is read on every page of the PWA (GET /api/v1/tokens/balance).
const selectBalance = prepareQuery((db, userId: string) => db.selectFrom('token_balances').select('balance').where('user_id', '=', userId));

export async function getBalance(db: Kysely<Database>, userId: string): Promise<number> {
  const [row] = await selectBalance(db, userId);
  return row?.balance ?? 0;
}
