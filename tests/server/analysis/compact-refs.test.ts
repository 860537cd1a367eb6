import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { semanticSections } from '../../../contract/analysis-pages.js';
import type { AuditResult } from '../../../contract/analysis.js';
import { campaignDataOf, runAudit } from '../../../server/analysis/run-audit.js';
import { auditRunner, runAuditInWorkerThread } from '../../../server/analysis/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { eventsUntilDone, projectWithCampaigns, storingRunner } from './helpers.js';

describe('compact entity refs: a real result reads back through the API exactly as when stored whole', () => {
  let t: TestApp;
  let user: FixtureUser;
  let whole: string;
  let compact: string;

  /** The raw body of a GET on an analysis (the bytes the client receives). */
  const raw = async (analysisId: string, path: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/analyses/${analysisId}${path}`, headers: { authorization: `Bearer ${user.token}` } });
    expect(response.statusCode, path).toBe(200);
    return response.body;
  };
  /** The same request on both analyses gives the same bytes (the analysis' own id aside). */
  const sameOnBoth = async (path: string) => {
    const [before, now] = await Promise.all([raw(whole, path), raw(compact, path)]);
    expect(now.replaceAll(compact, whole).replaceAll(compact.slice(0, 8), whole.slice(0, 8)), path).toBe(before);
    return JSON.parse(before) as { items?: { id?: string }[]; total?: number };
  };

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: 100_000 });
    const project = await projectWithCampaigns(t.app, user);
    let result: AuditResult | null = null;
    const analyse = async (compactRefs: boolean) => {
      // The same result twice: computed once, each run storing its own copy.
      auditRunner.run = storingRunner(async (input) => {
        result ??= await runAudit({ data: campaignDataOf(input), settings: input.settings, targetCpa: input.targetCpa, region: input.region });
        return structuredClone(result);
      }, { compactRefs });
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${project.projectId}/analyses`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
      });
      const id = started.json().analysis.id as string;
      expect((await eventsUntilDone(t.app, user.token, id)).at(-1)!.analysis.status).toBe('completed');
      return id;
    };
    whole = await analyse(false);
    compact = await analyse(true);
  });
  afterAll(async () => {
    auditRunner.run = runAuditInWorkerThread;
    await t.close();
  });

  it('stores the refs compactly, with each campaign and group name once', async () => {
    const documents = async (analysisId: string) => {
      const { rows } = await sql<{ chars: number; compact: number }>`
        SELECT sum(length(document::text))::int AS chars, count(*) FILTER (WHERE document::text LIKE '%"@":%')::int AS compact FROM (
          SELECT document FROM analysis_findings WHERE analysis_id = ${analysisId} UNION ALL SELECT document FROM analysis_finding_items WHERE analysis_id = ${analysisId}
          UNION ALL SELECT document FROM analysis_suggestions WHERE analysis_id = ${analysisId} UNION ALL SELECT document FROM analysis_scores WHERE analysis_id = ${analysisId}
          UNION ALL SELECT document FROM analysis_semantic WHERE analysis_id = ${analysisId}) d`.execute(t.app.db);
      return rows[0]!;
    };
    const [before, now] = [await documents(whole), await documents(compact)];
    expect(before.compact).toBe(0);
    expect(now.compact).toBeGreaterThan(0);
    expect(now.chars).toBeLessThan(before.chars * 0.7);
    const names = await t.app.db.selectFrom('analysis_entity_names').select(['key', 'name']).where('analysis_id', '=', compact).execute();
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names.map((row) => row.key)).size).toBe(names.length);
    expect(await t.app.db.selectFrom('analysis_entity_names').select('key').where('analysis_id', '=', whole).execute()).toEqual([]);
  });

  it('answers every page byte for byte as from whole refs: results, findings and their items, suggestions, semantic sections, scores', async () => {
    // The analysis itself has its own times: the rest of the answer is compared.
    const [before, now] = await Promise.all([raw(whole, '/results'), raw(compact, '/results')]);
    const { analysis: _before, ...beforeRest } = JSON.parse(before) as Record<string, unknown>;
    const { analysis: _now, ...nowRest } = JSON.parse(now) as Record<string, unknown>;
    expect(JSON.stringify(nowRest)).toBe(JSON.stringify(beforeRest));
    const findings = await sameOnBoth('/findings?page_size=500');
    expect(findings.total).toBeGreaterThan(0);
    await sameOnBoth('/findings?page_size=500&sort=severity');
    for (const finding of findings.items!) await sameOnBoth(`/findings/${encodeURIComponent(finding.id!)}/items?page_size=500`);
    const suggestions = await sameOnBoth('/suggestions?page_size=500');
    expect(suggestions.total).toBeGreaterThan(0);
    for (const section of semanticSections) await sameOnBoth(`/semantic/${section}?page_size=500`);
    for (const level of ['campaign', 'group', 'ad', 'keyword']) {
      await sameOnBoth(`/scores?level=${level}&page_size=500`);
      await sameOnBoth(`/scores?level=${level}&page_size=500&sort=money`);
    }
  });

  it('exports the same file from compact refs once every suggestion is accepted', async () => {
    for (const analysisId of [whole, compact]) {
      const accepted = await t.app.inject({
        method: 'POST',
        url: `/api/v1/analyses/${analysisId}/decisions/bulk`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: { filter: {}, decision: 'accepted' },
      });
      expect(accepted.statusCode).toBe(200);
    }
    await sameOnBoth('/suggestions?page_size=500');
    const exported = async (analysisId: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/analyses/${analysisId}/export?format=csv`, headers: { authorization: `Bearer ${user.token}` } });
      expect(response.statusCode).toBe(200);
      return { body: response.body, type: response.headers['content-type'], disposition: String(response.headers['content-disposition']) };
    };
    const [before, now] = await Promise.all([exported(whole), exported(compact)]);
    expect(before.body.length).toBeGreaterThan(0);
    expect(now.body).toBe(before.body);
    expect(now.type).toBe(before.type);
    expect(now.disposition.replaceAll(compact.slice(0, 8), whole.slice(0, 8))).toBe(before.disposition);
  });
});
