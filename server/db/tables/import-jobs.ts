import type { ColumnType, Generated } from 'kysely';
import type { ImportJobProgress, ImportJobStatus, ImportPreview } from '../../../contract/projects.js';
import type { Json, NullableTimestamp, Timestamp } from './columns.js';

/** jsonb written as a serialised string. */

/** What a Direct import reads with: the token sealed by secret-box (context `yandex-direct-token`). */
export interface SealedDirectConnection {
  encrypted_token: string;
  client_login: string | null;
  sandbox: boolean;
  /** Set when the account is connected by OAuth (direct_connections): its token is renewed there, not copied. */
  direct_connection_id?: string | null;
}

export interface ImportJobsTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  project_id: string | null;
  source: ColumnType<'direct_api', 'direct_api' | undefined, never>;
  status: ColumnType<ImportJobStatus, ImportJobStatus | undefined, ImportJobStatus>;
  connection: ColumnType<SealedDirectConnection | null, string | undefined, string>;
  progress: Json<ImportJobProgress>;
  preview: ColumnType<ImportPreview | null, string | undefined, string>;
  draft_id: string | null;
  error: string | null;
  error_code: string | null;
  job_id: string | null;
  heartbeat_at: NullableTimestamp;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface ImportJobTables {
  import_jobs: ImportJobsTable;
}
