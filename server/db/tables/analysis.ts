import type { ColumnType, Generated } from 'kysely';
import type { AnalysisDecisions, AnalysisOptions, AnalysisProgressDetail, AnalysisStatus, AnalysisSummary } from '../../../src/contract/analysis.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as an already-serialised string (big results are stringified off the event loop). */
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export interface AnalysesTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  /** Who started (and paid for) it; refunds go back to this user. */
  created_by: string | null;
  kind: ColumnType<'audit', 'audit' | undefined, 'audit'>;
  status: ColumnType<AnalysisStatus, AnalysisStatus | undefined, AnalysisStatus>;
  stage: string | null;
  /** 0–100. */
  progress: ColumnType<number, number | undefined, number>;
  progress_detail: NullableJson<AnalysisProgressDetail>;
  options: Json<AnalysisOptions>;
  cost: number;
  idempotency_key: string;
  /** SHA-256 of what the start asked for (server/lib/idempotency.ts); the same key with another request is 409. Null on rows from before it was kept. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  job_id: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  heartbeat_at: NullableTimestamp;
  error: string | null;
  score: number | null;
  summary: NullableJson<AnalysisSummary>;
  /** The whole engine output (`AuditResult`); large, read only by the results and export routes. */
  result: NullableJson<unknown>;
  decisions: ColumnType<AnalysisDecisions, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** Tables of analyses and their results (filled by the analysis domain). */
export interface AnalysisTables {
  analyses: AnalysesTable;
}
