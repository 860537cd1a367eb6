import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLedgerEntry } from '../../server/tokens/ledger.js';
import { analysisSampleData } from './analysis/helpers.js';
import { createTestApp, call, type TestApp } from './helpers/app.js';
import { createUser, type FixtureUser } from './helpers/fixtures.js';
import { createProject, insertDraft } from './projects/helpers.js';

/**
 * Tenant isolation: a user of organization A never reaches a resource of organization B. A resource of
 * B answers 404, exactly as a missing id does (403 only where the route refuses A's role before looking
 * anything up), lists never show B's data, and nothing of B changes. Every org-scoped resource has its
 * rows in `cases` (members, invitation code, ledger, projects, campaigns, imports, drafts, analyses and
 * their results/exports/progress stream, AI plans, page-check runs, Direct API import jobs), with the B-side data made by `seeds`.
 */

interface Side {
  organizationId: string;
  owner: FixtureUser;
  admin: FixtureUser;
  member: FixtureUser;
  /** Ids and texts of this side's resources, by name; seeds add theirs. */
  resources: Record<string, string>;
}

interface World {
  a: Side;
  b: Side;
}

type Role = 'owner' | 'admin' | 'member';

interface IsolationCase {
  name: string;
  /** Which user of A makes the request. */
  as: Role;
  method: InjectOptions['method'];
  url: (w: World) => string;
  body?: (w: World) => unknown;
  /** The answer A gets; for lists and A's own resources, 200 (or 204) with none of B's data in it. */
  status: number;
  /** After the request: B's data is untouched. */
  unchanged?: (w: World, t: TestApp) => Promise<void>;
}

/** Creates B-side (and, when useful, A-side) data for later domains' cases. */
type Seed = (w: World, t: TestApp) => Promise<void>;

/** The model named in A's configuration and on the seeded AI plans. */
const LLM_MODEL = 'isolation-model';

