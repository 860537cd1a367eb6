import { sql, type Kysely } from 'kysely';

/**
 * Campaign documents and search-query chunks, of previews and of projects, become `json` (validated text)
 * instead of `jsonb`, as the result documents did in 0100. They are written once per import and only ever
 * read whole (`data::text` by the audit and the export, the document of one campaign), never searched
 * inside. Building jsonb's binary form was most of what PostgreSQL spent on an import: at 100 000 keywords
 * ≈ 30 MB of documents took ~2.3 s of backend time to write into the draft and ~0.7 s more to read back
 * for the campaign counts on save (`BENCH_E2E_IMPORT_ONLY=1 npm run bench -- end-to-end`).
 *
 * The counts and summaries a project's campaign row carries are now computed by the import thread
 * (projects/campaign-row.ts) and kept with the draft's campaign in `summary`; saving a preview copies them.
 * Drafts stored before this migration get theirs computed here, by the SQL that saving used to run.
 *
 * Stored projects and drafts are converted in place (each table rewritten once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE import_draft_campaigns ADD COLUMN summary jsonb`.execute(db);
  await sql`
    UPDATE import_draft_campaigns dc SET summary = jsonb_build_object(
      'external_id', c.doc ->> 'externalId',
      'name', coalesce(c.doc ->> 'name', ''),
      'type', c.doc ->> 'type',
      'groups_count', jsonb_array_length(c.groups),
      'ads_count', (SELECT coalesce(sum(jsonb_array_length(coalesce(g -> 'ads', '[]'))), 0) FROM jsonb_array_elements(c.groups) g),
      'keywords_count', (SELECT coalesce(sum(jsonb_array_length(coalesce(g -> 'keywords', '[]'))), 0) FROM jsonb_array_elements(c.groups) g),
      'negative_keywords_count', jsonb_array_length(coalesce(c.doc -> 'negativeKeywords', '[]')),
      'stats', coalesce(nullif(c.doc -> 'stats', 'null'::jsonb),
        (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE jsonb_build_object(
                  'impressions', coalesce(sum((k -> 'stats' ->> 'impressions')::float8), 0),
                  'clicks', coalesce(sum((k -> 'stats' ->> 'clicks')::float8), 0),
                  'cost', coalesce(sum((k -> 'stats' ->> 'cost')::float8), 0),
                  'conversions', coalesce(sum((k -> 'stats' ->> 'conversions')::float8), 0)) END
           FROM jsonb_array_elements(c.groups) g, jsonb_array_elements(coalesce(g -> 'keywords', '[]')) k
          WHERE jsonb_typeof(k -> 'stats') = 'object'),
        (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE jsonb_build_object(
                  'impressions', coalesce(sum((a -> 'stats' ->> 'impressions')::float8), 0),
                  'clicks', coalesce(sum((a -> 'stats' ->> 'clicks')::float8), 0),
                  'cost', coalesce(sum((a -> 'stats' ->> 'cost')::float8), 0),
                  'conversions', coalesce(sum((a -> 'stats' ->> 'conversions')::float8), 0)) END
           FROM jsonb_array_elements(c.groups) g, jsonb_array_elements(coalesce(g -> 'ads', '[]')) a
          WHERE jsonb_typeof(a -> 'stats') = 'object'),
        'null'::jsonb),
      'groups_summary', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                'name', coalesce(g.doc ->> 'name', ''),
                'external_id', g.doc ->> 'externalId',
                'ads', jsonb_array_length(coalesce(g.doc -> 'ads', '[]')),
                'keywords', jsonb_array_length(coalesce(g.doc -> 'keywords', '[]')),
                'negative_keywords', jsonb_array_length(coalesce(g.doc -> 'negativeKeywords', '[]'))) ORDER BY g.ord), '[]')
         FROM jsonb_array_elements(c.groups) WITH ORDINALITY g(doc, ord)))
      FROM (SELECT draft_id, position, data AS doc, coalesce(data -> 'groups', '[]') AS groups FROM import_draft_campaigns) c
     WHERE dc.draft_id = c.draft_id AND dc.position = c.position`.execute(db);
  await sql`ALTER TABLE import_draft_campaigns ALTER COLUMN summary SET NOT NULL`.execute(db);
  for (const table of ['import_draft_campaigns', 'import_draft_search_queries', 'campaigns', 'project_search_queries']) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN data TYPE json USING data::json`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['import_draft_campaigns', 'import_draft_search_queries', 'campaigns', 'project_search_queries']) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN data TYPE jsonb USING data::jsonb`.execute(db);
  }
  await sql`ALTER TABLE import_draft_campaigns DROP COLUMN summary`.execute(db);
}
