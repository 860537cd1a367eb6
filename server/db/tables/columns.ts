import type { ColumnType, Generated } from 'kysely';

/** Set by the database on insert, never updated. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A date: optional on insert (the column's default), updatable. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** json/jsonb written as an already-serialised string (big documents are stringified off the event loop). */
export type Json<T> = ColumnType<T, string, string>;
export type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/**
 * The columns every paid run (audit, page check, AI plan) has, declared once: who paid and how much, the
 * start's idempotency, the job's lease and the outcome. `server/runs/paid-run.ts` is the one lifecycle
 * over them; each run kind's table adds what its work needs.
 */
export interface PaidRunColumns<Status extends string> {
  id: Generated<string>;
  organization_id: string;
  /** Who started (and paid for) it; refunds go back to this user. */
  created_by: string | null;
  status: ColumnType<Status, Status | undefined, Status>;
  cost: number;
  /** Unique per (created_by, idempotency_key): a retried start returns the same run, charged once. */
  idempotency_key: string;
  /** SHA-256 of what the start asked for (server/lib/idempotency.ts); the same key with another request is 409. Null on rows from before it was kept. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  job_id: string | null;
  /** How many times a worker started the run (restarts after a crash count too). */
  attempts: ColumnType<number, number | undefined, number>;
  heartbeat_at: NullableTimestamp;
  error: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}
