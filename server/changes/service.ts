/**
 * Change sets: an audit's accepted suggestions as writes to the project's Direct account (preview), applied
 * by a job (worker.ts), journalled, and undone within 30 days. Who may apply and undo is the organization's
 * setting `apply_changes_role` (owner only by default).
 */
import { sql } from 'kysely';
import type { Finding, KeywordVerdict, Suggestion } from '../../contract/analysis-results.js';
import { UNDO_DAYS, type ApplySettings, type ChangeKind, type ChangeSet, type ChangeSetList, type DirectValues, type Journal } from '../../contract/changes.js';
import { changeMessages as m } from '../../contract/messages.js';
import type { OrganizationRole } from '../../contract/organizations.js';
import type { Caller } from '../auth/authenticate.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import { expandStoredRefs } from '../analysis/entity-names.js';
import { createDirectClient, type DirectClient } from '../direct/api/client.js';
import { DirectApiError } from '../direct/api/errors.js';
import { batches, bidChange, bidItem, excludedSitesItem, inApplyOrder, limitProblem, mergeSites, pauseItem, planChanges, unitsFor, valuesAfter, type AcceptedChoice, type PlannedItem } from '../engines/changes/plan.js';
import { DIRECT_EXCLUDED_SITES_LIMIT } from '../engines/scoring/checks/placements.js';
import type { JobQueue } from '../jobs/queue.js';
import { fullName, iso } from '../lib/api-values.js';
import { forbidden, HttpError, notFound } from '../lib/errors.js';
import { storedDirectAccess } from '../projects/service.js';
import { readObjects } from './direct-io.js';
import { APPLY_CHANGES_QUEUE, applyJobOptions } from './lifecycle.js';
import { recoverLostChangeSets } from './recovery.js';


export interface ApplyJobData {
  changeSetId: string;
}

export type DirectConfig = Pick<AppConfig, 'secretsKey' | 'yandexOAuth' | 'yandexDirectApiUrl' | 'yandexDirectSandboxApiUrl'>;

const ROLE_RANK: Record<OrganizationRole, number> = { member: 0, admin: 1, owner: 2 };
const whoMay: Record<OrganizationRole, string> = { owner: 'только владелец организации', admin: 'владелец или администратор организации', member: 'любой участник организации' };

// ------------------------------------------------------------------------------------------- settings

async function applyRoleOf(db: DB, organizationId: string): Promise<OrganizationRole> {
  const row = await db.selectFrom('organizations').select('apply_changes_role').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.apply_changes_role;
}

const mayApplyWith = (role: OrganizationRole, caller: Caller) => ROLE_RANK[caller.organizationRole] >= ROLE_RANK[role];

async function requireMayApply(db: DB, caller: Caller): Promise<void> {
  const role = await applyRoleOf(db, caller.organizationId);
  if (!mayApplyWith(role, caller)) throw forbidden(m.notAllowed.replace('{who}', whoMay[role]), 'APPLY_NOT_ALLOWED');
}

export async function getApplySettings(db: DB, caller: Caller): Promise<ApplySettings> {
  return { apply_changes_role: await applyRoleOf(db, caller.organizationId) };
}

/** Only the owner decides who may change the ad accounts. */
export async function updateApplySettings(db: DB, caller: Caller, settings: ApplySettings): Promise<ApplySettings> {
  if (caller.organizationRole !== 'owner') throw forbidden(m.settingsOwnerOnly, 'OWNER_ONLY');
  await db.updateTable('organizations').set({ apply_changes_role: settings.apply_changes_role }).where('id', '=', caller.organizationId).execute();
  return settings;
}

// -------------------------------------------------------------------------------------------- preview

/** A client of the project's Direct account (its stored token, renewed through its OAuth connection when it has one). */
export async function projectDirectClient(db: DB, config: DirectConfig, organizationId: string, projectId: string): Promise<DirectClient> {
  let access;
  try {
    access = await storedDirectAccess(db, organizationId, projectId, config.secretsKey, config.yandexOAuth);
  } catch (error) {
    if (error instanceof HttpError && error.code === 'CONNECTION_NOT_FOUND') throw new HttpError(422, 'NOT_API_CONNECTED', m.notConnected);
    throw error;
  }
  return createDirectClient({
    token: access.token,
    clientLogin: access.clientLogin || undefined,
    baseUrl: access.sandbox ? config.yandexDirectSandboxApiUrl : config.yandexDirectApiUrl,
    maxRetries: 2,
  });
}