const seeds: Seed[] = [
  // Tokens: a ledger entry on each side, so history and balance can leak only if scoping is wrong.
  async (w, t) => {
    for (const side of [w.a, w.b]) {
      const result = await applyLedgerEntry(t.app.db, { userId: side.owner.id, organizationId: side.organizationId, type: 'welcome', amount: side === w.a ? 11 : 999, idempotencyKey: 'welcome' });
      side.resources.ledgerEntryId = result.entry.id;
    }
  },
  // Organizations: the name and invitation code, so lists can be checked for them.
  async (w, t) => {
    for (const side of [w.a, w.b]) {
      const org = await t.app.db.selectFrom('organizations').select(['name', 'invitation_code']).where('id', '=', side.organizationId).executeTakeFirstOrThrow();
      side.resources.organizationName = org.name;
      side.resources.invitationCode = org.invitation_code;
    }
  },
  // Projects with imported campaigns on both sides, and an unused import preview (draft) on each.
  async (w, t) => {
    for (const [side, label] of [[w.a, 'Альфа'], [w.b, 'Бета']] as const) {
      const project = await createProject(t.app, side.owner.token, {
        name: `Проект ${label}`,
        site_url: `${label === 'Альфа' ? 'alpha' : 'beta'}.example.ru`,
        draft_id: await insertDraft(t.app, side.owner, analysisSampleData(`Кампания ${label}`)),
      });
      side.resources.projectId = project.id;
      side.resources.projectName = project.name;
      side.resources.campaignId = project.campaigns[0].id;
      side.resources.campaignName = project.campaigns[0].name;
      side.resources.draftId = await insertDraft(t.app, side.owner);
    }
  },
  // A finished analysis and a page-check run of each side's project, as the workers leave them.
  async (w, t) => {
    for (const side of [w.a, w.b]) {
      const analysis = await t.app.db
        .insertInto('analyses')
        .values({
          organization_id: side.organizationId,
          project_id: side.resources.projectId!,
          created_by: side.owner.id,
          status: 'completed',
          progress: 100,
          options: JSON.stringify({ campaign_ids: [side.resources.campaignId] }),
          cost: 7,
          idempotency_key: `isolation-${randomUUID()}`,
          score: 71,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      side.resources.analysisId = analysis.id;
      const pageCheck = await t.app.db
        .insertInto('page_checks')
        .values({
          organization_id: side.organizationId,
          project_id: side.resources.projectId!,
          created_by: side.owner.id,
          status: 'running',
          urls: JSON.stringify(['https://example.ru/okna']),
          cost: 3,
          idempotency_key: `isolation-${randomUUID()}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      side.resources.pageCheckId = pageCheck.id;
    }
    // A finished AI plan of each side's analysis, as the AI-plan worker leaves it.
    for (const side of [w.a, w.b]) {
      const plan = await t.app.db
        .insertInto('ai_plans')
        .values({
          organization_id: side.organizationId,
          analysis_id: side.resources.analysisId!,
          created_by: side.owner.id,
          status: 'completed',
          model: LLM_MODEL,
          cost: 10,
          idempotency_key: `isolation-${randomUUID()}`,
          plan: JSON.stringify({ summary: `План ${side === w.a ? 'Альфы' : 'Беты'}`, steps: [], money_per_month_total: null }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      side.resources.aiPlanId = plan.id;
    }
    // A Direct API import job of each side's owner, as its worker leaves a failed one.
    for (const side of [w.a, w.b]) {
      const job = await t.app.db
        .insertInto('import_jobs')
        .values({
          organization_id: side.organizationId,
          user_id: side.owner.id,
          status: 'failed',
          error: `Ошибка импорта ${side === w.a ? 'Альфы' : 'Беты'}`,
          progress: JSON.stringify({ stage: 'campaigns', done: 0, total: null, stages: [], units: { spent: 0, available: null, daily: null } }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      side.resources.importJobId = job.id;
    }
    // Every user of A can pay for a start, so a 404 is about the resource, never about money.
    for (const user of [w.a.owner, w.a.admin, w.a.member]) {
      await applyLedgerEntry(t.app.db, { userId: user.id, organizationId: w.a.organizationId, type: 'admin_credit', amount: 1000, idempotencyKey: 'isolation-funds' });
    }
  },
];

const bMembership = (userKey: 'owner' | 'admin' | 'member') => async (w: World, t: TestApp) => {
  const row = await t.app.db.selectFrom('memberships').select('role').where('user_id', '=', w.b[userKey].id).where('organization_id', '=', w.b.organizationId).executeTakeFirst();
  expect(row).toBeDefined();
};
const bOrganizationUnchanged = async (w: World, t: TestApp) => {
  const org = await t.app.db.selectFrom('organizations').select(['name', 'invitation_code', 'plan_type']).where('id', '=', w.b.organizationId).executeTakeFirstOrThrow();
  expect(org).toEqual({ name: w.b.resources.organizationName, invitation_code: w.b.resources.invitationCode, plan_type: 'free' });
};

const bProjectUnchanged = async (w: World, t: TestApp) => {
  const project = await t.app.db.selectFrom('projects').select('name').where('id', '=', w.b.resources.projectId!).executeTakeFirst();
  expect(project).toEqual({ name: w.b.resources.projectName });
  const campaigns = await t.app.db.selectFrom('campaigns').select('id').where('project_id', '=', w.b.resources.projectId!).execute();
  expect(campaigns.length).toBeGreaterThan(0);
};
const bAnalysisUnchanged = async (w: World, t: TestApp) => {
  const row = await t.app.db.selectFrom('analyses').select(['status']).where('id', '=', w.b.resources.analysisId!).executeTakeFirstOrThrow();
  expect(row.status).toBe('completed');
  const decisions = await t.app.db.selectFrom('analysis_decisions').select('suggestion_id').where('analysis_id', '=', w.b.resources.analysisId!).execute();
  expect(decisions).toEqual([]);
};
const bPageCheckUnchanged = async (w: World, t: TestApp) => {
  const row = await t.app.db.selectFrom('page_checks').select('status').where('id', '=', w.b.resources.pageCheckId!).executeTakeFirstOrThrow();
  expect(row.status).toBe('running');
};
/** A start refused for B's project charged nobody of A. */
const nothingCharged = async (w: World, t: TestApp) => {
  const debits = await t.app.db.selectFrom('token_ledger').select('id').where('organization_id', '=', w.a.organizationId).where('amount', '<', 0).execute();
  expect(debits).toEqual([]);
};

/** B's audit still has its one AI plan and nothing else. */
const bAiPlansUnchanged = async (w: World, t: TestApp) => {
  const rows = await t.app.db.selectFrom('ai_plans').select('id').where('analysis_id', '=', w.b.resources.analysisId!).execute();
  expect(rows).toEqual([{ id: w.b.resources.aiPlanId }]);
};
/** A refused AI-plan start charged nobody of A and added no plan to B's audit. */
const nothingChargedNorPlanned = async (w: World, t: TestApp) => {
  await nothingCharged(w, t);
  await bAiPlansUnchanged(w, t);
};

/** A refused Direct import start left no job behind. */
const noImportJobOfA = async (w: World, t: TestApp) => {
  const jobs = await t.app.db.selectFrom('import_jobs').select('id').where('organization_id', '=', w.a.organizationId).where('id', '!=', w.a.resources.importJobId!).execute();
  expect(jobs).toEqual([]);
};

const B = (key: string) => (w: World) => w.b.resources[key]!;

const cases: IsolationCase[] = [
  // Organizations
  { name: "lists of organizations show only A's", as: 'owner', method: 'GET', url: () => '/api/v1/organizations', status: 200 },
  { name: "the current organization is A's", as: 'owner', method: 'GET', url: () => '/api/v1/organizations/current', status: 200 },
  { name: "the invitation code is A's", as: 'admin', method: 'GET', url: () => '/api/v1/organizations/invitation-code', status: 200 },
  { name: "the member list holds only A's members", as: 'owner', method: 'GET', url: () => '/api/v1/organizations/members', status: 200 },
  { name: "updating changes A's organization only", as: 'owner', method: 'PUT', url: () => '/api/v1/organizations/current', body: () => ({ name: 'Новое имя A' }), status: 200, unchanged: bOrganizationUnchanged },
  { name: "regenerating changes A's code only", as: 'admin', method: 'POST', url: () => '/api/v1/organizations/regenerate-invitation-code', status: 200, unchanged: bOrganizationUnchanged },
  { name: "removing B's member (as A's owner) is not found", as: 'owner', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.member.id}`, status: 404, unchanged: bMembership('member') },
  { name: "removing B's admin (as A's admin) is not found", as: 'admin', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.admin.id}`, status: 404, unchanged: bMembership('admin') },
  { name: "removing B's owner (as A's owner) is not found", as: 'owner', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.owner.id}`, status: 404, unchanged: bMembership('owner') },
  { name: "removing B's member as A's plain member is refused by role first", as: 'member', method: 'DELETE', url: (w) => `/api/v1/organizations/members/${w.b.member.id}`, status: 403, unchanged: bMembership('member') },
  // Tokens
  { name: "the balance is the caller's own", as: 'owner', method: 'GET', url: () => '/api/v1/tokens/balance', status: 200 },
  { name: "the history holds only the caller's entries", as: 'owner', method: 'GET', url: () => '/api/v1/tokens/history?page_size=100', status: 200 },
  { name: "the cost shows the caller's balance", as: 'owner', method: 'POST', url: () => '/api/v1/tokens/calculate-cost', body: () => ({ campaigns: [{ keywords_count: 1, ads_count: 1 }] }), status: 200 },
  // Projects, campaigns, imports and import previews
  { name: "the project list holds only A's projects", as: 'member', method: 'GET', url: () => '/api/v1/projects?page_size=100', status: 200 },
  { name: "searching for B's project name finds nothing", as: 'member', method: 'GET', url: (w) => `/api/v1/projects?search=${encodeURIComponent(w.b.resources.projectName!)}`, status: 200 },
  { name: "B's project is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}`, status: 404 },
  { name: "renaming B's project is not found", as: 'owner', method: 'PATCH', url: (w) => `/api/v1/projects/${B('projectId')(w)}`, body: () => ({ name: 'Захват' }), status: 404, unchanged: bProjectUnchanged },
  { name: "deleting B's project is not found", as: 'owner', method: 'DELETE', url: (w) => `/api/v1/projects/${B('projectId')(w)}`, status: 404, unchanged: bProjectUnchanged },
  { name: "B's campaigns are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}/campaigns`, status: 404 },
  { name: "B's campaign is not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}/campaigns/${B('campaignId')(w)}`, status: 404 },
  { name: "B's campaign under A's own project is not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${w.a.resources.projectId}/campaigns/${B('campaignId')(w)}`, status: 404 },
  { name: "importing into B's project is not found", as: 'owner', method: 'POST', url: (w) => `/api/v1/projects/${B('projectId')(w)}/imports`, body: (w) => ({ draft_id: w.a.resources.draftId, mode: 'replace' }), status: 404, unchanged: bProjectUnchanged },
  { name: "creating a project from B's preview is not found", as: 'owner', method: 'POST', url: () => '/api/v1/projects', body: (w) => ({ name: 'Чужие данные', site_url: 'a.example.ru', platform: 'yandex_direct', draft_id: B('draftId')(w) }), status: 404 },
  { name: "importing B's preview into A's project is not found", as: 'owner', method: 'POST', url: (w) => `/api/v1/projects/${w.a.resources.projectId}/imports`, body: (w) => ({ draft_id: B('draftId')(w), mode: 'append' }), status: 404 },
  { name: "B's Direct import job is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/projects/import-jobs/${B('importJobId')(w)}`, status: 404 },
  { name: "B's Direct import job progress stream is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/projects/import-jobs/${B('importJobId')(w)}/events`, status: 404 },
  { name: "reading B's project from the Direct API again is not found and starts no job", as: 'owner', method: 'POST', url: (w) => `/api/v1/projects/${B('projectId')(w)}/import-preview/direct-api`, status: 404, unchanged: noImportJobOfA },
  // Analyses
  { name: "starting an analysis of B's project is not found and charges nothing", as: 'member', method: 'POST', url: (w) => `/api/v1/projects/${B('projectId')(w)}/analyses`, body: (w) => ({ campaign_ids: [B('campaignId')(w)], idempotency_key: randomUUID() }), status: 404, unchanged: nothingCharged },
  { name: "analysing B's campaigns from A's project is refused as for unknown campaigns and charges nothing", as: 'member', method: 'POST', url: (w) => `/api/v1/projects/${w.a.resources.projectId}/analyses`, body: (w) => ({ campaign_ids: [B('campaignId')(w)], idempotency_key: randomUUID() }), status: 422, unchanged: nothingCharged },
  { name: "B's analysis history is not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}/analyses`, status: 404 },
  { name: "A's analysis history holds only A's analyses", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${w.a.resources.projectId}/analyses?page_size=100`, status: 200 },
  { name: "B's analysis is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}`, status: 404 },
  { name: "B's analysis progress stream is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/events`, status: 404 },
  { name: "B's analysis results are not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/results`, status: 404 },
  { name: "B's analysis export is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/export?format=csv`, status: 404 },
  { name: "deciding on B's suggestions is not found", as: 'owner', method: 'PUT', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/decisions`, body: () => ({ accepted: ['x'], rejected: [] }), status: 404, unchanged: bAnalysisUnchanged },
  { name: "B's findings are not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/findings?page_size=500`, status: 404 },
  { name: "B's finding items are not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/findings/x/items`, status: 404 },
  { name: "B's suggestions are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/suggestions`, status: 404 },
  { name: "changing one decision on B's suggestions is not found", as: 'owner', method: 'PATCH', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/decisions`, body: () => ({ changes: [{ id: 'x', decision: 'accepted' }] }), status: 404, unchanged: bAnalysisUnchanged },
  { name: "deciding in bulk on B's suggestions is not found", as: 'owner', method: 'POST', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/decisions/bulk`, body: () => ({ filter: {}, decision: 'accepted' }), status: 404, unchanged: bAnalysisUnchanged },
  { name: "B's semantic sections are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/semantic/duplicates`, status: 404 },
  { name: "B's scores are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/scores?level=group`, status: 404 },
  { name: "cancelling B's analysis is not found", as: 'owner', method: 'POST', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/cancel`, status: 404, unchanged: bAnalysisUnchanged },
  // AI plans
  { name: "B's AI plans are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/ai-plans`, status: 404 },
  { name: "A's AI plans list holds only A's plans", as: 'member', method: 'GET', url: (w) => `/api/v1/analyses/${w.a.resources.analysisId}/ai-plans`, status: 200 },
  { name: "asking for an AI plan of B's analysis is not found and charges nothing", as: 'member', method: 'POST', url: (w) => `/api/v1/analyses/${B('analysisId')(w)}/ai-plans`, body: () => ({ idempotency_key: randomUUID() }), status: 404, unchanged: nothingChargedNorPlanned },
  { name: "B's AI plan is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/ai-plans/${B('aiPlanId')(w)}`, status: 404 },
  { name: "B's AI plan progress stream is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/ai-plans/${B('aiPlanId')(w)}/events`, status: 404 },
  // Page check
  { name: "B's landing pages are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}/page-checks/urls`, status: 404 },
  { name: "starting a page check on B's project is not found and charges nothing", as: 'member', method: 'POST', url: (w) => `/api/v1/projects/${B('projectId')(w)}/page-checks`, body: () => ({ urls: ['https://example.ru/'], idempotency_key: randomUUID() }), status: 404, unchanged: nothingCharged },
  { name: "B's page checks are not found", as: 'member', method: 'GET', url: (w) => `/api/v1/projects/${B('projectId')(w)}/page-checks`, status: 404 },
  { name: "B's page check is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/page-checks/${B('pageCheckId')(w)}`, status: 404 },
  { name: "B's page check results are not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/page-checks/${B('pageCheckId')(w)}/results`, status: 404 },
  { name: "B's page check progress stream is not found", as: 'owner', method: 'GET', url: (w) => `/api/v1/page-checks/${B('pageCheckId')(w)}/events`, status: 404 },
  { name: "cancelling B's page check is not found", as: 'owner', method: 'POST', url: (w) => `/api/v1/page-checks/${B('pageCheckId')(w)}/cancel`, status: 404, unchanged: bPageCheckUnchanged },
  // The platform admin area spans organizations by design, so an organization's owner is refused it.
  { name: "the admin overview is refused to A's owner", as: 'owner', method: 'GET', url: () => '/api/v1/admin/overview', status: 403 },
  { name: "B's project in the admin area is refused to A's owner", as: 'owner', method: 'GET', url: (w) => `/api/v1/admin/projects/${B('projectId')(w)}`, status: 403 },
  { name: "the platform's users are refused to A's owner", as: 'owner', method: 'GET', url: () => '/api/v1/admin/users', status: 403 },
  { name: "changing B's plan through the admin area is refused to A's owner", as: 'owner', method: 'PUT', url: (w) => `/api/v1/admin/organizations/${w.b.organizationId}/plan`, body: () => ({ plan_type: 'pro' }), status: 403, unchanged: bOrganizationUnchanged },
  { name: "blocking B's owner is refused to A's admin", as: 'admin', method: 'POST', url: (w) => `/api/v1/admin/users/${w.b.owner.id}/block`, body: () => ({}), status: 403 },
  { name: "cancelling B's page check through the admin area is refused to A's owner", as: 'owner', method: 'POST', url: (w) => `/api/v1/admin/runs/page-check/${B('pageCheckId')(w)}/cancel`, status: 403, unchanged: bPageCheckUnchanged },
  { name: "the audit log is refused to A's owner", as: 'owner', method: 'GET', url: () => '/api/v1/admin/audit-log', status: 403 },
];

/** Everything of B that must never appear in an answer to A. */
const secretsOf = (side: Side) => [side.organizationId, side.owner.id, side.admin.id, side.member.id, side.owner.email, side.admin.email, side.member.email, ...Object.values(side.resources)];

let t: TestApp;
let w: World;

async function side(label: string): Promise<Side> {
  const owner = await createUser(t.app, { firstName: label, lastName: 'Владелец' });
  const admin = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'admin' });
  const member = await createUser(t.app, { organizationId: owner.organizationId, organizationRole: 'member' });
  return { organizationId: owner.organizationId, owner, admin, member, resources: {} };
}

beforeAll(async () => {
  // With the job queue (no workers): a start that got past the checks would really be enqueued. A language
  // model is configured (never called: no workers) so an AI-plan start is refused for B's audit, not for a missing model.
  t = await createTestApp({ jobQueue: { runWorkers: false }, config: { llm: { apiUrl: 'http://127.0.0.1:9/v1', apiKey: null, model: LLM_MODEL, timeoutMs: 10_000 } } });
  w = { a: await side('Алиса'), b: await side('Борис') };
  for (const seed of seeds) await seed(w, t);
});
afterAll(async () => {
  await t?.close();
});

describe('tenant isolation: organization A never reaches organization B', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const url = c.url(w);
    const res = await call(t.app, c.method, url, { token: w.a[c.as].token, body: c.body?.(w) });
    expect(res.status).toBe(c.status);
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    for (const secret of secretsOf(w.b)) expect(text).not.toContain(secret);
    if (c.status === 404) expect(res.body.code).toMatch(/NOT_FOUND$/);
    const bIds = Object.values(w.b.resources).concat(w.b.owner.id, w.b.admin.id, w.b.member.id).filter((id) => /^[0-9a-f-]{36}$/.test(id));
    const body = c.body?.(w);
    const bodyText = body === undefined ? '' : JSON.stringify(body);
    if (c.status >= 400 && bIds.some((id) => url.includes(id) || bodyText.includes(id))) {
      // Indistinguishable from ids that exist nowhere: nothing tells A that B's resource exists.
      const swap = (text: string) => bIds.reduce((current, id) => current.split(id).join(randomUUID()), text);
      const missing = await call(t.app, c.method, swap(url), { token: w.a[c.as].token, body: body === undefined ? undefined : JSON.parse(swap(bodyText)) });
      expect(missing.status).toBe(res.status);
      expect(missing.body).toEqual(res.body);
    }
    await c.unchanged?.(w, t);
  });

  it("refuses a token naming B's organization for a user who is not B's member", async () => {
    const forged = await t.app.accessTokens.sign({ userId: w.a.owner.id, organizationId: w.b.organizationId });
    for (const url of ['/api/v1/organizations/current', '/api/v1/organizations/members', '/api/v1/tokens/balance', `/api/v1/projects/${w.b.resources.projectId}`, `/api/v1/analyses/${w.b.resources.analysisId}`, `/api/v1/ai-plans/${w.b.resources.aiPlanId}`, `/api/v1/page-checks/${w.b.resources.pageCheckId}`]) {
      const res = await call(t.app, 'GET', url, { token: forged });
      expect(res.status).toBe(401);
    }
  });
});
