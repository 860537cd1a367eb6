import { sql, type Kysely } from 'kysely';

/** Projects, their imports and campaigns, search-query reports, import previews and API connections. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Case-folded name for search and sorting, made in JS: the database may run with the C locale,
    // where lower() leaves Cyrillic untouched.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('yandex_direct', 'google_ads', 'vk_ads')`))
    .addColumn('region', 'text')
    .addColumn('target_cpa', 'double precision', (c) => c.check(sql`target_cpa > 0`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('author_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  // Lists read the live projects of one organization.
  await sql`CREATE INDEX projects_organization_live_idx ON projects (organization_id, updated_at DESC) WHERE deleted_at IS NULL`.execute(db);

  await db.schema
    .createTable('project_imports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('files', 'direct_api')`))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('create', 'replace', 'append')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('completed').check(sql`status in ('completed', 'failed')`))
    .addColumn('file_names', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('counts', 'jsonb', (c) => c.notNull())
    .addColumn('problems', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('detected', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('period', 'jsonb')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('project_imports_project_idx').on('project_imports').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('import_id', 'uuid', (c) => c.notNull().references('project_imports.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('groups_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('keywords_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('negative_keywords_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats', 'jsonb')
    .addColumn('groups_summary', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('campaigns_project_idx').on('campaigns').columns(['project_id', 'position']).execute();

  await db.schema
    .createTable('project_search_queries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('import_id', 'uuid', (c) => c.notNull().references('project_imports.id').onDelete('cascade'))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('rows_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('period', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('project_search_queries_project_idx').on('project_search_queries').column('project_id').execute();

  await db.schema
    .createTable('import_drafts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('files', 'direct_api')`))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('counts', 'jsonb', (c) => c.notNull())
    .addColumn('problems', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('detected', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('file_names', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('connection', 'jsonb')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('import_drafts_expires_idx').on('import_drafts').column('expires_at').execute();

  await db.schema
    .createTable('project_connections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('yandex_direct', 'google_ads', 'vk_ads')`))
    .addColumn('encrypted_token', 'text', (c) => c.notNull())
    .addColumn('client_login', 'text')
    .addColumn('sandbox', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('project_connections_project_platform_key', ['project_id', 'platform'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['project_connections', 'import_drafts', 'project_search_queries', 'campaigns', 'project_imports', 'projects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
