/**
 * Small pieces for the tests of result-saving.ts: a one-row COPY batch, the saving's backends as
 * PostgreSQL lists them, and a thread task that saves a batch and then hangs (what a run stopped
 * mid-saving looks like: its thread terminated with its transactions open).
 */
import type { MessagePort } from 'node:worker_threads';
import type pg from 'pg';
import { openResultSaving, SAVING_APPLICATION_NAME, type ResultSavingTarget } from '../../../server/analysis/result-saving.js';
import type { ResultRowBatch } from '../../../server/analysis/result-rows.js';

/** One row of `analysis_entity_names` for the analysis, as a `copy` batch. */
export function entityNameBatch(analysisId: string, key = 'c0'): ResultRowBatch {
  const text = `${analysisId}\t${key}\tКампания ${key}\n`;
  return { kind: 'copy', table: 'analysis_entity_names', rows: 1, chars: text.length, bytes: new TextEncoder().encode(text) };
}

/** Backend pids of the savings open on the current database. */
export async function savingBackends(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [SAVING_APPLICATION_NAME]);
  return rows.map((row) => row.pid);
}

/** Thread task: writes two rows on the saving's connections, posts 'written' on `port`, and never ends. */
export async function saveAndHang(target: ResultSavingTarget, port: MessagePort): Promise<never> {
  const saving = openResultSaving(target);
  await Promise.all([saving.write(entityNameBatch(target.analysisId, 'c0')), saving.write(entityNameBatch(target.analysisId, 'c1'))]);
  port.postMessage('written');
  return new Promise<never>(() => undefined);
}