/** The accepted suggestions of an analysis, in the engine's order, their entity refs restored. */
async function acceptedSuggestions(db: DB, analysisId: string): Promise<AcceptedChoice[]> {
  const rows = await db
    .selectFrom('analysis_suggestions as s')
    .innerJoin('analysis_decisions as d', (join) => join.onRef('d.analysis_id', '=', 's.analysis_id').onRef('d.suggestion_id', '=', 's.id'))
    .select(['s.document', 'd.value'])
    .where('s.analysis_id', '=', analysisId)
    .where('d.decision', '=', 'accepted')
    .orderBy('s.position')
    .execute();
  const documents = await expandStoredRefs(db, analysisId, rows.map((row) => row.document as Suggestion));
  return documents.map((suggestion, i) => ({ suggestion, value: rows[i]!.value }));
}

async function verdictsOf(db: DB, analysisId: string, actions: KeywordVerdict['action'][]): Promise<KeywordVerdict[]> {
  const rows = await db.selectFrom('analysis_semantic').select('document').where('analysis_id', '=', analysisId).where('section', '=', 'keyword_verdicts').orderBy('position').execute();
  const verdicts = rows.flatMap((row) => (Array.isArray(row.document) ? row.document : [row.document]) as KeywordVerdict[]).filter((verdict) => actions.includes(verdict.action));
  return expandStoredRefs(db, analysisId, verdicts);
}

const present = (item: PlannedItem | null): item is PlannedItem => item !== null;

/** The keywords the audit says to stop (keyword verdict `stop`), each as a pause of the keyword. */
async function keywordsToStop(db: DB, analysisId: string): Promise<PlannedItem[]> {
  return (await verdictsOf(db, analysisId, ['stop'])).map((verdict) => pauseItem(verdict.target)).filter(present);
}

/**
 * The bids the audit advises (verdicts `lower_bid`, `raise_bid`: given only where the campaign's strategy was
 * manual or unknown at the audit); the preview checks the strategy as it is now and drops automatic ones.
 */
async function bidsToChange(db: DB, analysisId: string): Promise<PlannedItem[]> {
  return (await verdictsOf(db, analysisId, ['lower_bid', 'raise_bid'])).map(bidItem).filter(present);
}

/** The network sites the audit says to exclude (`stats.network_sites`, one finding per campaign). */
async function sitesToExclude(db: DB, analysisId: string): Promise<PlannedItem[]> {
  const rows = await db.selectFrom('analysis_findings').select(['id', 'document']).where('analysis_id', '=', analysisId).where('check_id', '=', 'stats.network_sites').orderBy('position').execute();
  const findings = await expandStoredRefs(db, analysisId, rows.map((row) => row.document as Finding));
  return findings.map((finding) => excludedSitesItem(finding.target, finding.id, finding.sites ?? [])).filter(present);
}

/** Turns a Direct failure into the Russian answer the screen shows (never a 5xx for Yandex's refusal). */
export function directFailure(error: unknown): never {
  if (error instanceof DirectApiError) throw new HttpError(502, 'DIRECT_API_ERROR', error.message);
  throw error;
}

/**
 * The preview: reads every touched object from the API, merges, and stores the change set with each item's
 * before and after and the points the apply will spend. Nothing is written to Direct here.
 */
