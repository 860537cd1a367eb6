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

export interface DirectTables {
  direct_oauth_states: DirectOAuthStatesTable;
  direct_connections: DirectConnectionsTable;
}
