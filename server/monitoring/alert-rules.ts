/** A project's alert rules: the stored row, or the defaults until someone changes them. */
import type { AlertRules } from '../../contract/monitoring.js';
import type { DB } from '../db/database.js';
import type { Executor } from '../runs/paid-run.js';
import { findProject } from '../projects/service.js';

/**
 * New leaks from 1 000 ₽/month, rejected ads or sitelinks, campaigns ending or money running out within 3
 * days and failed runs, by e-mail and Telegram; quiet from 22:00 to 09:00 (what happens then comes in one
 * message at 09:00).
 */
export const DEFAULT_ALERT_RULES: AlertRules = {
  new_leak: true,
  new_leak_min_rub: 1000,
  rejected: true,
  runout: true,
  runout_days: 3,
  run_failed: true,
  email: true,
  telegram: true,
  quiet_from: 22,
  quiet_to: 9,
  digest_only: false,
};

export async function alertRulesOf(db: Executor, projectId: string): Promise<AlertRules> {
  const row = await db.selectFrom('alert_rules').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return DEFAULT_ALERT_RULES;
  const { project_id: _project, updated_at: _updated, ...rules } = row;
  return rules;
}

export async function readAlertRules(db: DB, organizationId: string, projectId: string): Promise<AlertRules> {
  await findProject(db, organizationId, projectId);
  return alertRulesOf(db, projectId);
}

export async function saveAlertRules(db: DB, organizationId: string, projectId: string, rules: AlertRules): Promise<AlertRules> {
  await findProject(db, organizationId, projectId);
  await db
    .insertInto('alert_rules')
    .values({ project_id: projectId, ...rules })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ ...rules, updated_at: new Date() }))
    .execute();
  return alertRulesOf(db, projectId);
}
