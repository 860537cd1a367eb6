import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AdPlatform, Stats } from '../../../contract/campaigns.js';
import type { GroupSummary } from '../../../contract/projects.js';
import type { CreatedAt, Json, Timestamp } from './columns.js';

/** json or jsonb written as an already-serialised string (big payloads are stringified off the event loop). */

export type ImportSource = 'files' | 'direct_api';
export type ImportMode = 'create' | 'replace' | 'append';

/** Counts of one import, as `countCampaignData` gives them. */
export interface StoredCounts {
  campaigns: number;
  groups: number;
  ads: number;
  keywords: number;
  searchQueries: number;
}

export interface ProjectsTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  /** `nameKey(name)`: lower case, ё as е; what search and sort compare. */
  name_key: string;
  /** Normalised by `normalizeSiteUrl`. */
  site_url: string;
  platform: AdPlatform;
  region: string | null;
  target_cpa: number | null;
  /** Analysis thresholds (ProjectSettings), only the ones the user changed. */
  settings: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  /** IANA zone of schedules, quiet hours and the morning digest (migration 0130). */
  time_zone: ColumnType<string, string | undefined, string>;
  author_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ProjectImportsTable {
  id: Generated<string>;
  project_id: string;
  source: ImportSource;
  mode: ImportMode;
  status: 'completed' | 'failed';
  file_names: Json<string[]>;
  counts: Json<StoredCounts>;
  problems: Json<unknown[]>;
  detected: Json<unknown[]>;
  /** Statistics period of the import (CampaignData.period). */
  period: Json<{ from: string; to: string } | null>;
  created_by: string | null;
  created_at: CreatedAt;
}

/** One campaign; `data` is the whole `Campaign` of the model, so a big account stays a few hundred rows. */
export interface CampaignsTable {
  id: Generated<string>;
  project_id: string;
  import_id: string;
  position: number;
  external_id: string | null;
  name: string;
  type: string | null;
  groups_count: number;
  ads_count: number;
  keywords_count: number;
  negative_keywords_count: number;
  stats: Json<Record<string, number> | null>;
  /** Names and counts of the groups, kept beside `data` so the tree never reads the big document. */
  groups_summary: Json<unknown[]>;
  data: Json<unknown>;
  created_at: CreatedAt;
}

export interface ProjectSearchQueriesTable {
  id: Generated<string>;
  project_id: string;
  import_id: string;
  /** Orders the chunks of one import. */
  position: ColumnType<number, number | undefined, number>;
  /** A chunk of the import's SearchQuery[] (at most `SEARCH_QUERY_CHUNK` of them), never the whole report. */
  data: Json<unknown[]>;
  rows_count: number;
  period: Json<{ from: string; to: string } | null>;
  created_at: CreatedAt;
}

/** An import parsed and shown to the user but not saved yet (preview before save). */
export interface ImportDraftsTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  source: ImportSource;
  /** False while the import thread is still writing the draft's rows: such a draft cannot be saved. */
  ready: ColumnType<boolean, boolean | undefined, boolean>;
  /** CampaignData.period; the campaigns and queries are rows of import_draft_campaigns / import_draft_search_queries. */
  period: Json<{ from: string; to: string } | null>;
  counts: Json<StoredCounts>;
  problems: Json<unknown[]>;
  detected: Json<unknown[]>;
  file_names: Json<string[]>;
  /** Direct API access, the token sealed with secret-box; copied to project_connections on save. */
  connection: Json<{ encrypted_token: string; client_login: string | null; sandbox: boolean; direct_connection_id?: string | null } | null>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  created_at: CreatedAt;
}

/**
 * What a campaign's project row carries beside its document (computed by projects/campaign-row.ts): the plain
 * columns as the table types them; the two json ones with the types the import thread gives them.
 */
export type CampaignRowSummary = Pick<CampaignsTable, 'external_id' | 'name' | 'type' | 'groups_count' | 'ads_count' | 'keywords_count' | 'negative_keywords_count'> & {
  /** The campaign's statistics; without them, the sum of its keywords' (else of its ads'); null when none has any. */
  stats: Stats | null;
  groups_summary: GroupSummary[];
};

/** One campaign of a preview (its `Campaign` document). */
export interface ImportDraftCampaignsTable {
  draft_id: string;
  position: number;
  data: Json<unknown>;
  /** What the campaign's project row will carry beside the document (projects/campaign-row.ts). */
  summary: Json<CampaignRowSummary>;
}

/** A chunk of a preview's search queries (a SearchQuery[] of at most `SEARCH_QUERY_CHUNK`). */
export interface ImportDraftSearchQueriesTable {
  draft_id: string;
  position: number;
  data: Json<unknown[]>;
  rows_count: number;
}

export interface ProjectConnectionsTable {
  id: Generated<string>;
  project_id: string;
  platform: AdPlatform;
  /** Sealed with server/lib/secret-box.ts; never sent to a client. */
  encrypted_token: string;
  client_login: string | null;
  sandbox: boolean;
  /** The OAuth connection the project reads with (its token renewed there); null: the pasted token above. */
  direct_connection_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Tables of projects, campaigns and imports (filled by the projects domain). */
export interface ProjectTables {
  projects: ProjectsTable;
  project_imports: ProjectImportsTable;
  campaigns: CampaignsTable;
  project_search_queries: ProjectSearchQueriesTable;
  import_drafts: ImportDraftsTable;
  import_draft_campaigns: ImportDraftCampaignsTable;
  import_draft_search_queries: ImportDraftSearchQueriesTable;
  project_connections: ProjectConnectionsTable;
}
