import type { ColumnType, Generated } from 'kysely';
import type { RelevanceResult, RelevanceStage, RelevanceStatus, RelevanceSummary } from '../../../contract/relevance.js';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as an already-serialised string. */
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** One paid landing-page relevance run of a project. */
export interface RelevanceAnalysesTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  created_by: string | null;
  status: ColumnType<RelevanceStatus, RelevanceStatus | undefined, RelevanceStatus>;
  stage: ColumnType<RelevanceStage, RelevanceStage | undefined, RelevanceStage>;
  progress: ColumnType<number, number | undefined, number>;
  progress_detail: NullableJson<{ done: number; total: number }>;
  /** The addresses to fetch, in order. */
  urls: Json<string[]>;
  cost: number;
  /** Unique per (created_by, idempotency_key): a retried start returns the same run, charged once. */
  idempotency_key: string;
  /** SHA-256 of what the start asked for (server/lib/idempotency.ts); the same key with another request is 409. Null on rows from before it was kept. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  job_id: string | null;
  /** How many times a worker started the run (restarts after a crash count too). */
  attempts: ColumnType<number, number | undefined, number>;
  heartbeat_at: Timestamp;
  error: string | null;
  score: number | null;
  summary: NullableJson<RelevanceSummary>;
  result: NullableJson<RelevanceResult>;
  created_at: CreatedAt;
  started_at: Timestamp;
  finished_at: Timestamp;
}

export interface RelevanceTables {
  relevance_analyses: RelevanceAnalysesTable;
}
