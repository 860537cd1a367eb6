/**
 * The monitoring sweep: every minute in every process that runs workers (`npm start`, `npm run worker`),
 * with the clock passed in (tests drive it by hand).
 *
 * 1. Due slots are claimed: `project_schedules` rows with `next_run_at <= now` are locked `FOR UPDATE
 *    SKIP LOCKED`; for each, the slot goes into `scheduled_runs` (unique per project and slot) and
 *    `next_run_at` moves to the first slot after now, in one transaction. Another process sweeping at the
 *    same moment skips the locked rows and, once they commit, finds them no longer due: each slot is
 *    claimed exactly once whatever the number of processes. A sweep after a long stop claims the latest
 *    missed slot once, not one run per missed day. (Why not a pg-boss cron: one cron per project and
 *    zone would be needed, and the slot would live in pg-boss instead of beside the schedule.)
 * 2. Open runs move on, each under a short lease (`lease_until`), so two processes never advance one run
 *    at once: due → (file project) a reminder, (too few tokens) skipped with a notice, (API project) a
 *    Direct API read as an import job → the read replaces the project's data → the audit, started through
 *    the paid-run lifecycle as the schedule's owner with the key `schedule:<project>:<slot>`: a retry, a
 *    second process or a crash between steps finds the same audit, never a second debit.
 * 3. Alerts that are due are sent (delivery.ts).
 */
import { sql, type Selectable } from 'kysely';
import { analysisMessages } from '../../contract/messages.js';
import { formatTokens } from '../../contract/format.js';
import type { Caller } from '../auth/authenticate.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { ScheduledRunStatus, ScheduledRunsTable } from '../db/tables/monitoring.js';
import type { Mailer } from '../email/mailer.js';
import type { JobQueue } from '../jobs/queue.js';
import { startSweep } from '../jobs/sweep.js';
import { HttpError } from '../lib/errors.js';
import { sealSecret } from '../lib/secret-box.js';
import { startDirectImport } from '../projects/import-jobs.js';
import { DIRECT_TOKEN_CONTEXT, importIntoProject, storedDirectAccess } from '../projects/service.js';
import { startAnalysis } from '../analysis/service.js';
import { getBalance } from '../tokens/ledger.js';
import { alertRulesOf } from './alert-rules.js';
import { auditAlerts } from './audit-alerts.js';
import { deliverDueAlerts } from './delivery.js';
import { raiseEvent, type NewEvent } from './events.js';
import { nextSlot } from './schedule-slots.js';
import { isApiConnected, projectAuditPrice } from './schedules.js';
import type { TelegramBot } from './telegram.js';

const CLAIM_BATCH = 50;
const OPEN_RUNS_PER_SWEEP = 500;
/** A step holds its run this long at most; a process that died mid-step lets another take it after. */
const LEASE_SECONDS = 300;
const OPEN: ScheduledRunStatus[] = ['due', 'reading', 'auditing'];

export interface MonitoringDeps {
  db: DB;
  jobs: JobQueue | null;
  config: Pick<AppConfig, 'secretsKey' | 'yandexOAuth' | 'publicUrl'>;
  mailer: Mailer;
  telegram: TelegramBot | null;
  log?: { error: (obj: object, msg: string) => void };
}

// ------------------------------------------------------------------------------------ 1. claiming slots

/** Claims every due slot once; returns how many this call claimed. */
export async function claimDueSlots(db: DB, now: Date): Promise<number> {
  let claimed = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const due = await sql<{ project_id: string; organization_id: string; owner_id: string | null; frequency: 'daily' | 'weekly' | 'monthly'; hour: number; weekday: number | null; month_day: number | null; next_run_at: Date; time_zone: string }>`
        SELECT s.project_id, s.organization_id, s.owner_id, s.frequency, s.hour, s.weekday, s.month_day, s.next_run_at, p.time_zone
          FROM project_schedules s JOIN projects p ON p.id = s.project_id
         WHERE s.enabled AND s.next_run_at <= ${now} AND p.deleted_at IS NULL
         ORDER BY s.next_run_at
         LIMIT ${CLAIM_BATCH}
           FOR UPDATE OF s SKIP LOCKED`.execute(trx);
      for (const schedule of due.rows) {
        await trx
          .insertInto('scheduled_runs')
          .values({ project_id: schedule.project_id, organization_id: schedule.organization_id, owner_id: schedule.owner_id, slot: schedule.next_run_at })
          .onConflict((oc) => oc.columns(['project_id', 'slot']).doNothing())
          .execute();
        await trx.updateTable('project_schedules').set({ next_run_at: nextSlot(schedule, schedule.time_zone, now) }).where('project_id', '=', schedule.project_id).execute();
      }
      return due.rows.length;
    });
    claimed += batch;
    if (batch < CLAIM_BATCH) return claimed;
  }
}

// ------------------------------------------------------------------------------------ 2. moving runs on

type Run = Selectable<ScheduledRunsTable>;
type RunChange = Partial<Pick<Run, 'status' | 'note' | 'import_job_id' | 'analysis_id'>>;

