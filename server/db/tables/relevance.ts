import type { ColumnType } from 'kysely';
import type { RelevanceResult, RelevanceStage, RelevanceStatus, RelevanceSummary } from '../../../contract/relevance.js';
import type { Json, NullableJson, PaidRunColumns } from './columns.js';

/** One paid landing-page relevance run of a project. */
export interface RelevanceAnalysesTable extends PaidRunColumns<RelevanceStatus> {
  project_id: string;
  stage: ColumnType<RelevanceStage, RelevanceStage | undefined, RelevanceStage>;
  progress: ColumnType<number, number | undefined, number>;
  progress_detail: NullableJson<{ done: number; total: number }>;
  /** The addresses to fetch, in order. */
  urls: Json<string[]>;
  score: number | null;
  summary: NullableJson<RelevanceSummary>;
  result: NullableJson<RelevanceResult>;
}

export interface RelevanceTables {
  relevance_analyses: RelevanceAnalysesTable;
}
