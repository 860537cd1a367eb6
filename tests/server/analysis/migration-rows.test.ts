import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../server/db/database.js';
import { convertLegacyResults } from '../../../server/analysis/legacy-results.js';
import { suggestionsOf, summarizeAudit } from '../../../server/analysis/run-audit.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { analysisSampleData, auditOf, projectWithCampaigns } from './helpers.js';

/** Migration 0060: results stored as one blob before it are set aside, the blob columns go, and the server turns them into rows, decisions included. */
describe('migration 0060_analysis_rows converts stored results', () => {
  let t: TestApp;
  let user: FixtureUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app, { balance: 0 });
  });
  afterAll(async () => t.close());

  it('explodes an old result blob into rows with its summary and decisions, and drops the blob', async () => {
    const data = analysisSampleData();
    const project = await projectWithCampaigns(t.app, user, data);
    const result = await auditOf(data);
    const suggestions = suggestionsOf(result);
    expect(suggestions.length).toBeGreaterThan(1);

    // Back to the schema before the rows, and an analysis stored the old way.
    await migrateToJustBefore(t.app.db, '0060_analysis_rows');
    const id = randomUUID();
    await sql`
      INSERT INTO analyses (id, organization_id, project_id, created_by, status, stage, progress, options, cost, idempotency_key, score, summary, result, decisions, finished_at)
      VALUES (${id}, ${user.organizationId}, ${project.projectId}, ${user.id}, 'completed', 'done', 100,
              ${JSON.stringify({ campaign_ids: project.campaignIds, settings: {}, target_cpa: null })}::jsonb, 0, ${randomUUID()},
              ${Math.round(result.scoring.account.score)}, ${JSON.stringify(summarizeAudit(result))}::jsonb, ${JSON.stringify(result)}::jsonb,
              ${JSON.stringify({ accepted: [suggestions[0]!.id], rejected: [suggestions[1]!.id, 'gone-suggestion'] })}::jsonb, now())`.execute(t.app.db);

    await migrateToLatest(t.app.db);
    // What `npm start` does once the schema is up to date.
    expect(await convertLegacyResults(t.app.db)).toBe(1);
    expect(await convertLegacyResults(t.app.db)).toBe(0);

    const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'analyses'`.execute(t.app.db);
    expect(columns.rows.map((c) => c.column_name)).not.toContain('result');
    expect(columns.rows.map((c) => c.column_name)).not.toContain('decisions');

    const results = await call(t.app, 'GET', `/api/v1/analyses/${id}/results`, { token: user.token });
    expect(results.status).toBe(200);
    expect(results.body.summary.findingsTotal).toBe(result.scoring.findings.length);
    expect(results.body.findings.total).toBe(result.scoring.findings.length);
    expect(results.body.decisions).toMatchObject({ accepted: 1, rejected: 1 });
    const page = await call(t.app, 'GET', `/api/v1/analyses/${id}/suggestions?page_size=500`, { token: user.token });
    expect(page.body.total).toBe(suggestions.length);
    expect(page.body.items.find((s: { id: string }) => s.id === suggestions[0]!.id).decision).toBe('accepted');
    // A keyword with nothing found on it (score 100, no money) has no score row: /scores lists the rest.
    const keywords = await call(t.app, 'GET', `/api/v1/analyses/${id}/scores?level=keyword&page_size=500`, { token: user.token });
    const scored = result.scoring.keywords.filter((score) => score.score < 100 || score.findings > 0 || score.moneyPerMonth > 0);
    expect(scored.length).toBeLessThan(result.scoring.keywords.length);
    expect(keywords.body.total).toBe(scored.length);
    expect(keywords.body.items.map((s: { target: { key: string } }) => s.target.key).sort()).toEqual(scored.map((s) => s.target.key).sort());

    // The semantic sections and a finding's items are stored in chunks; rows written before them (one item
    // per row, 0070) read the same.
    const pages = async () => ({
      verdicts: (await call(t.app, 'GET', `/api/v1/analyses/${id}/semantic/keyword_verdicts?page=2&page_size=7`, { token: user.token })).body,
      clusters: (await call(t.app, 'GET', `/api/v1/analyses/${id}/semantic/clusters?page_size=500`, { token: user.token })).body,
    });
    const chunked = await pages();
    expect(chunked.verdicts.total).toBe(result.scoring.keywordVerdicts.length);
    expect(chunked.verdicts.items).toEqual(result.scoring.keywordVerdicts.slice(7, 14));
    expect(chunked.clusters.items).toEqual(result.semantic.clusters);
    await sql`
      WITH chunks AS (DELETE FROM analysis_semantic WHERE analysis_id = ${id} AND json_typeof(document) = 'array' RETURNING *)
      INSERT INTO analysis_semantic (analysis_id, section, position, campaign_key, group_key, document)
      SELECT analysis_id, section, position + e.n - 1, campaign_key, group_key, e.item FROM chunks, json_array_elements(document) WITH ORDINALITY e(item, n)`.execute(t.app.db);
    expect(await pages()).toEqual(chunked);
  });
});
