import { sql, type Kysely } from 'kysely';

/**
 * Changes applied to a Yandex Direct account through its API (issue 24): a change set built from an audit's
 * accepted suggestions, its items (one Direct object each: a campaign's or a group's negative list, a
 * keyword's text, an ad's texts) and the journal of every write (apply or undo) with the value it replaced,
 * who and when. An item's status and its journal row are written in one transaction.
 *
 * `organizations.apply_changes_role`: the lowest role allowed to apply and undo (owner only by default).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE organizations ADD COLUMN apply_changes_role text NOT NULL DEFAULT 'owner' CHECK (apply_changes_role IN ('owner', 'admin', 'member'))`.execute(db);
  await sql`
    CREATE TABLE change_sets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      analysis_id uuid NOT NULL REFERENCES analyses(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'preview' CHECK (status IN ('preview', 'applying', 'applied', 'partly_applied', 'failed', 'undoing')),
      job_id uuid,
      job_data jsonb,
      units_estimate integer NOT NULL DEFAULT 0,
      units_spent integer NOT NULL DEFAULT 0,
      skipped jsonb NOT NULL DEFAULT '[]',
      applied_by uuid REFERENCES users(id) ON DELETE SET NULL,
      applied_at timestamptz,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX change_sets_project ON change_sets (project_id, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE change_items (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      change_set_id uuid NOT NULL REFERENCES change_sets(id) ON DELETE CASCADE,
      position integer NOT NULL,
      kind text NOT NULL CHECK (kind IN ('campaign_negatives', 'group_negatives', 'keyword_phrase', 'keyword_state', 'ad_texts')),
      object_id bigint NOT NULL,
      label text NOT NULL,
      suggestion_ids text[] NOT NULL,
      change jsonb NOT NULL,
      preview_before jsonb NOT NULL,
      preview_after jsonb NOT NULL,
      warning text,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'failed', 'undone', 'undo_refused', 'undo_failed')),
      replaced jsonb,
      written jsonb,
      message text,
      applied_at timestamptz,
      undone_at timestamptz,
      UNIQUE (change_set_id, position)
    )`.execute(db);
  await sql`
    CREATE TABLE change_journal (
      id bigserial PRIMARY KEY,
      change_set_id uuid NOT NULL REFERENCES change_sets(id) ON DELETE CASCADE,
      item_id uuid NOT NULL REFERENCES change_items(id) ON DELETE CASCADE,
      action text NOT NULL CHECK (action IN ('apply', 'undo')),
      outcome text NOT NULL CHECK (outcome IN ('done', 'failed', 'refused')),
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      replaced jsonb,
      written jsonb,
      message text,
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX change_journal_set ON change_journal (change_set_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS change_journal`.execute(db);
  await sql`DROP TABLE IF EXISTS change_items`.execute(db);
  await sql`DROP TABLE IF EXISTS change_sets`.execute(db);
  await sql`ALTER TABLE organizations DROP COLUMN IF EXISTS apply_changes_role`.execute(db);
}