export async function createChangeSet(db: DB, config: DirectConfig, caller: Caller, analysisId: string, options: { pauseKeywords?: boolean; bids?: boolean; excludeSites?: boolean } = {}): Promise<ChangeSet> {
  const analysis = await db.selectFrom('analyses').select(['project_id', 'status']).where('id', '=', analysisId).where('organization_id', '=', caller.organizationId).executeTakeFirst();
  if (!analysis) throw notFound(m.notFound, 'ANALYSIS_NOT_FOUND');
  if (analysis.status !== 'completed') throw new HttpError(409, 'ANALYSIS_NOT_READY', m.analysisNotReady);
  const client = await projectDirectClient(db, config, caller.organizationId, analysis.project_id);
  const { items, skipped } = planChanges(await acceptedSuggestions(db, analysisId), m);
  if (options.pauseKeywords) items.push(...(await keywordsToStop(db, analysisId)));
  if (options.bids) items.push(...(await bidsToChange(db, analysisId)));
  if (options.excludeSites) items.push(...(await sitesToExclude(db, analysisId)));
  inApplyOrder(items);
  if (items.length === 0) throw new HttpError(422, 'NOTHING_TO_APPLY', m.nothingAccepted);

  const previews: { item: PlannedItem; before: DirectValues; after: DirectValues; warning: string | null }[] = [];
  for (const kind of new Set(items.map((item) => item.kind))) {
    const ofKind = items.filter((item) => item.kind === kind);
    const { values: current, manual } = await readObjects(client, kind, ofKind.map((item) => item.objectId)).catch(directFailure);
    for (const item of ofKind) {
      const before = current.get(item.objectId);
      const skip = (reason: string) => skipped.push({ suggestion_id: item.suggestionIds[0]!, label: item.label, reason });
      if (!before) {
        skipped.push(...item.suggestionIds.map((id) => ({ suggestion_id: id, label: item.label, reason: m.objectGone })));
        continue;
      }
      if (kind === 'keyword_state' && before.State !== 'ON') {
        skip(m.alreadyPaused);
        continue;
      }
      let warning: string | null = kind === 'ad_texts' ? m.moderationWarning : null;
      if (kind === 'keyword_bids') {
        // The strategy as it is now decides: under an automatic one no bid is ever written.
        const strategy = manual.get(item.objectId) ?? { search: false, network: false, strategy: null };
        const bids = bidChange(before, strategy, item.change.bidFactor ?? 1);
        if ('reason' in bids) {
          skip(bids.reason === 'automatic' ? m.automaticStrategy.replace('{strategy}', strategy.strategy ?? 'автоматическая стратегия') : bids.reason === 'no_bid' ? m.noBidToChange : m.bidUnchanged);
          continue;
        }
        item.change = { set: bids.set };
      }
      if (kind === 'campaign_excluded_sites') {
        const { list, left } = mergeSites(Array.isArray(before.ExcludedSites) ? before.ExcludedSites : [], item.change.add ?? []);
        if (list.length === (Array.isArray(before.ExcludedSites) ? before.ExcludedSites.length : 0)) {
          skip(left.length > 0 ? notFitted(left) : m.sitesAllExcluded);
          continue;
        }
        if (left.length > 0) warning = notFitted(left);
      }
      const after = valuesAfter(kind, before, item.change);
      const problem = limitProblem(kind, after);
      if (problem) {
        skipped.push({ suggestion_id: item.suggestionIds[0]!, label: item.label, reason: m.overLimit.replace('{limit}', problem.limit.toLocaleString('ru-RU')).replace('{length}', problem.length.toLocaleString('ru-RU')) });
        continue;
      }
      previews.push({ item, before: touched(before, after), after, warning });
    }
  }
  // Everything asked for was left out for a reason (an automatic strategy, a full list…): say why, not «nothing accepted».
  if (previews.length === 0) throw new HttpError(422, 'NOTHING_TO_APPLY', skipped.length > 0 ? m.nothingApplicable.replace('{reasons}', [...new Set(skipped.map((item) => item.reason))].slice(0, 3).join('; ')) : m.nothingAccepted);
  const counts = new Map<ChangeKind, number>();
  for (const { item } of previews) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  const unitsEstimate = [...counts].reduce((sum, [kind, count]) => sum + unitsFor(kind, count), 0);

  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('change_sets')
      .values({ organization_id: caller.organizationId, project_id: analysis.project_id, analysis_id: analysisId, created_by: caller.userId, units_estimate: unitsEstimate, skipped: JSON.stringify(skipped) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = previews.map(({ item, before, after, warning }, position) => ({
      change_set_id: row.id,
      position,
      kind: item.kind,
      object_id: item.objectId,
      label: item.label,
      suggestion_ids: item.suggestionIds,
      change: JSON.stringify(item.change),
      preview_before: JSON.stringify(before),
      preview_after: JSON.stringify(after),
      warning,
    }));
    // In pieces: one INSERT carries at most 65 535 parameters (10 a row), and a big account's pauses run to thousands.
    for (const piece of batches(rows, 1_000)) await trx.insertInto('change_items').values(piece).execute();
    return row.id;
  });
  return getChangeSet(db, caller, id);
}

/** The sites that did not fit in the campaign's 1 000, in Russian. */
export const notFitted = (left: string[]) =>
  m.sitesNotFitted.replace('{limit}', DIRECT_EXCLUDED_SITES_LIMIT.toLocaleString('ru-RU')).replace('{sites}', left.length > 10 ? `${left.slice(0, 10).join(', ')} и ещё ${left.length - 10}` : left.join(', '));

/** The fields of `before` that `after` names. */
const touched = (before: DirectValues, after: DirectValues): DirectValues => Object.fromEntries(Object.keys(after).map((field) => [field, before[field] ?? null]));

// ---------------------------------------------------------------------------------------------- reads

const undoDeadline = () => new Date(Date.now() - UNDO_DAYS * 24 * 3600_000);

async function findSet(db: DB, organizationId: string, id: string) {
  const row = await db.selectFrom('change_sets').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!row) throw notFound(m.notFound, 'CHANGE_SET_NOT_FOUND');
  return row;
}

