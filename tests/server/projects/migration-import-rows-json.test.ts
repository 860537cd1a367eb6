import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../contract/campaigns.js';
import { migrateToLatest } from '../../../server/db/database.js';
import { campaignRowSummary } from '../../../server/projects/campaign-row.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, sampleCampaignData } from './helpers.js';

const stats = (impressions: number, clicks: number, cost: number, conversions: number) => ({ impressions, clicks, cost, conversions });

/** Campaigns that take each branch of the summary: own statistics, the keywords', the ads', none. */
function campaignsOfEveryKind(): Campaign[] {
  const [search, network] = sampleCampaignData().campaigns;
  const adsOnly: Campaign = {
    name: 'Только объявления',
    negativeKeywords: [],
    groups: [
      {
        name: 'Группа',
        negativeKeywords: ['минус'],
        keywords: [{ phrase: 'фраза', negativeWords: [], matchType: 'broad' }],
        ads: [
          { kind: 'text', headlines: ['А'], texts: [], sitelinks: [], callouts: [], stats: stats(10, 1, 0.1, 0) },
          { kind: 'text', headlines: ['Б'], texts: [], sitelinks: [], callouts: [], stats: stats(20, 2, 0.2, 1) },
        ],
      },
    ],
  } as Campaign;
  const empty: Campaign = { name: 'Пустая', negativeKeywords: [], groups: [] };
  return [search!, network!, adsOnly, empty];
}

/** Migration 0109: campaign documents and query chunks become json; a stored draft gets its campaigns' summaries. */
describe('migration 0109_import_rows_json', () => {
  let t: TestApp;
  let user: FixtureUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app);
  });
  afterAll(async () => t.close());

  it('gives a stored draft the summaries the import thread computes now, and the draft still saves', async () => {
    const project = await createProject(t.app, user.token);
    const campaigns = campaignsOfEveryKind();

    await migrateToJustBefore(t.app.db, '0109_import_rows_json');
    const draft = await sql<{ id: string }>`
      INSERT INTO import_drafts (organization_id, user_id, source, counts, file_names, period, expires_at)
      VALUES (${user.organizationId}, ${user.id}, 'files', ${JSON.stringify({ campaigns: 4, groups: 4, ads: 4, keywords: 4, searchQueries: 1 })}::jsonb,
              '["old.csv"]'::jsonb, '{"from":"2025-01-01","to":"2025-01-31"}'::jsonb, now() + interval '1 hour')
      RETURNING id`.execute(t.app.db);
    const draftId = draft.rows[0]!.id;
    for (const [position, campaign] of campaigns.entries()) {
      await sql`INSERT INTO import_draft_campaigns (draft_id, position, data) VALUES (${draftId}, ${position}, ${JSON.stringify(campaign)}::jsonb)`.execute(t.app.db);
    }
    await sql`INSERT INTO import_draft_search_queries (draft_id, position, data, rows_count) VALUES (${draftId}, 0, ${JSON.stringify(sampleCampaignData().searchQueries)}::jsonb, 1)`.execute(t.app.db);

    await migrateToLatest(t.app.db);

    const rows = await t.app.db.selectFrom('import_draft_campaigns').select(['summary', 'data']).where('draft_id', '=', draftId).orderBy('position').execute();
    expect(rows.map((row) => row.summary)).toEqual(campaigns.map((campaign) => campaignRowSummary(campaign)));
    expect(rows.map((row) => row.data)).toEqual(campaigns);
    const types = await sql<{ table_name: string; data_type: string }>`
      SELECT table_name, data_type FROM information_schema.columns
       WHERE column_name = 'data' AND table_name IN ('import_draft_campaigns', 'import_draft_search_queries', 'campaigns', 'project_search_queries')`.execute(t.app.db);
    expect(new Set(types.rows.map((row) => row.data_type))).toEqual(new Set(['json']));

    const saved = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: draftId, mode: 'replace' } });
    expect(saved.status).toBe(201);
    expect(saved.body.counts).toEqual({ campaigns: 4, groups: 4, ads: 4, keywords: 4 });
    expect(saved.body.search_queries).toBe(1);
    const tree = saved.body.campaigns as { name: string; stats: unknown; groups: unknown[] }[];
    // Own statistics; the keywords' sum; the ads' sum (0.1 + 0.2 as float8 adds it); none.
    expect(tree.map((campaign) => campaign.stats)).toEqual([stats(1400, 60, 3200, 2), stats(5000, 20, 300, 1), stats(30, 3, 0.1 + 0.2, 1), null]);
    expect(tree[0]!.groups).toEqual([
      { name: 'Пластиковые окна', external_id: '2001', ads: 1, keywords: 2, negative_keywords: 1 },
      { name: 'Окна на дачу', external_id: null, ads: 0, keywords: 1, negative_keywords: 0 },
    ]);
  });
});
