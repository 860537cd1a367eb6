import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../server/db/database.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, sampleCampaignData } from './helpers.js';

/** Migration 0075: drafts stored as one document and reports stored as one array become rows and chunks. */
describe('migration 0075_import_draft_rows', () => {
  let t: TestApp;
  let user: FixtureUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app);
  });
  afterAll(async () => t.close());

  it('splits an old draft into campaign rows and query chunks, and an old report into chunks', async () => {
    const project = await createProject(t.app, user.token);
    const queries = Array.from({ length: 25_000 }, (_, i) => ({ query: `окна ${i}`, stats: { impressions: 10, clicks: 1, cost: 5, conversions: 0 } }));
    const data = { ...sampleCampaignData(), searchQueries: queries };

    await migrateToJustBefore(t.app.db, '0075_import_draft_rows');
    const draft = await sql<{ id: string }>`
      INSERT INTO import_drafts (organization_id, user_id, source, data, counts, file_names, expires_at)
      VALUES (${user.organizationId}, ${user.id}, 'files', ${JSON.stringify(data)}::jsonb,
              ${JSON.stringify({ campaigns: 2, groups: 3, ads: 2, keywords: 3, searchQueries: 25_000 })}::jsonb, '["old.csv"]'::jsonb, now() + interval '1 hour')
      RETURNING id`.execute(t.app.db);
    const oldImport = await sql<{ id: string }>`
      INSERT INTO project_imports (project_id, source, mode, status, file_names, counts, problems, detected)
      VALUES (${project.id}, 'files', 'create', 'completed', '[]', '{}', '[]', '[]') RETURNING id`.execute(t.app.db);
    await sql`
      INSERT INTO project_search_queries (project_id, import_id, data, rows_count)
      VALUES (${project.id}, ${oldImport.rows[0]!.id}, ${JSON.stringify(queries)}::jsonb, 25000)`.execute(t.app.db);

    await migrateToLatest(t.app.db);

    const chunks = await t.app.db.selectFrom('project_search_queries').select(['position', 'rows_count', 'data']).where('project_id', '=', project.id).orderBy('position').execute();
    expect(chunks.map((c) => [c.position, c.rows_count])).toEqual([[0, 10_000], [1, 10_000], [2, 5_000]]);
    expect(chunks.flatMap((c) => c.data as { query: string }[]).map((q) => q.query)).toEqual(queries.map((q) => q.query));

    const draftId = draft.rows[0]!.id;
    const draftChunks = await t.app.db.selectFrom('import_draft_search_queries').select('rows_count').where('draft_id', '=', draftId).orderBy('position').execute();
    expect(draftChunks.map((c) => c.rows_count)).toEqual([10_000, 10_000, 5_000]);
    // The old preview still saves, with its period, campaigns and queries.
    const saved = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: draftId, mode: 'replace' } });
    expect(saved.status).toBe(201);
    expect(saved.body.counts).toEqual({ campaigns: 2, groups: 3, ads: 2, keywords: 3 });
    expect(saved.body.search_queries).toBe(25_000);
    expect(saved.body.period).toEqual({ from: '2025-01-01', to: '2025-01-31' });
  });
});
