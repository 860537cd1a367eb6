import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRunner } from '../../../server/analysis/worker.js';
import { scoreLevels, semanticSections } from '../../../contract/analysis-pages.js';
import { migrateToLatest } from '../../../server/db/database.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call } from '../helpers/app.js';
import { appWithAuditUser, eventsUntilDone, projectWithCampaigns, resultWithEveryRowKind, storingRunner } from './helpers.js';

const documentTables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_scores', 'analysis_semantic'];

/** Migration 0100: the result rows' documents are json (written as text, not built into jsonb); stored analyses convert and read the same. */
describe('migration 0100_result_documents_json', () => {
  const ctx = appWithAuditUser();

  const documentTypes = async () =>
    (
      await sql<{ table_name: string; data_type: string }>`
        SELECT table_name, data_type FROM information_schema.columns WHERE column_name = 'document' AND table_name = ANY(${documentTables}::text[]) ORDER BY table_name`.execute(ctx.t.app.db)
    ).rows.map((row) => row.data_type);

  it('stores new results as json, converts analyses stored as jsonb, and every page answers the same', async () => {
    const project = await projectWithCampaigns(ctx.t.app, ctx.user);
    // Whole refs, as results were stored before 0100 (going down past 0105 drops the names compact refs need).
    auditRunner.run = storingRunner(resultWithEveryRowKind, { compactRefs: false });
    const started = await call(ctx.t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: ctx.user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    const id = started.body.analysis.id as string;
    expect((await eventsUntilDone(ctx.t.app, ctx.user.token, id)).at(-1)!.analysis.status).toBe('completed');
    expect(await documentTypes()).toEqual(documentTables.map(() => 'json'));

    const get = async (path: string) => {
      const answer = await call(ctx.t.app, 'GET', `/api/v1/analyses/${id}${path}`, { token: ctx.user.token });
      expect(answer.status, path).toBe(200);
      return answer.body;
    };
    // An accepted negative, so the decision counts join the query blocks' documents too.
    const accepted = await call(ctx.t.app, 'PATCH', `/api/v1/analyses/${id}/decisions`, { token: ctx.user.token, body: { changes: [{ id: 'neg-0', decision: 'accepted' }] } });
    expect(accepted.status).toBe(200);

    const answers = async () => {
      const results = await get('/results');
      return {
        results,
        findings: await get('/findings?page_size=500&sort=severity'),
        items: await get('/findings/agg-0/items?page=2&page_size=5'),
        suggestions: await get('/suggestions?page_size=500'),
        semantic: await Promise.all(semanticSections.map((section) => get(`/semantic/${section}?page_size=500`))),
        scores: await Promise.all(scoreLevels.map((level) => get(`/scores?level=${level}&page_size=500`))),
      };
    };
    const before = await answers();
    expect(before.results.decisions.accepted).toBe(1);
    expect(before.results.decisions.blockedQueries).toEqual({ queries: 1, clicks: 4, cost: 120.5, costPerMonth: 120.5 });
    expect(before.results.findings.items[0]).toMatchObject({ id: 'agg-0', count: 12 });
    expect(before.results.findings.items[0].items.map((item: { moneyPerMonth: number }) => item.moneyPerMonth)).toEqual([12, 11, 10, 9, 8]);
    expect(before.items.items.map((item: { target: { label: string } }) => item.target.label)).toEqual(['фраза 5', 'фраза 6', 'фраза 7', 'фраза 8', 'фраза 9']);
    expect(before.semantic.some((page) => page.total > 0)).toBe(true);

    // Back to the schema before 0100 (the documents as jsonb, as analyses stored then are), and up again.
    await migrateToJustBefore(ctx.t.app.db, '0100_result_documents_json');
    expect(await documentTypes()).toEqual(documentTables.map(() => 'jsonb'));
    await migrateToLatest(ctx.t.app.db);
    expect(await documentTypes()).toEqual(documentTables.map(() => 'json'));

    expect(await answers()).toEqual(before);
  });
});
