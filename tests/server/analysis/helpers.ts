import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Finding, NegativeKeywordSuggestion } from '../../../contract/analysis-results.js';
import type { Analysis, AuditResult } from '../../../contract/analysis.js';
import { buildResultsSummary, resultRowBatches } from '../../../server/analysis/result-rows.js';
import { campaignDataOf, runAudit, summarizeAudit, withStoredDocuments } from '../../../server/analysis/run-audit.js';
import { saveResultRows } from '../../../server/analysis/result-saving.js';
import { analysisStorageLimits, auditRunner, runAuditInWorkerThread, type AuditRunner } from '../../../server/analysis/worker.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, insertDraft, sampleCampaignData } from '../projects/helpers.js';

/** The projects' sample account plus a broad keyword that other keywords of its group narrow (a cross-minus suggestion). */
export function analysisSampleData(prefix = 'Окна'): CampaignData {
  const data = sampleCampaignData(prefix);
  data.campaigns[0]!.groups[0]!.keywords.push({ phrase: 'окна', negativeWords: [], matchType: 'broad' }, { phrase: 'окна пвх недорого', negativeWords: [], matchType: 'broad' });
  return data;
}

/** A project of the user's organization with the sample campaigns imported; returns its id and campaign ids. */
/**
 * For a describe block: a test app whose job workers run audits, and a user with tokens to pay for them
 * (`t` and `user` are set once its beforeAll has run); a test that swaps the audit runner gets the real
 * thread back after it.
 */
export function appWithAuditUser(balance = 100_000): { t: TestApp; user: FixtureUser } {
  const context = {} as { t: TestApp; user: FixtureUser };
  beforeAll(async () => {
    context.t = await createTestApp({ jobQueue: { runWorkers: true } });
    context.user = await createUser(context.t.app, { balance });
  });
  afterAll(async () => context.t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
  });
  return context;
}

/** The audit of `data` (the sample account by default; no search queries), run in this thread. */
export function auditOf(data: CampaignData = analysisSampleData()): Promise<AuditResult> {
  return runAudit({ data: campaignDataOf({ platform: data.platform, period: null, campaigns: data.campaigns.map((c) => JSON.stringify(c)), searchQueries: [] }), settings: {}, targetCpa: null });
}

export async function projectWithCampaigns(app: FastifyInstance, user: FixtureUser, data: CampaignData = analysisSampleData()) {
  const draftId = await insertDraft(app, user, data);
  const project = await createProject(app, user.token, { draft_id: draftId });
  const campaigns = (project.campaigns as { id: string; name: string; keywords_count: number; ads_count: number; groups_count: number }[]).map((c) => c);
  return { projectId: project.id as string, campaigns, campaignIds: campaigns.map((c) => c.id) };
}

