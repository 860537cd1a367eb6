import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRunner } from '../../../server/analysis/worker.js';
import { scoreLevels } from '../../../contract/analysis-pages.js';
import { migrateToLatest } from '../../../server/db/database.js';
import { migrateToJustBefore } from '../helpers/database.js';
import { call } from '../helpers/app.js';
import { appWithAuditUser, eventsUntilDone, projectWithCampaigns, resultWithEveryRowKind, storingRunner } from './helpers.js';

/** Migration 0190: the scores lose their primary key (no reader looks one up by it); the documents take lz4 where the server has it. */
describe('migration 0190_lighter_result_rows', () => {
  const ctx = appWithAuditUser();

  const scoresPrimaryKey = async () =>
    (await sql<{ name: string }>`SELECT conname AS name FROM pg_constraint WHERE conrelid = 'analysis_scores'::regclass AND contype = 'p'`.execute(ctx.t.app.db)).rows.map((row) => row.name);

  it('every scores page answers the same with and without the key, and going down and up again works', async () => {
    auditRunner.run = storingRunner(resultWithEveryRowKind);
    const project = await projectWithCampaigns(ctx.t.app, ctx.user);
    const started = await call(ctx.t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: ctx.user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    const id = started.body.analysis.id as string;
    expect((await eventsUntilDone(ctx.t.app, ctx.user.token, id)).at(-1)!.analysis.status).toBe('completed');
    expect(await scoresPrimaryKey()).toEqual([]);

    const pages = async () => {
      const answers: unknown[] = [];
      for (const level of scoreLevels) {
        for (const sort of ['score', 'money']) {
          const answer = await call(ctx.t.app, 'GET', `/api/v1/analyses/${id}/scores?level=${level}&sort=${sort}&page_size=2`, { token: ctx.user.token });
          expect(answer.status).toBe(200);
          answers.push(answer.body);
        }
      }
      return answers;
    };
    const now = await pages();
    expect(now.some((page) => (page as { items: unknown[] }).items.length > 0)).toBe(true);

    await migrateToJustBefore(ctx.t.app.db, '0190_lighter_result_rows');
    expect(await scoresPrimaryKey()).toEqual(['analysis_scores_pkey']);
    expect(await pages()).toEqual(now);
    await migrateToLatest(ctx.t.app.db);
    expect(await scoresPrimaryKey()).toEqual([]);
    expect(await pages()).toEqual(now);
  });
});