async function userNames(db: DB, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, fullName(row.first_name, row.last_name)]));
}

export async function getChangeSet(db: DB, caller: Caller, id: string): Promise<ChangeSet> {
  let set = await findSet(db, caller.organizationId, id);
  // Someone looking at a set whose job was lost is the cheapest sweep: it ends there, not «Применяется» for ever.
  if ((set.status === 'applying' || set.status === 'undoing') && (await recoverLostChangeSets(db, { changeSetId: id })).length > 0) set = await findSet(db, caller.organizationId, id);
  const items = await db.selectFrom('change_items').selectAll().where('change_set_id', '=', id).orderBy('position').execute();
  const names = await userNames(db, [set.created_by, set.applied_by]);
  const deadline = undoDeadline();
  return {
    id: set.id,
    project_id: set.project_id,
    analysis_id: set.analysis_id,
    status: set.status,
    units_estimate: set.units_estimate,
    units_spent: set.units_spent,
    created_at: iso(set.created_at),
    created_by: set.created_by ? (names.get(set.created_by) ?? null) : null,
    applied_at: iso(set.applied_at),
    applied_by: set.applied_by ? (names.get(set.applied_by) ?? null) : null,
    error: set.error,
    skipped: set.skipped,
    can_apply: mayApplyWith(await applyRoleOf(db, caller.organizationId), caller),
    items: items.map((item) => ({
      id: item.id,
      kind: item.kind,
      object_id: String(item.object_id),
      label: item.label,
      before: item.preview_before,
      after: item.preview_after,
      warning: item.warning,
      status: item.status,
      message: item.message,
      replaced: item.replaced,
      written: item.written,
      applied_at: iso(item.applied_at),
      undone_at: iso(item.undone_at),
      undoable: item.status === 'applied' && item.applied_at !== null && new Date(item.applied_at) > deadline,
      selected: item.selected,
    })),
  };
}

/** The change sets of a project, newest first, with their item counts. */
export async function listChangeSets(db: DB, caller: Caller, projectId: string): Promise<ChangeSetList> {
  const rows = await db
    .selectFrom('change_sets as s')
    .select((eb) => [
      's.id',
      's.analysis_id',
      's.status',
      's.created_at',
      's.applied_at',
      's.applied_by',
      eb.selectFrom('change_items as i').whereRef('i.change_set_id', '=', 's.id').where('i.selected', '=', true).select(sql<number>`count(*)::int`.as('n')).as('items'),
      eb.selectFrom('change_items as i').whereRef('i.change_set_id', '=', 's.id').where('i.status', 'in', ['applied', 'undo_refused', 'undo_failed']).select(sql<number>`count(*)::int`.as('n')).as('applied'),
      eb.selectFrom('change_items as i').whereRef('i.change_set_id', '=', 's.id').where('i.status', '=', 'failed').select(sql<number>`count(*)::int`.as('n')).as('failed'),
      eb.selectFrom('change_items as i').whereRef('i.change_set_id', '=', 's.id').where('i.status', '=', 'undone').select(sql<number>`count(*)::int`.as('n')).as('undone'),
    ])
    .where('s.project_id', '=', projectId)
    .where('s.organization_id', '=', caller.organizationId)
    .orderBy('s.created_at', 'desc')
    .limit(100)
    .execute();
  const names = await userNames(db, rows.map((row) => row.applied_by));
  return {
    change_sets: rows.map((row) => ({
      id: row.id,
      analysis_id: row.analysis_id,
      status: row.status,
      items: row.items ?? 0,
      applied: row.applied ?? 0,
      failed: row.failed ?? 0,
      undone: row.undone ?? 0,
      created_at: iso(row.created_at),
      applied_at: iso(row.applied_at),
      applied_by: row.applied_by ? (names.get(row.applied_by) ?? null) : null,
    })),
  };
}

/** Every write of a change set (applies and undos), oldest first, with the values it replaced, who and when. */
export async function getJournal(db: DB, caller: Caller, id: string): Promise<Journal> {
  await findSet(db, caller.organizationId, id);
  const rows = await db
    .selectFrom('change_journal as j')
    .innerJoin('change_items as i', 'i.id', 'j.item_id')
    .leftJoin('users as u', 'u.id', 'j.user_id')
    .select(['j.item_id', 'i.label', 'j.action', 'j.outcome', 'j.at', 'j.replaced', 'j.written', 'j.message', 'u.first_name', 'u.last_name'])
    .where('j.change_set_id', '=', id)
    .orderBy('j.id')
    .execute();
  return {
    entries: rows.map((row) => ({
      item_id: row.item_id,
      label: row.label,
      action: row.action,
      outcome: row.outcome,
      user: row.first_name === null ? null : fullName(row.first_name, row.last_name),
      at: iso(row.at),
      replaced: row.replaced,
      written: row.written,
      message: row.message,
    })),
  };
}

