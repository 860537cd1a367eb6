import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRunner } from '../../../server/analysis/worker.js';
import { migrateToLatest } from '../../../server/db/database.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call } from '../helpers/app.js';
import { appWithAuditUser, eventsUntilDone, projectWithCampaigns, resultWithEveryRowKind, storingRunner } from './helpers.js';

const resultTables = ['analysis_findings', 'analysis_finding_items', 'analysis_suggestions', 'analysis_decisions', 'analysis_scores', 'analysis_semantic', 'analysis_entity_names'];

/**
 * Migration 0111: the result rows no longer reference `analyses` by foreign keys (checked on every
 * copied row); a trigger deletes an analysis's rows with it, as the keys' cascade did.
 */
describe('migration 0111_result_rows_without_foreign_keys', () => {
  const ctx = appWithAuditUser();

  const keysToAnalyses = async () =>
    (
      await sql<{ table: string }>`
        SELECT conrelid::regclass::text AS table FROM pg_constraint
         WHERE contype = 'f' AND confrelid = 'analyses'::regclass AND conrelid::regclass::text = ANY(${resultTables}::text[]) ORDER BY 1`.execute(ctx.t.app.db)
    ).rows.map((row) => row.table);

  const rowsOf = async (analysisId: string) => {
    const counts: Record<string, number> = {};
    for (const table of resultTables) {
      const row = await sql<{ rows: number }>`SELECT count(*)::int AS rows FROM ${sql.table(table)} WHERE analysis_id = ${analysisId}`.execute(ctx.t.app.db);
      counts[table] = row.rows[0]!.rows;
    }
    return counts;
  };

  /** A completed audit with rows in every result table, one suggestion accepted. */
  async function completedAnalysis() {
    auditRunner.run = storingRunner(resultWithEveryRowKind);
    const project = await projectWithCampaigns(ctx.t.app, ctx.user);
    const started = await call(ctx.t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: ctx.user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    const id = started.body.analysis.id as string;
    expect((await eventsUntilDone(ctx.t.app, ctx.user.token, id)).at(-1)!.analysis.status).toBe('completed');
    const suggestions = await call(ctx.t.app, 'GET', `/api/v1/analyses/${id}/suggestions?page_size=1`, { token: ctx.user.token });
    const accepted = await call(ctx.t.app, 'PATCH', `/api/v1/analyses/${id}/decisions`, { token: ctx.user.token, body: { changes: [{ id: suggestions.body.items[0].id, decision: 'accepted' }] } });
    expect(accepted.status).toBe(200);
    return { id, projectId: project.projectId };
  }

  it('drops the keys and deletes an analysis’s rows with it, alone or with its project', async () => {
    expect(await keysToAnalyses()).toEqual([]);
    const alone = await completedAnalysis();
    const withProject = await completedAnalysis();
    const kept = await completedAnalysis();
    for (const { id } of [alone, withProject, kept]) {
      expect(Object.values(await rowsOf(id)).every((rows) => rows > 0), JSON.stringify(await rowsOf(id))).toBe(true);
    }
    const keptRows = await rowsOf(kept.id);

    await sql`DELETE FROM analyses WHERE id = ${alone.id}`.execute(ctx.t.app.db);
    await sql`DELETE FROM projects WHERE id = ${withProject.projectId}`.execute(ctx.t.app.db);

    const none = Object.fromEntries(resultTables.map((table) => [table, 0]));
    expect(await rowsOf(alone.id)).toEqual(none);
    expect(await rowsOf(withProject.id)).toEqual(none);
    // Another analysis keeps every row.
    expect(await rowsOf(kept.id)).toEqual(keptRows);
  });

  it('restores the keys going down, and drops them again going up', async () => {
    await migrateToJustBefore(ctx.t.app.db, '0111_result_rows_without_foreign_keys');
    expect(await keysToAnalyses()).toEqual(['analysis_entity_names', 'analysis_findings', 'analysis_scores', 'analysis_semantic', 'analysis_suggestions']);
    await migrateToLatest(ctx.t.app.db);
    expect(await keysToAnalyses()).toEqual([]);
  });
});
