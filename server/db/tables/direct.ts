import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.js';

/** An OAuth authorization under way (migration 0117): bound to its user, used once, short-lived. */
export interface DirectOAuthStatesTable {
  state_hash: string;
  user_id: string;
  organization_id: string;
  sealed_verifier: string;
  expires_at: Timestamp;
  created_at: Generated<Date>;
}

/** A Yandex Direct account connected by OAuth; its tokens sealed (secret-box, context `yandex-oauth-token`). */
export interface DirectConnectionsTable {
  id: Generated<string>;
  organization_id: string;
  connected_by: string | null;
  login: string;
  sealed_access_token: string;
  sealed_refresh_token: string | null;
  expires_at: Timestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type AgencyClientImportStatus = 'waiting' | 'importing' | 'completed' | 'failed';

/** One agency client's turn in a many-clients import (migration 0156): waits, imports through a job, ends with a project or an error. */
export interface AgencyClientImportsTable {
  id: Generated<string>;
  organization_id: string;
  user_id: string;
  direct_connection_id: string;
  client_login: string;
  client_name: string;
  status: ColumnType<AgencyClientImportStatus, AgencyClientImportStatus | undefined, AgencyClientImportStatus>;
  import_job_id: string | null;
  project_id: string | null;
  /** True when the client's project existed and was read again instead of created. */
  refreshed: ColumnType<boolean, boolean | undefined, boolean>;
  units_spent: number | null;
  error: string | null;
  error_code: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface DirectTables {
  agency_client_imports: AgencyClientImportsTable;
  direct_oauth_states: DirectOAuthStatesTable;
  direct_connections: DirectConnectionsTable;
}
