import type { ColumnType } from 'kysely';
import type { DecisionCounts, ResultsSummary } from '../../../contract/analysis-pages.js';
import type { AnalysisOptions, AnalysisProgressDetail, AnalysisStatus, AnalysisSummary } from '../../../contract/analysis.js';
import type { Json, NullableJson, PaidRunColumns, Timestamp } from './columns.js';

export interface AnalysesTable extends PaidRunColumns<AnalysisStatus> {
  project_id: string;
  kind: ColumnType<'audit', 'audit' | undefined, 'audit'>;
  stage: string | null;
  /** 0–100. */
  progress: ColumnType<number, number | undefined, number>;
  progress_detail: NullableJson<AnalysisProgressDetail>;
  options: Json<AnalysisOptions>;
  score: number | null;
  summary: NullableJson<AnalysisSummary>;
  /** The small summary document of a completed run (`ResultsSummary`, < 100 KB); the rest is in the row tables. */
  report: NullableJson<ResultsSummary>;
  /** The decision counts with the blocked non-target queries as of the current decisions; kept by every write of decisions, NULL when not known (migration 0110). */
  decision_counts: NullableJson<DecisionCounts>;
  /** Bit i set: the suggestion at position i has a decision; NULL when not known (migration 0112). */
  decided_positions: Buffer | null;
  /** Bit i set: the suggestion at position i is accepted; NULL when not known (migration 0175). */
  accepted_positions: Buffer | null;
  /** Why a run failed (`AnalysisErrorCode`). */
  error_code: string | null;
  /** Rows the result was stored as. */
  result_rows: number | null;
  updated_at: Timestamp;
}

/** Tables of analyses and their results (filled by the analysis domain). */
export interface AnalysisTables {
  analyses: AnalysesTable;
  analysis_findings: AnalysisFindingsTable;
  analysis_finding_items: AnalysisFindingItemsTable;
  analysis_suggestions: AnalysisSuggestionsTable;
  analysis_decisions: AnalysisDecisionsTable;
  analysis_scores: AnalysisScoresTable;
  analysis_semantic: AnalysisSemanticTable;
  analysis_entity_names: AnalysisEntityNamesTable;
  analysis_search_blooms: AnalysisSearchBloomsTable;
}

/** Which trigrams each block of a table's money order holds (search-blocks.ts, migration 0185). */
export interface AnalysisSearchBloomsTable {
  analysis_id: string;
  scope: 'findings' | 'suggestions';
  blocks: number;
  bits: Buffer;
}

/** Result rows (written by the worker in batches, see analysis/result-rows.ts); `document` is the engine's JSON. */
export interface AnalysisFindingsTable {
  analysis_id: string;
  id: string;
  position: number;
  check_id: string;
  severity: string;
  family: string;
  level: string;
  campaign_key: string | null;
  group_key: string | null;
  money_per_month: number;
  count: number;
  search: string;
  /** Rank in the money order, in a table of 16 384 rows or more (search-blocks.ts, migration 0185). */
  money_rank: ColumnType<number | null, number | null | undefined, number | null>;
  document: Json<unknown>;
}

export interface AnalysisFindingItemsTable {
  analysis_id: string;
  finding_id: string;
  /** Index of the row's first item (items are stored in chunks, see result-rows.ts). */
  position: number;
  money_per_month: number;
  /** Items in the row; `document` is their array (a single item object on rows from before 0070). */
  count: ColumnType<number, number | undefined, number>;
  document: Json<unknown>;
}

export interface AnalysisSuggestionsTable {
  analysis_id: string;
  id: string;
  position: number;
  kind: string;
  category: string | null;
  status: string | null;
  level: string;
  campaign_key: string | null;
  group_key: string | null;
  cost_per_month: number;
  search: string;
  /** Rank in the money order, in a table of 16 384 rows or more (search-blocks.ts, migration 0185). */
  money_rank: ColumnType<number | null, number | null | undefined, number | null>;
  document: Json<unknown>;
}

export interface AnalysisDecisionsTable {
  analysis_id: string;
  suggestion_id: string;
  decision: 'accepted' | 'rejected';
  value: string | null;
  decided_by: string | null;
  decided_at: Timestamp;
}

export interface AnalysisScoresTable {
  analysis_id: string;
  level: string;
  key: string;
  position: number;
  campaign_key: string | null;
  group_key: string | null;
  score: number;
  money_per_month: number;
  document: Json<unknown>;
}

export interface AnalysisSemanticTable {
  analysis_id: string;
  section: string;
  /** Index of the row's first item (sections but `query_blocks` are stored in chunks, see result-rows.ts). */
  position: number;
  campaign_key: string | null;
  group_key: string | null;
  /** Items in the row; `document` is their array (a single item object on rows from before 0070, and on `query_blocks`). */
  count: ColumnType<number, number | undefined, number>;
  document: Json<unknown>;
}

/** Names of a result's campaigns (`c0`) and groups (`c0g6`), which its documents' compact refs leave out (analysis/entity-refs.ts). */
export interface AnalysisEntityNamesTable {
  analysis_id: string;
  key: string;
  name: string;
}
