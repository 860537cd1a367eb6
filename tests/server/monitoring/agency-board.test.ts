import { randomUUID } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAgencyBoard } from '../../../server/monitoring/agency-board.js';
import { recordAuditChanges, recordCompletedAudit } from '../../../server/monitoring/audit-changes.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createProjectRow, createUser, type FixtureUser } from '../helpers/fixtures.js';

/** Counts the statements run through the handle it is plugged into. */
function statementCounter(): KyselyPlugin & { count: number } {
  const counter = {
    count: 0,
    transformQuery: (args: Parameters<KyselyPlugin['transformQuery']>[0]) => {
      counter.count++;
      return args.node;
    },
    transformResult: async (args: Parameters<KyselyPlugin['transformResult']>[0]) => args.result,
  };
  return counter;
}

/** A completed audit with the money figure «Теряете ≈ money ₽ в месяц» in its summary, `daysAgo` days back. */
async function completedAudit(t: TestApp, user: FixtureUser, projectId: string, money: number, daysAgo: number, status = 'completed'): Promise<string> {
  const id = randomUUID();
  const summary = { account_score: 60, money: { perMonth: money, saving: { perMonth: 0 }, causes: [] } };
  await sql`INSERT INTO analyses (id, organization_id, project_id, created_by, status, options, cost, idempotency_key, summary, score, created_at)
            VALUES (${id}, ${user.organizationId}, ${projectId}, ${user.id}, ${status}, '{}'::jsonb, 0, ${randomUUID()}, ${JSON.stringify(summary)}::jsonb, 60, now() - make_interval(days => ${daysAgo}))`.execute(t.app.db);
  return id;
}

describe('the agency board of an organization of 200 projects', () => {
  let t: TestApp;
  let user: FixtureUser;
  const PROJECTS = 200;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app);
    for (let index = 0; index < PROJECTS; index++) {
      const projectId = await createProjectRow(t.app, user, { name: `Клиент ${String(index).padStart(3, '0')}` });
      const earlier = await completedAudit(t, user, projectId, 10_000, 8);
      const later = await completedAudit(t, user, projectId, 10_000 + index * 100, 1);
      await t.app.db
        .insertInto('audit_change_counts')
        .values({ analysis_id: later, previous_analysis_id: earlier, new_count: index % 4, fixed_count: 0, worse_count: 0, better_count: 0, open_count: 3, new_money_per_month: index * 100 })
        .execute();
      if (index % 50 === 0) await completedAudit(t, user, projectId, 0, 0, 'failed');
    }
  }, 120_000);
  afterAll(async () => t.close());

  it('reads every project, its trend, new findings and last run in one statement', async () => {
    const counter = statementCounter();
    const board = await readAgencyBoard(t.app.db.withPlugin(counter), user.organizationId);
    expect(counter.count).toBe(1);
    expect(board.projects).toHaveLength(PROJECTS);
    const client = board.projects.find((project) => project.name === 'Клиент 007')!;
    expect(client.audits.map((audit) => audit.money_per_month)).toEqual([10_000, 10_700]);
    expect(client).toMatchObject({ new_findings: 3, new_findings_money: 700, last_run: { status: 'completed' } });
    expect(board.projects.filter((project) => project.last_run?.status === 'failed')).toHaveLength(4);
  });

  it('answers over HTTP, only the caller organization\'s projects', async () => {
    const answer = await call(t.app, 'GET', '/api/v1/agency-board', { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body.projects).toHaveLength(PROJECTS);
    const other = await createUser(t.app);
    await createProjectRow(t.app, other, { name: 'Чужой' });
    expect((await call(t.app, 'GET', '/api/v1/agency-board', { token: other.token })).body.projects.map((project: { name: string }) => project.name)).toEqual(['Чужой']);
  });

  it('an audit that completes after a newer one of the project recounts the newer one against itself', async () => {
    const projectId = await createProjectRow(t.app, user, { name: 'Поздний' });
    const oldest = await completedAudit(t, user, projectId, 1000, 9);
    const newest = await completedAudit(t, user, projectId, 3000, 1);
    await recordAuditChanges(t.app.db, newest);
    const previousOf = async (id: string) => (await t.app.db.selectFrom('audit_change_counts').select('previous_analysis_id').where('analysis_id', '=', id).executeTakeFirst())?.previous_analysis_id;
    expect(await previousOf(newest)).toBe(oldest);

    // Started between them, finished last.
    const middle = await completedAudit(t, user, projectId, 2000, 5);
    await recordCompletedAudit(t.app.db, middle);
    expect([await previousOf(middle), await previousOf(newest)]).toEqual([oldest, middle]);
  });
});
