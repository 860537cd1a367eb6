/**
 * A project's schedule of re-audits: read with the price of one run (the price of a manual audit of all
 * its campaigns, from the pricing table) and its last runs; saved with its next slot in the project's
 * zone. The person who saves it is the one each run is started and paid as.
 */
import { auditAnalysisKinds } from '../../contract/analysis.js';
import { DEFAULT_TIME_ZONE, monitoringMessages as m, type ScheduleInput, type ScheduleState } from '../../contract/monitoring.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import { iso } from '../lib/api-values.js';
import { validationError } from '../lib/errors.js';
import { findProject } from '../projects/service.js';
import type { Executor } from '../runs/paid-run.js';
import { priceCampaigns } from '../tokens/pricing.js';
import { isKnownTimeZone, nextSlot } from './schedule-slots.js';

const RUNS_SHOWN = 10;

/** What one scheduled audit of the project costs now: the same price as a manual audit of all its campaigns. */
export async function projectAuditPrice(db: Executor, projectId: string): Promise<{ price: number; campaignIds: string[] }> {
  const campaigns = await db.selectFrom('campaigns').select(['id', 'name', 'keywords_count', 'ads_count', 'groups_count']).where('project_id', '=', projectId).orderBy('position').execute();
  if (campaigns.length === 0) return { price: 0, campaignIds: [] };
  return { price: priceCampaigns(campaigns, auditAnalysisKinds).total, campaignIds: campaigns.map((c) => c.id) };
}

/** Whether the project re-reads its account through the Direct API (else it is a file project: a reminder). */
export async function isApiConnected(db: Executor, projectId: string): Promise<boolean> {
  const row = await db.selectFrom('project_connections').select('id').where('project_id', '=', projectId).where('platform', '=', 'yandex_direct').executeTakeFirst();
  return Boolean(row);
}

export async function readSchedule(db: DB, organizationId: string, projectId: string): Promise<ScheduleState> {
  const project = await findProject(db, organizationId, projectId);
  const [schedule, runs, apiConnected, { price }] = await Promise.all([
    db.selectFrom('project_schedules').selectAll().where('project_id', '=', projectId).executeTakeFirst(),
    db.selectFrom('scheduled_runs').select(['slot', 'status', 'note', 'analysis_id']).where('project_id', '=', projectId).orderBy('slot', 'desc').limit(RUNS_SHOWN).execute(),
    isApiConnected(db, projectId),
    projectAuditPrice(db, projectId),
  ]);
  return {
    schedule: schedule
      ? { frequency: schedule.frequency, hour: schedule.hour, weekday: schedule.weekday, month_day: schedule.month_day, enabled: schedule.enabled, next_run_at: iso(schedule.next_run_at) }
      : null,
    time_zone: project.time_zone,
    mode: apiConnected ? 'audit' : 'reminder',
    price_per_run: apiConnected ? price : 0,
    runs: runs.map((run) => ({ slot: iso(run.slot), status: run.status, note: run.note, analysis_id: run.analysis_id })),
  };
}

export async function saveSchedule(db: DB, caller: Caller, projectId: string, input: ScheduleInput, now: Date): Promise<ScheduleState> {
  const project = await findProject(db, caller.organizationId, projectId);
  const timeZone = input.time_zone ?? project.time_zone ?? DEFAULT_TIME_ZONE;
  if (!isKnownTimeZone(timeZone)) throw validationError([{ loc: ['body', 'time_zone'], msg: m.timeZone }]);
  const times = {
    frequency: input.frequency,
    hour: input.hour,
    weekday: input.frequency === 'weekly' ? (input.weekday ?? 1) : null,
    month_day: input.frequency === 'monthly' ? (input.month_day ?? 1) : null,
  };
  const enabled = input.enabled ?? true;
  const values = { ...times, enabled, owner_id: caller.userId, next_run_at: enabled ? nextSlot(times, timeZone, now) : null };
  await db.transaction().execute(async (trx) => {
    if (timeZone !== project.time_zone) await trx.updateTable('projects').set({ time_zone: timeZone }).where('id', '=', projectId).execute();
    await trx
      .insertInto('project_schedules')
      .values({ project_id: projectId, organization_id: caller.organizationId, ...values })
      .onConflict((oc) => oc.column('project_id').doUpdateSet({ ...values, updated_at: now }))
      .execute();
  });
  return readSchedule(db, caller.organizationId, projectId);
}

export async function deleteSchedule(db: DB, organizationId: string, projectId: string): Promise<void> {
  await findProject(db, organizationId, projectId);
  await db.deleteFrom('project_schedules').where('project_id', '=', projectId).execute();
}