interface Step {
  deps: MonitoringDeps;
  run: Run;
  project: { name: string; time_zone: string };
  caller: Caller;
  now: Date;
}

/** The schedule's owner as the caller each run is started and paid as; null when no longer a member. */
async function ownerCaller(db: DB, run: Run): Promise<Caller | null> {
  if (!run.owner_id) return null;
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role as organization_role', 'u.role', 'u.is_verified', 'u.email'])
    .where('m.user_id', '=', run.owner_id)
    .where('m.organization_id', '=', run.organization_id)
    .executeTakeFirst();
  if (!row) return null;
  return { userId: run.owner_id, organizationId: run.organization_id, organizationRole: row.organization_role, role: row.role, isVerified: row.is_verified, email: row.email };
}

const raise = (step: Step, event: Omit<NewEvent, 'projectId'>) => raiseEvent(step.deps.db, { projectId: step.run.project_id, ...event }, step.now, { telegram: step.deps.telegram !== null });

async function runFailed(step: Step, reason: string): Promise<RunChange> {
  const rules = await alertRulesOf(step.deps.db, step.run.project_id);
  if (rules.run_failed) {
    await raise(step, {
      kind: 'run_failed',
      dedupeKey: `run_failed:${step.run.id}`,
      title: `Проверка проекта «${step.project.name}» по расписанию не удалась`,
      cause: reason,
      moneyPerMonth: null,
      link: step.run.analysis_id ? `/projects/${step.run.project_id}/analysis/history` : `/projects/${step.run.project_id}`,
    });
  }
  return { status: 'failed', note: reason };
}

async function skippedForTokens(step: Step, required: number, balance: number): Promise<RunChange> {
  const note = `Не хватило токенов: нужно ${formatTokens(required)}, на балансе ${formatTokens(balance)}.`;
  await raise(step, {
    kind: 'run_skipped',
    dedupeKey: `run_skipped:${step.run.id}`,
    title: `Проверка проекта «${step.project.name}» пропущена`,
    cause: `${note} Пополните баланс — следующая проверка пройдёт по расписанию.`,
    moneyPerMonth: null,
    link: '/tokens',
  });
  return { status: 'skipped', note };
}

/** A due run: a reminder (file project), a skip (too few tokens), or the Direct API read as an import job. */
async function startRun(step: Step): Promise<RunChange> {
  const { deps, run } = step;
  if (!(await isApiConnected(deps.db, run.project_id))) {
    await raise(step, {
      kind: 'upload_reminder',
      dedupeKey: `upload_reminder:${run.id}`,
      title: `Пора обновить данные проекта «${step.project.name}»`,
      cause: 'Проект загружен из файлов, поэтому по расписанию мы напоминаем: выгрузите свежие отчёты из кабинета и загрузите их, чтобы аудит шёл по актуальным данным.',
      moneyPerMonth: null,
      link: `/projects/${run.project_id}`,
    });
    return { status: 'reminded' };
  }
  // Checked before the read: a run the balance cannot pay costs neither tokens nor the account's API points.
  const { price } = await projectAuditPrice(deps.db, run.project_id);
  const balance = await getBalance(deps.db, step.caller.userId);
  if (balance < price) return skippedForTokens(step, price, balance);
  let access;
  try {
    access = await storedDirectAccess(deps.db, run.organization_id, run.project_id, deps.config.secretsKey, deps.config.yandexOAuth);
  } catch (error) {
    if (error instanceof HttpError) return runFailed(step, error.message);
    throw error;
  }
  const connection = { encrypted_token: sealSecret(access.token, deps.config.secretsKey, DIRECT_TOKEN_CONTEXT), client_login: access.clientLogin || null, sandbox: access.sandbox, direct_connection_id: access.directConnectionId ?? null };
  try {
    const job = await startDirectImport(deps.db, deps.jobs, step.caller, connection, run.project_id);
    return { status: 'reading', import_job_id: job.id };
  } catch (error) {
    // The owner is reading an account by hand right now (one Direct import per person): next minute.
    if (error instanceof HttpError && error.statusCode === 429) return {};
    if (error instanceof HttpError) return runFailed(step, error.message);
    throw error;
  }
}

/** The read finished: its data replaces the project's, then the audit starts (same step, same lease). */
async function finishRead(step: Step): Promise<RunChange> {
  const job = await step.deps.db.selectFrom('import_jobs').select(['status', 'draft_id', 'error']).where('id', '=', step.run.import_job_id!).executeTakeFirst();
  if (job && (job.status === 'queued' || job.status === 'running')) return {};
  if (!job || job.status !== 'completed' || !job.draft_id) return runFailed(step, `Не удалось прочитать кабинет через API Директа: ${job?.error ?? 'чтение прервано'}.`);
  await importIntoProject(step.deps.db, step.caller, step.run.project_id, job.draft_id, 'replace');
  await step.deps.db.updateTable('scheduled_runs').set({ status: 'auditing' }).where('id', '=', step.run.id).execute();
  return startAudit(step);
}

const auditKey = (run: Run) => `schedule:${run.project_id}:${run.slot.toISOString()}`;

