import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from './columns.js';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type PlatformRole = 'user' | 'admin';
export type OrganizationRole = 'owner' | 'admin' | 'member';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: ColumnType<PlatformRole, PlatformRole | undefined, PlatformRole>;
  is_verified: ColumnType<boolean, boolean | undefined, boolean>;
  /** Organization the next login lands in. */
  last_organization_id: string | null;
  /** Set by a platform admin: the user cannot log in or refresh, and every session was revoked. */
  blocked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  plan_type: ColumnType<string, string | undefined, string>;
  invitation_code: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MembershipsTable {
  user_id: string;
  organization_id: string;
  role: OrganizationRole;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  /** All tokens issued from one login share a family; reuse of a rotated token revokes the family. */
  family_id: string;
  user_id: string;
  organization_id: string;
  token_hash: string;
  expires_at: Timestamp;
  /** Absolute end of the family, carried over on rotation. */
  family_expires_at: Timestamp;
  rotated_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /**
   * On a retired token: the refresh token its rotation issued, sealed with the secret box (context
   * bound to this row's hash), for answers within the reuse grace window. Cleared once the window is over.
   */
  successor_sealed: string | null;
  created_at: CreatedAt;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: EmailTokenPurpose;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TokenBalancesTable {
  user_id: string;
  balance: ColumnType<number, number | undefined, number>;
  /** The part of the balance that is the welcome credit: spent, never transferred. */
  welcome: ColumnType<number, number | undefined, number>;
  /** The part owners gave (`token_grants` by giver): only its giver may move it back. */
  granted: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type LedgerEntryType = 'welcome' | 'admin_credit' | 'analysis_debit' | 'analysis_refund' | 'adjustment' | 'purchase' | 'purchase_refund' | 'transfer_in' | 'transfer_out';

export interface TokenLedgerTable {
  id: Generated<string>;
  user_id: string;
  /** Organization the operation happened in (null for platform-level credits). */
  organization_id: string | null;
  type: LedgerEntryType;
  /** Signed: credits are positive, debits negative. */
  amount: number;
  balance_after: number;
  /** Unique per user: a retried operation finds its first entry instead of applying twice. */
  idempotency_key: string;
  /** SHA-256 of the request behind a keyed admin credit (server/lib/idempotency.ts); null elsewhere. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  reason: string | null;
  /** What the entry pays for, e.g. an analysis id. */
  reference_id: string | null;
  created_by: string | null;
  /** The entry's signed parts that were not the user's own tokens (server/tokens/ledger.ts); null: all own. */
  sources: ColumnType<LedgerSources | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

/** Signed parts of a ledger entry by source: the welcome credit, and what each giver (by user id) granted. */
export interface LedgerSources {
  welcome?: number;
  granted?: Record<string, number>;
}

export interface TokenGrantsTable {
  user_id: string;
  granted_by: string;
  amount: number;
}

export interface AuditLogTable {
  id: Generated<string>;
  actor_user_id: string | null;
  action: string;
  target_user_id: string | null;
  organization_id: string | null;
  payload: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: Timestamp;
}

export interface CoreTables {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  token_balances: TokenBalancesTable;
  token_ledger: TokenLedgerTable;
  token_grants: TokenGrantsTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
}
