import type { ColumnType } from 'kysely';
import type { PageCheckResult, PageCheckStage, PageCheckStatus, PageCheckSummary } from '../../../contract/page-check.js';
import type { Json, NullableJson, PaidRunColumns } from './columns.js';

/** One paid page check of a project. */
export interface PageChecksTable extends PaidRunColumns<PageCheckStatus> {
  project_id: string;
  stage: ColumnType<PageCheckStage, PageCheckStage | undefined, PageCheckStage>;
  progress: ColumnType<number, number | undefined, number>;
  progress_detail: NullableJson<{ done: number; total: number }>;
  /** The addresses to fetch, in order. */
  urls: Json<string[]>;
  score: number | null;
  summary: NullableJson<PageCheckSummary>;
  result: NullableJson<PageCheckResult>;
}

export interface PageCheckTables {
  page_checks: PageChecksTable;
}