/** The audit of the fresh data, paid like a manual one; found again by its key when started before. */
async function startAudit(step: Step): Promise<RunChange> {
  const { deps, run, caller } = step;
  const earlier = await deps.db.selectFrom('analyses').select('id').where('created_by', '=', caller.userId).where('idempotency_key', '=', auditKey(run)).executeTakeFirst();
  if (earlier) return { status: 'auditing', analysis_id: earlier.id };
  const { campaignIds } = await projectAuditPrice(deps.db, run.project_id);
  try {
    const started = await startAnalysis(deps.db, deps.jobs, caller, run.project_id, { campaign_ids: campaignIds, idempotency_key: auditKey(run) });
    return { status: 'auditing', analysis_id: started.analysis.id };
  } catch (error) {
    // The balance went down between the check and the start: nothing was charged, nothing is half-done.
    if (error instanceof HttpError && error.statusCode === 402) {
      const { price } = await projectAuditPrice(deps.db, run.project_id);
      return skippedForTokens(step, price, await getBalance(deps.db, caller.userId));
    }
    if (error instanceof HttpError) return runFailed(step, error.message);
    throw error;
  }
}

/** The audit ended: alerts by the rules when it completed, a failure notice when not. */
async function followAudit(step: Step): Promise<RunChange> {
  const { deps, run } = step;
  if (!run.analysis_id) return startAudit(step);
  const analysis = await deps.db.selectFrom('analyses').select(['status', 'error']).where('id', '=', run.analysis_id).executeTakeFirst();
  if (!analysis) return runFailed(step, 'Аудит удалён.');
  if (analysis.status === 'queued' || analysis.status === 'running') return {};
  if (analysis.status !== 'completed') return runFailed(step, `${analysis.error ?? analysisMessages.alreadyFinished} Токены за проверку возвращены.`);
  const rules = await alertRulesOf(deps.db, run.project_id);
  const events = await auditAlerts(deps.db, { projectId: run.project_id, projectName: step.project.name, analysisId: run.analysis_id, timeZone: step.project.time_zone, rules, now: step.now });
  for (const event of events) await raiseEvent(deps.db, event, step.now, { telegram: deps.telegram !== null });
  return { status: 'completed' };
}

async function stepOf(deps: MonitoringDeps, run: Run, now: Date): Promise<RunChange> {
  const project = await deps.db.selectFrom('projects').select(['name', 'time_zone', 'deleted_at']).where('id', '=', run.project_id).executeTakeFirst();
  if (!project || project.deleted_at) return { status: 'failed', note: 'Проект удалён.' };
  const caller = await ownerCaller(deps.db, run);
  if (!caller) return { status: 'skipped', note: 'Автор расписания больше не состоит в организации: сохраните расписание заново.' };
  const step: Step = { deps, run, project, caller, now };
  if (run.status === 'due') return startRun(step);
  if (run.status === 'reading') return finishRead(step);
  return followAudit(step);
}

/** Moves one open run on under its lease; false when another process holds it or it is closed. */
export async function advanceRun(deps: MonitoringDeps, id: string, now: Date): Promise<boolean> {
  const run = await deps.db
    .updateTable('scheduled_runs')
    .set({ lease_until: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
  if (!run) return false;
  try {
    const change = await stepOf(deps, run as Run, now);
    await deps.db.updateTable('scheduled_runs').set({ ...change, lease_until: null, updated_at: now }).where('id', '=', id).execute();
  } catch (error) {
    await deps.db.updateTable('scheduled_runs').set({ lease_until: null }).where('id', '=', id).execute();
    throw error;
  }
  return true;
}

export async function advanceOpenRuns(deps: MonitoringDeps, now: Date): Promise<void> {
  const open = await deps.db.selectFrom('scheduled_runs').select('id').where('status', 'in', OPEN).orderBy('created_at').limit(OPEN_RUNS_PER_SWEEP).execute();
  for (const { id } of open) {
    // One run's trouble (a database hiccup, a bug) must not hold up the others.
    await advanceRun(deps, id, now).catch((error: unknown) => deps.log?.error({ err: error, scheduledRunId: id }, 'scheduled run step failed'));
  }
}

// ------------------------------------------------------------------------------------ the sweep

/** One sweep: claim due slots, move open runs on, send due alerts. */
export async function monitoringSweep(deps: MonitoringDeps, now: Date): Promise<void> {
  await claimDueSlots(deps.db, now);
  await advanceOpenRuns(deps, now);
  await deliverDueAlerts({ db: deps.db, mailer: deps.mailer, telegram: deps.telegram, publicUrl: deps.config.publicUrl }, now);
}

/** Every minute until stopped. */
export function startMonitoringSweep(deps: MonitoringDeps, options: { everyMs?: number; now?: () => Date } = {}): () => void {
  const now = options.now ?? (() => new Date());
  return startSweep(() => monitoringSweep(deps, now()), {
    everyMs: options.everyMs ?? 60_000,
    onError: (error) => deps.log?.error({ err: error }, 'monitoring sweep failed'),
  });
}
