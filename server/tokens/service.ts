import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { auditAnalysisKinds } from '../../contract/analysis.js';
import { apiMessages, tokenMessages } from '../../contract/messages.js';
import { periodBounds, type AnalysisKind, type CampaignCounts, type CostResponse, type LedgerEntry as LedgerEntryBody, type LedgerEntryType } from '../../contract/tokens.js';
import type { DB } from '../db/database.js';
import { conflict, notFound } from '../lib/errors.js';
import { requestFingerprint } from '../lib/idempotency.js';
import { applyLedgerEntry, getBalance, type LedgerEntry, type LedgerResult } from './ledger.js';
import { priceCampaigns } from './pricing.js';

/** A ledger row as the API shows it (the idempotency key stays internal). */
export function toEntryBody(entry: LedgerEntry): LedgerEntryBody {
  return {
    id: entry.id,
    type: entry.type,
    amount: entry.amount,
    balance_after: entry.balance_after,
    reason: entry.reason,
    reference_id: entry.reference_id,
    created_at: entry.created_at.toISOString(),
  };
}

export interface HistoryFilter {
  page: number;
  pageSize: number;
  type?: LedgerEntryType;
  from?: string;
  to?: string;
}

/** The caller's own ledger, newest first. Balance and history are personal, not shared by the organization. */
export async function listHistory(db: DB, userId: string, filter: HistoryFilter) {
  const period = periodBounds(filter.from, filter.to);
  const base = db
    .selectFrom('token_ledger')
    .where('user_id', '=', userId)
    .$if(filter.type !== undefined, (query) => query.where('type', '=', filter.type!))
    .$if(period.from !== undefined, (query) => query.where('created_at', '>=', period.from!))
    .$if(period.to !== undefined, (query) => query.where('created_at', '<=', period.to!));
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'type', 'amount', 'balance_after', 'idempotency_key', 'reason', 'reference_id', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toEntryBody), total: count.total, page: filter.page, page_size: filter.pageSize };
}

/**
 * The price of an analysis and whether the caller can pay it now. Without `kinds` it quotes what an
 * audit start charges (`auditAnalysisKinds`), so the figure shown before starting is the one debited.
 */
export async function calculateCost(db: DB, userId: string, campaigns: CampaignCounts[], kinds: readonly AnalysisKind[] = auditAnalysisKinds): Promise<CostResponse> {
  const { total, breakdown } = priceCampaigns(campaigns, kinds);
  const balance = await getBalance(db, userId);
  return { total, currency: 'tokens', breakdown, balance, sufficient: balance >= total };
}

export interface CreditInput {
  /** The platform admin who credits (null from the command line). */
  actorUserId: string | null;
  recipient: { userId: string } | { email: string };
  amount: number;
  reason: string;
  /** Same key, same recipient: credited once. Absent: a new credit every time. */
  idempotencyKey?: string;
  /** Where the credit came from, kept in the audit record ('api', 'cli'). */
  source: string;
}

/**
 * Credits tokens by hand (admin endpoint and CLI). The ledger entry, the balance and the audit-log row
 * are written in one transaction, so there is never a credit without its audit record. A retry with the
 * same key changes nothing and writes no second audit row.
 */
export async function creditTokens(db: DB, input: CreditInput) {
  const users = db.selectFrom('users').select(['id', 'email']);
  const recipient = await ('userId' in input.recipient
    ? users.where('id', '=', input.recipient.userId)
    : users.where(sql<string>`lower(email)`, '=', input.recipient.email.toLowerCase())
  ).executeTakeFirst();
  if (!recipient) throw notFound(tokenMessages.userNotFound, 'USER_NOT_FOUND');

  const key = `admin-credit:${input.idempotencyKey ?? randomUUID()}`;
  const requestHash = input.idempotencyKey === undefined ? undefined : requestFingerprint({ user_id: recipient.id, amount: input.amount, reason: input.reason });
  if (requestHash !== undefined) {
    // The key is the admin's: used before for another recipient, it is another request too.
    const other = await db
      .selectFrom('token_ledger')
      .select('id')
      .where('type', '=', 'admin_credit')
      .where('idempotency_key', '=', key)
      .where('user_id', '!=', recipient.id)
      .executeTakeFirst();
    if (other) throw conflict(apiMessages.idempotencyKeyOtherRequest, 'IDEMPOTENCY_KEY_REUSED');
  }
  return db.transaction().execute(async (trx) => {
    const result = await applyAdminCredit(trx, { ...input, recipient, idempotencyKey: key, requestHash });
    return { balance: result.balance, entry: toEntryBody(result.entry), applied: result.applied };
  });
}

/**
 * The one way a credit by hand is written (admin endpoint and CLI), inside the caller's transaction:
 * the ledger entry and, when it is new, its audit-log row. A replayed key writes neither again.
 */
export async function applyAdminCredit(
  trx: DB,
  input: {
    recipient: { id: string; email: string };
    amount: number;
    reason: string;
    idempotencyKey: string;
    requestHash?: string;
    actorUserId: string | null;
    source: string;
  },
): Promise<LedgerResult> {
  const result = await applyLedgerEntry(trx, {
    userId: input.recipient.id,
    organizationId: null,
    type: 'admin_credit',
    amount: input.amount,
    idempotencyKey: input.idempotencyKey,
    reason: input.reason,
    createdBy: input.actorUserId,
    ...(input.requestHash !== undefined ? { requestHash: input.requestHash } : {}),
  });
  if (result.applied) {
    await trx
      .insertInto('audit_log')
      .values({
        actor_user_id: input.actorUserId,
        action: 'tokens.admin_credit',
        target_user_id: input.recipient.id,
        organization_id: null,
        payload: JSON.stringify({
          amount: input.amount,
          reason: input.reason,
          entry_id: result.entry.id,
          balance_after: result.balance,
          email: input.recipient.email,
          source: input.source,
        }),
      })
      .execute();
  }
  return result;
}
