import type { Timestamp } from './columns.js';

/** An audit's changes against the audit before it, counted (migration 0135, server/monitoring/audit-changes.ts). */
export interface AuditChangeCountsTable {
  analysis_id: string;
  previous_analysis_id: string;
  new_count: number;
  fixed_count: number;
  worse_count: number;
  better_count: number;
  open_count: number;
  new_money_per_month: number;
  computed_at: Timestamp;
}

export interface AuditChangeTables {
  audit_change_counts: AuditChangeCountsTable;
}
