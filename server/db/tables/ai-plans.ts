import type { ColumnType, Generated } from 'kysely';
import type { AiPlanResult, AiPlanStatus } from '../../../contract/ai-plan.js';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as an already-serialised string. */
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** One paid AI plan of a completed audit. */
export interface AiPlansTable {
  id: Generated<string>;
  organization_id: string;
  /** The completed audit (`analyses.id`) the plan is written for. */
  analysis_id: string;
  /** Who started (and paid for) it; refunds go back to this user. */
  created_by: string | null;
  status: ColumnType<AiPlanStatus, AiPlanStatus | undefined, AiPlanStatus>;
  model: string;
  cost: number;
  /** Unique per (created_by, idempotency_key): a retried start returns the same plan, charged once. */
  idempotency_key: string;
  /** SHA-256 of what the start asked for (server/lib/idempotency.ts); the same key with another request is 409. Null on rows from before it was kept. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  job_id: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  heartbeat_at: Timestamp;
  prompt_chars: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  plan: NullableJson<AiPlanResult>;
  error: string | null;
  created_at: CreatedAt;
  started_at: Timestamp;
  finished_at: Timestamp;
}

export interface AiPlanTables {
  ai_plans: AiPlansTable;
}
