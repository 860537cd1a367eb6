import { sql, type Kysely } from 'kysely';

/**
 * What changed between an audit and the one before it, counted (issue 23, «Что изменилось» and the agency
 * board): written when an audit completes (server/monitoring/audit-changes.ts), so the board reads every
 * project of an organization in one query instead of comparing 200 pairs of audits on each visit.
 * Deleting either audit deletes the row. `completed_idx` serves «the last completed audits of a project».
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE audit_change_counts (
      analysis_id uuid PRIMARY KEY REFERENCES analyses(id) ON DELETE CASCADE,
      previous_analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      new_count integer NOT NULL,
      fixed_count integer NOT NULL,
      worse_count integer NOT NULL,
      better_count integer NOT NULL,
      open_count integer NOT NULL,
      new_money_per_month double precision NOT NULL,
      computed_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX audit_change_counts_previous_idx ON audit_change_counts (previous_analysis_id)`.execute(db);
  await sql`CREATE INDEX analyses_project_completed_idx ON analyses (project_id, created_at DESC) WHERE status = 'completed'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS analyses_project_completed_idx`.execute(db);
  await sql`DROP TABLE IF EXISTS audit_change_counts`.execute(db);
}
