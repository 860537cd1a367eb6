/**
 * The expert's upload end to end: a Direct export and the Reports API search-query TSV go through the
 * import preview into a project, and the queries are what the audit reads (project_search_queries, the
 * worker's input) — the audit no longer says there is no query report.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProjectSettings } from '../../../contract/projects.js';
import { campaignDataOf, runAudit } from '../../../server/analysis/run-audit.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { upload } from './helpers.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/imports');
const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';

/** 12 queries, money in micros, `--` for no conversions, the title and totals lines of the API. */
const reportTsv = [
  '"SEARCH_QUERY_PERFORMANCE_REPORT (2026-10-01 - 2026-10-31)"',
  'CampaignName\tCampaignId\tAdGroupName\tCriteria\tQuery\tImpressions\tClicks\tCost\tConversions',
  ...Array.from({ length: 12 }, (_, index) =>
    [CAMPAIGN, '51234567', 'Угловые диваны', 'купить угловой диван', `угловой диван вариант ${index + 1}`, '100', '10', String((index + 1) * 100_000_000), index % 3 === 0 ? '1' : '--'].join('\t'),
  ),
  'Total rows: 12',
].join('\n');

let t: TestApp;
let user: FixtureUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.app);
});
afterAll(() => t.close());

describe('a Reports API search-query report uploaded with the export', () => {
  it('reaches the project and the audit’s input with all 12 queries in roubles', async () => {
    const preview = await upload(t.app, '/api/v1/projects/import-preview', user.token, [
      { name: 'direct.tsv', content: new Uint8Array(readFileSync(join(fixtures, 'direct-export-utf8.tsv'))) },
      { name: 'report.tsv', content: reportTsv, type: 'text/tab-separated-values' },
    ], { platform: 'yandex_direct' });
    expect(preview.status).toBe(200);
    expect(preview.body.counts.searchQueries).toBe(12);
    expect(preview.body.problems).toEqual([]);

    const created = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Диваны Комфорт', site_url: 'divany-komfort.example', platform: 'yandex_direct', draft_id: preview.body.draft_id },
    });
    expect(created.status).toBe(201);
    expect(created.body.search_queries).toBe(12);

    // What the analysis worker loads for the run (worker.ts loadAuditInput): the campaigns and the query reports.
    const db = t.database.db;
    const queries = await db.selectFrom('project_search_queries').select('data').where('project_id', '=', created.body.id).execute();
    const campaigns = await db.selectFrom('campaigns').select('data').where('project_id', '=', created.body.id).orderBy('position').execute();
    const data = campaignDataOf({
      platform: 'yandex_direct',
      period: { from: '2026-10-01', to: '2026-10-31' },
      campaigns: campaigns.map((row) => JSON.stringify(row.data)),
      searchQueries: queries.map((row) => JSON.stringify(row.data)),
    });
    expect(data.searchQueries).toHaveLength(12);
    expect(data.searchQueries[11]).toEqual({
      query: 'угловой диван вариант 12',
      campaignName: CAMPAIGN,
      groupName: 'Угловые диваны',
      keyword: 'купить угловой диван',
      stats: { impressions: 100, clicks: 10, cost: 1200, conversions: 0 },
    });

    const result = await runAudit({ data, settings: defaultProjectSettings, targetCpa: null });
    expect(result.scoring.counts.searchQueries).toBe(12);
    expect(JSON.stringify(result)).not.toContain('NO_SEARCH_QUERIES');
  });
});
