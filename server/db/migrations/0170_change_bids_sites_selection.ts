import { sql, type Kysely } from 'kysely';

/**
 * Change sets, continued (issue 24): two more kinds of item (a keyword's bids under a manual strategy,
 * `keywordbids.set`; a campaign's excluded network sites, `campaigns.update ExcludedSites`), an item the
 * person leaves out of a preview (`selected`: never written, not counted), and the apply job's heartbeat,
 * so a set whose job was lost does not stay «Применяется» for ever (server/changes/recovery.ts).
 */
const KINDS_BEFORE = `'campaign_negatives', 'group_negatives', 'keyword_phrase', 'keyword_state', 'ad_texts'`;
const KINDS = `'campaign_negatives', 'campaign_excluded_sites', 'group_negatives', 'keyword_phrase', 'keyword_state', 'keyword_bids', 'ad_texts'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE change_items DROP CONSTRAINT IF EXISTS change_items_kind_check`.execute(db);
  await sql`ALTER TABLE change_items ADD CONSTRAINT change_items_kind_check CHECK (kind IN (${sql.raw(KINDS)}))`.execute(db);
  await sql`ALTER TABLE change_items ADD COLUMN selected boolean NOT NULL DEFAULT true`.execute(db);
  await sql`ALTER TABLE change_sets ADD COLUMN heartbeat_at timestamptz`.execute(db);
  await sql`CREATE INDEX change_sets_running ON change_sets (status) WHERE status IN ('applying', 'undoing')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS change_sets_running`.execute(db);
  await sql`ALTER TABLE change_sets DROP COLUMN IF EXISTS heartbeat_at`.execute(db);
  await sql`ALTER TABLE change_items DROP COLUMN IF EXISTS selected`.execute(db);
  await sql`DELETE FROM change_items WHERE kind NOT IN (${sql.raw(KINDS_BEFORE)})`.execute(db);
  await sql`ALTER TABLE change_items DROP CONSTRAINT IF EXISTS change_items_kind_check`.execute(db);
  await sql`ALTER TABLE change_items ADD CONSTRAINT change_items_kind_check CHECK (kind IN (${sql.raw(KINDS_BEFORE)}))`.execute(db);
}