// --------------------------------------------------------------------------------------- apply, undo

/** Marks the set as taken by a job and enqueues it, in one transaction (neither exists without the other). */
async function enqueue(db: DB, jobs: JobQueue, id: string, from: ChangeSetRowStatus[], status: 'applying' | 'undoing', data: { action: 'apply' | 'undo'; userId: string; itemIds?: string[] }, busy: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('change_sets')
      .set({ status, job_data: JSON.stringify(data), error: null, updated_at: sql`now()`, heartbeat_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst();
    if (!taken) throw new HttpError(409, 'CHANGE_SET_BUSY', busy);
    const jobId = await jobs.send(APPLY_CHANGES_QUEUE, { changeSetId: id } satisfies ApplyJobData, { transaction: trx, ...applyJobOptions });
    await trx.updateTable('change_sets').set({ job_id: jobId }).where('id', '=', id).execute();
  });
}

type ChangeSetRowStatus = ChangeSet['status'];

/**
 * Keeps or leaves out items of a preview (a keyword to pause, a bid, a campaign's sites…): what is left out is
 * never written; the points are counted again over what is kept. Only before the first apply.
 */
export async function selectItems(db: DB, caller: Caller, id: string, itemIds: string[], selected: boolean): Promise<ChangeSet> {
  await findSet(db, caller.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const set = await trx.selectFrom('change_sets').select('status').where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
    if (set.status !== 'preview') throw new HttpError(409, 'CHANGE_SET_BUSY', m.notPreview);
    await trx.updateTable('change_items').set({ selected }).where('change_set_id', '=', id).where('id', 'in', itemIds).where('status', '=', 'pending').execute();
    const counts = await trx.selectFrom('change_items').select(['kind', sql<number>`count(*)::int`.as('n')]).where('change_set_id', '=', id).where('selected', '=', true).groupBy('kind').execute();
    const units = counts.reduce((sum, row) => sum + unitsFor(row.kind, row.n), 0);
    await trx.updateTable('change_sets').set({ units_estimate: units, updated_at: sql`now()` }).where('id', '=', id).execute();
  });
  return getChangeSet(db, caller, id);
}

export async function startApply(db: DB, jobs: JobQueue | null, caller: Caller, id: string): Promise<ChangeSet> {
  if (!jobs) throw new HttpError(503, 'JOBS_UNAVAILABLE', m.queueUnavailable);
  await findSet(db, caller.organizationId, id);
  await requireMayApply(db, caller);
  // Applying again continues what is still pending (after a failure); what was applied is never written twice.
  const pending = await db.selectFrom('change_items').select(['id', 'selected']).where('change_set_id', '=', id).where('status', '=', 'pending').orderBy('selected', 'desc').executeTakeFirst();
  if (!pending) throw new HttpError(409, 'CHANGE_SET_BUSY', m.alreadyApplied);
  if (!pending.selected) throw new HttpError(422, 'NOTHING_SELECTED', m.nothingSelected);
  await enqueue(db, jobs, id, ['preview', 'failed', 'partly_applied'], 'applying', { action: 'apply', userId: caller.userId }, m.alreadyApplied);
  return getChangeSet(db, caller, id);
}

/** Undo of the whole set (every item still undoable) or of the items named. */
export async function startUndo(db: DB, jobs: JobQueue | null, caller: Caller, id: string, itemIds?: string[]): Promise<ChangeSet> {
  if (!jobs) throw new HttpError(503, 'JOBS_UNAVAILABLE', m.queueUnavailable);
  await findSet(db, caller.organizationId, id);
  await requireMayApply(db, caller);
  let query = db.selectFrom('change_items').select('id').where('change_set_id', '=', id).where('status', '=', 'applied').where('applied_at', '>', undoDeadline());
  if (itemIds) query = query.where('id', 'in', itemIds);
  const eligible = (await query.execute()).map((row) => row.id);
  if (eligible.length === 0) throw new HttpError(422, 'NOTHING_TO_UNDO', m.nothingToUndo.replace('{days}', String(UNDO_DAYS)));
  await enqueue(db, jobs, id, ['applied', 'partly_applied', 'failed'], 'undoing', { action: 'undo', userId: caller.userId, itemIds: eligible }, m.busy);
  return getChangeSet(db, caller, id);
}
