import { sql, type Kysely } from 'kysely';

/**
 * An import preview as rows instead of one jsonb document, and a project's search-query report in chunks:
 * a 1 000 000-keyword account is ~600 MB of JSON, over PostgreSQL's 256 MB limit for one jsonb value.
 *
 * - `import_draft_campaigns`: one row per campaign of a preview (its `Campaign` document).
 * - `import_draft_search_queries`: the preview's search queries in chunks of at most 10 000 (a jsonb array each).
 * - `import_drafts` keeps only the small part (counts, problems, period, …); `ready` is false while the import
 *   thread is still streaming rows into it, so a half-written draft can never be saved.
 * - `project_search_queries` rows become chunks too (`position` orders the chunks of one import).
 *
 * Existing drafts and reports are split in place.
 */
const CHUNK = 10_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_draft_campaigns')
    .addColumn('draft_id', 'uuid', (c) => c.notNull().references('import_drafts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_draft_campaigns_pkey', ['draft_id', 'position'])
    .execute();
  await db.schema
    .createTable('import_draft_search_queries')
    .addColumn('draft_id', 'uuid', (c) => c.notNull().references('import_drafts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('rows_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_draft_search_queries_pkey', ['draft_id', 'position'])
    .execute();

  await sql`ALTER TABLE import_drafts ADD COLUMN period jsonb, ADD COLUMN ready boolean NOT NULL DEFAULT true`.execute(db);
  await sql`
    INSERT INTO import_draft_campaigns (draft_id, position, data)
    SELECT d.id, e.ord - 1, e.value
      FROM import_drafts d, jsonb_array_elements(coalesce(d.data -> 'campaigns', '[]')) WITH ORDINALITY e(value, ord)`.execute(db);
  await sql`
    INSERT INTO import_draft_search_queries (draft_id, position, data, rows_count)
    SELECT d.id, (e.ord - 1) / ${sql.lit(CHUNK)}, jsonb_agg(e.value ORDER BY e.ord), count(*)
      FROM import_drafts d,
           jsonb_array_elements(CASE WHEN jsonb_typeof(d.data -> 'searchQueries') = 'array' THEN d.data -> 'searchQueries' ELSE '[]' END) WITH ORDINALITY e(value, ord)
     GROUP BY d.id, (e.ord - 1) / ${sql.lit(CHUNK)}`.execute(db);
  await sql`UPDATE import_drafts SET period = nullif(data -> 'period', 'null'::jsonb)`.execute(db);
  await sql`ALTER TABLE import_drafts DROP COLUMN data`.execute(db);

  await sql`ALTER TABLE project_search_queries ADD COLUMN position integer NOT NULL DEFAULT 0`.execute(db);
  await sql`
    INSERT INTO project_search_queries (project_id, import_id, position, data, rows_count, period, created_at)
    SELECT q.project_id, q.import_id, (e.ord - 1) / ${sql.lit(CHUNK)}, jsonb_agg(e.value ORDER BY e.ord), count(*), q.period, q.created_at
      FROM project_search_queries q, jsonb_array_elements(q.data) WITH ORDINALITY e(value, ord)
     WHERE jsonb_array_length(q.data) > ${sql.lit(CHUNK)}
     GROUP BY q.id, (e.ord - 1) / ${sql.lit(CHUNK)}`.execute(db);
  await sql`DELETE FROM project_search_queries WHERE jsonb_array_length(data) > ${sql.lit(CHUNK)}`.execute(db);
  await sql`DROP INDEX IF EXISTS project_search_queries_project_idx`.execute(db);
  await sql`CREATE INDEX project_search_queries_project_idx ON project_search_queries (project_id, created_at, import_id, position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE import_drafts ADD COLUMN data jsonb`.execute(db);
  await sql`
    UPDATE import_drafts d SET data = jsonb_build_object(
      'campaigns', coalesce((SELECT jsonb_agg(c.data ORDER BY c.position) FROM import_draft_campaigns c WHERE c.draft_id = d.id), '[]'),
      'searchQueries', coalesce((SELECT jsonb_agg(e.value ORDER BY q.position, e.ord)
                                   FROM import_draft_search_queries q, jsonb_array_elements(q.data) WITH ORDINALITY e(value, ord)
                                  WHERE q.draft_id = d.id), '[]'),
      'period', coalesce(d.period, 'null'::jsonb))`.execute(db);
  await sql`ALTER TABLE import_drafts ALTER COLUMN data SET NOT NULL, DROP COLUMN period, DROP COLUMN ready`.execute(db);
  await db.schema.dropTable('import_draft_search_queries').execute();
  await db.schema.dropTable('import_draft_campaigns').execute();
  // The report chunks of one import become one row again (marked -1 while the chunks are removed).
  await sql`
    INSERT INTO project_search_queries (project_id, import_id, position, data, rows_count, period, created_at)
    SELECT q.project_id, q.import_id, -1, jsonb_agg(e.value ORDER BY q.position, e.ord), count(*), (array_agg(q.period))[1], min(q.created_at)
      FROM project_search_queries q, jsonb_array_elements(q.data) WITH ORDINALITY e(value, ord)
     WHERE q.import_id IN (SELECT import_id FROM project_search_queries GROUP BY import_id HAVING count(*) > 1)
     GROUP BY q.project_id, q.import_id`.execute(db);
  await sql`DELETE FROM project_search_queries WHERE position >= 0 AND import_id IN (SELECT import_id FROM project_search_queries WHERE position = -1)`.execute(db);
  await sql`ALTER TABLE project_search_queries DROP COLUMN position`.execute(db);
}