/** A completed audit of the project as a row (no run, no charge): what an AI plan or a rerun is started about. */
export async function insertCompletedAudit(app: FastifyInstance, user: FixtureUser, projectId: string, campaignIds: string[]): Promise<string> {
  const audit = await app.db
    .insertInto('analyses')
    .values({ organization_id: user.organizationId, project_id: projectId, created_by: user.id, status: 'completed', options: JSON.stringify({ campaign_ids: campaignIds, settings: {}, target_cpa: null }), cost: 0, idempotency_key: randomUUID() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return audit.id;
}

export interface SseEvent {
  event: string;
  analysis: Analysis;
}

/** Parses a text/event-stream body into its events (comments and `retry:` lines skipped). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return event && data ? { event, analysis: (JSON.parse(data) as { analysis: Analysis }).analysis } : null;
    })
    .filter((item): item is SseEvent => item !== null);
}

/** Reads the analysis's SSE stream until the server ends it (after `done`), and returns its events. */
export async function eventsUntilDone(app: FastifyInstance, token: string, analysisId: string): Promise<SseEvent[]> {
  const response = await app.inject({ method: 'GET', url: `/api/v1/analyses/${analysisId}/events`, headers: { authorization: `Bearer ${token}` } });
  if (response.statusCode !== 200) throw new Error(`events: ${response.statusCode} ${response.body}`);
  return parseSse(response.body);
}

/** Waits, without polling, until the analysis row satisfies `ready`: re-checked on every NOTIFY of the pipeline. */
export function waitForAnalysisRow<T extends Record<string, unknown>>(url: string, analysisId: string, ready: (row: T) => boolean): Promise<T> {
  return waitForNotifiedRow(url, { channel: 'analysis_progress', table: 'analyses', id: analysisId }, ready);
}

export async function balanceOf(app: FastifyInstance, userId: string): Promise<number> {
  const row = await app.db.selectFrom('token_balances').select('balance').where('user_id', '=', userId).executeTakeFirst();
  return row?.balance ?? 0;
}

export async function ledgerOf(app: FastifyInstance, analysisId: string) {
  return app.db.selectFrom('token_ledger').select(['type', 'amount', 'idempotency_key']).where('reference_id', '=', analysisId).orderBy('created_at').execute();
}

/** The price the start must charge: what /tokens/calculate-cost answers for these campaigns and the audit kinds. */
export async function quotedCost(app: FastifyInstance, token: string, campaigns: { id: string; keywords_count: number; ads_count: number; groups_count: number }[]): Promise<number> {
  const response = await call(app, 'POST', '/api/v1/tokens/calculate-cost', {
    token,
    body: { campaigns: campaigns.map((c) => ({ id: c.id, keywords_count: c.keywords_count, ads_count: c.ads_count, groups_count: c.groups_count })), analysis_kinds: ['scoring', 'semantic'] },
  });
  if (response.status !== 200) throw new Error(`calculate-cost: ${response.status}`);
  return response.body.total as number;
}

/** A promise with its resolve function outside, for gating a test runner. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A runner that stores `grow`'s result through the real row path (COPY batches saved as the engine thread
 * saves them, result-saving.ts, entity refs compact unless `compactRefs` is false), without a thread.
 */
export const storingRunner =
  (grow: (input: Parameters<AuditRunner>[0]) => Promise<AuditResult>, { compactRefs = true } = {}): AuditRunner =>
  async (input, _onProgress, _signal, onSaving) => {
    // The engine thread reads the account's documents itself: so does this runner, before `grow`.
    const result = await grow(await withStoredDocuments(input));
    const batches = resultRowBatches(result, analysisStorageLimits, { compactRefs, encoding: { kind: 'copy', analysisId: input.analysisId! } });
    onSaving();
    const { rows, committed } = await saveResultRows(input.saving!, batches);
    return { summary: summarizeAudit(result), report: buildResultsSummary(result), rows, saved: committed };
  };

/**
 * The sample account's real result with what it lacks (no search queries): a blocking negative and an
 * aggregated finding with items, so a stored result has rows in every result table.
 */
export async function resultWithEveryRowKind(input: Parameters<AuditRunner>[0]): Promise<AuditResult> {
  const result = await runAudit({ data: campaignDataOf(input), settings: input.settings, targetCpa: input.targetCpa, region: input.region });
  const campaign = result.scoring.campaigns[0]!.target;
  const negative: NegativeKeywordSuggestion = {
    id: 'neg-0',
    kind: 'negative_keyword',
    level: 'campaign',
    target: campaign,
    text: 'бесплатно',
    category: 'free',
    status: 'ready',
    source: 'queries',
    reason: 'Запросы без конверсий',
    queries: [{ query: 'окна бесплатно', clicks: 4, cost: 120.5, conversions: 0 }],
    clicks: 4,
    cost: 120.5,
    costPerMonth: 120.5,
    evidence: [],
  };
  result.semantic.negatives.push(negative);
  result.semantic.nonTargetQueries = {
    queries: 1,
    clicks: 4,
    cost: 120.5,
    costPerMonth: 120.5,
    period: null,
    periodDays: 30,
    monthFactor: 1,
    blockedBy: [{ suggestionIds: ['neg-0'], queries: 1, clicks: 4, cost: 120.5 }],
  };
  const base = result.scoring.findings[0]!;
  const aggregated: Finding = {
    ...base,
    id: 'agg-0',
    target: campaign,
    moneyPerMonth: 1_000_000,
    count: 12,
    items: Array.from({ length: 12 }, (_, k) => ({
      target: { level: 'keyword', key: `c0g0k${k}`, campaignIndex: 0, groupIndex: 0, keywordIndex: k, campaignName: campaign.campaignName, label: `фраза ${k}` },
      evidence: [{ label: 'Расход', value: 12 - k }],
      moneyPerMonth: 12 - k,
    })),
  };
  result.scoring.findings.push(aggregated);
  return result;
}
