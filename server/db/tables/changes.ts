import type { ColumnType, Generated } from 'kysely';
import type { ChangeKind, ChangeSetStatus, ChangeItemStatus, DirectValues, PlannedChange, SkippedSuggestion } from '../../../contract/changes.js';

type Timestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;

/** A change set (migration 0140): an audit's accepted suggestions as writes to the Direct account. */
export interface ChangeSetsTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  analysis_id: string;
  created_by: string | null;
  status: ColumnType<ChangeSetStatus, ChangeSetStatus | undefined, ChangeSetStatus>;
  job_id: string | null;
  /** What the running job does: apply the pending items, or undo these items (with who asked). */
  job_data: ColumnType<{ action: 'apply' | 'undo'; userId: string; itemIds?: string[] } | null, string | null | undefined, string | null>;
  units_estimate: ColumnType<number, number | undefined, number>;
  units_spent: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<SkippedSuggestion[], string | undefined, string>;
  applied_by: string | null;
  applied_at: Timestamp;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Written by the apply job at its start and after every batch (migration 0170): a set running without one for long has lost its job. */
  heartbeat_at: Timestamp;
}

/** One Direct object a change set writes, with what the preview read and what the apply replaced and wrote. */
export interface ChangeItemsTable {
  id: Generated<string>;
  change_set_id: string;
  position: number;
  kind: ChangeKind;
  object_id: ColumnType<string, string | number, string | number>;
  label: string;
  suggestion_ids: string[];
  change: Json<PlannedChange>;
  preview_before: Json<DirectValues>;
  preview_after: Json<DirectValues>;
  warning: string | null;
  status: ColumnType<ChangeItemStatus, ChangeItemStatus | undefined, ChangeItemStatus>;
  replaced: ColumnType<DirectValues | null, string | null | undefined, string | null>;
  written: ColumnType<DirectValues | null, string | null | undefined, string | null>;
  message: string | null;
  applied_at: Timestamp;
  undone_at: Timestamp;
  /** Kept in the preview (migration 0170); an item left out is never written. */
  selected: Generated<boolean>;
}

export interface ChangeJournalTable {
  id: Generated<string>;
  change_set_id: string;
  item_id: string;
  action: 'apply' | 'undo';
  outcome: 'done' | 'failed' | 'refused';
  user_id: string | null;
  replaced: ColumnType<DirectValues | null, string | null | undefined, never>;
  written: ColumnType<DirectValues | null, string | null | undefined, never>;
  message: string | null;
  at: Generated<Date>;
}

export interface ChangeTables {
  change_sets: ChangeSetsTable;
  change_items: ChangeItemsTable;
  change_journal: ChangeJournalTable;
}
