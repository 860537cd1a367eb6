import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import pg from 'pg';
import { AUDIT_CHANGES_CHANNEL, readAuditChanges } from '../../../server/monitoring/audit-changes.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { call } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { insertDraft } from '../projects/helpers.js';
import { appWithAuditUser, eventsUntilDone, projectWithCampaigns } from '../analysis/helpers.js';

/**
 * The flower shop's account as Direct exports it (every ad and keyword with its platform id), 30 days
 * of statistics so money per month is the period's. `changed`: a week later the long headline of ad
 * 5002 was shortened and its sitelinks and UTM added, and a new keyword «розы оптом» (id 7010, put first
 * in its group, so every index key of the group moves) spent 5 200 ₽ without a conversion.
 */
function flowerAccount(changed = false): CampaignData {
  const longAd = changed
    ? ad('Свежие розы с доставкой', { externalId: '5002', finalUrl: 'https://example.ru/rozy?utm_source=yandex&utm_medium=cpc' })
    : ad('Свежие розы от 99 рублей с доставкой по всему городу и области', { externalId: '5002', finalUrl: 'https://example.ru/rozy', sitelinks: [] });
  const roses = [
    kw('розы', { externalId: '7001', stats: stats(1000, 30, 9000, 3) }),
    kw('купить розы', { externalId: '7002', stats: stats(800, 60, 4000, 8) }),
    kw('розы доставка', { externalId: '7003', stats: stats(500, 40, 5000, 0) }),
    kw('розы своими руками', { externalId: '7004', stats: stats(300, 10, 600, 0) }),
  ];
  if (changed) roses.unshift(kw('розы оптом', { externalId: '7010', stats: stats(500, 45, 5200, 0) }));
  return yandex(
    [
      campaign('Цветы — поиск', [group('Розы', roses, [ad('Розы с доставкой', { externalId: '5001' }), longAd], { externalId: '3001' })], { externalId: '1001', placement: 'search' }),
      campaign('Тюльпаны', [group('Тюльпаны', [kw('тюльпаны купить', { externalId: '7005', stats: stats(400, 35, 1500, 0) })], [ad('Тюльпаны купить', { externalId: '5003' })], { externalId: '3002' })], {
        externalId: '1002',
        placement: 'search',
      }),
    ],
    [query('розы вакансии', stats(60, 6, 700), { campaignName: 'Цветы — поиск', groupName: 'Розы', keyword: 'розы' })],
    { period: { from: '2026-10-01', to: '2026-10-30' } },
  );
}

/** Resolves when the worker has recorded the changes of an audit of the project (it announces them after the audit's commit). */
async function changesRecorded(url: string, projectId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`LISTEN ${AUDIT_CHANGES_CHANNEL}`);
  try {
    await new Promise<void>((resolve) =>
      client.on('notification', (message) => {
        void client.query('SELECT 1 FROM analyses WHERE id = $1 AND project_id = $2', [message.payload, projectId]).then((answer) => answer.rowCount && resolve());
      }),
    );
  } finally {
    await client.end();
  }
}

describe('what changed between two audits of one account', () => {
  const context = appWithAuditUser();

  async function audit(user: FixtureUser, projectId: string): Promise<string> {
    const detail = await call(context.t.app, 'GET', `/api/v1/projects/${projectId}`, { token: user.token });
    const campaignIds = (detail.body.campaigns as { id: string }[]).map((c) => c.id);
    const started = await call(context.t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, { token: user.token, body: { campaign_ids: campaignIds, idempotency_key: randomUUID() } });
    expect(started.status).toBe(201);
    const id = started.body.analysis.id as string;
    const events = await eventsUntilDone(context.t.app, user.token, id);
    expect(events.at(-1)?.analysis.status).toBe('completed');
    return id;
  }

  /** Import, audit, change the account, import again, audit. */
  async function twoAudits() {
    const { t, user } = context;
    const { projectId } = await projectWithCampaigns(t.app, user, flowerAccount());
    const first = await audit(user, projectId);
    const reimport = await call(t.app, 'POST', `/api/v1/projects/${projectId}/imports`, { token: user.token, body: { draft_id: await insertDraft(t.app, user, flowerAccount(true)), mode: 'replace' } });
    expect(reimport.status).toBe(201);
    const recorded = changesRecorded(t.database.url, projectId);
    const second = await audit(user, projectId);
    await recorded;
    return { projectId, first, second };
  }

  let audits: Promise<Awaited<ReturnType<typeof twoAudits>>> | null = null;
  const sharedAudits = () => (audits ??= twoAudits());

  it('calls the fixed ad «fixed» and the new wasting keyword «new», with their ₽/month; the rest matched though every index moved', async () => {
    const { projectId, first, second } = await sharedAudits();
    const result = await readAuditChanges(context.t.app.db, { projectId, fromAnalysisId: first, toAnalysisId: second });
    const about = (entity: string) => result.changes.filter((change) => change.entityLabel.endsWith(entity));

    const fixedAd = about('Свежие розы от 99 рублей с доставкой по всему городу и области');
    expect(fixedAd.length).toBeGreaterThan(0);
    expect(fixedAd.every((change) => change.status === 'fixed' && change.currentFindingId === undefined)).toBe(true);
    expect(fixedAd.map((change) => change.checkId)).toEqual(expect.arrayContaining(['ad.no_sitelinks', 'ad.headline_too_long']));
    // The shortened ad itself has nothing left to say.
    expect(about('Свежие розы с доставкой')).toEqual([]);

    const newKeyword = about('розы оптом');
    expect(newKeyword).toContainEqual(
      expect.objectContaining({ status: 'new', checkId: 'keyword.action_stop', entityLabel: 'Цветы — поиск › Розы › розы оптом', moneyBefore: 0, moneyAfter: 5200, moneyChange: 5200 }),
    );
    const stop = newKeyword.find((change) => change.checkId === 'keyword.action_stop')!;
    const finding = await context.t.app.db.selectFrom('analysis_findings').select(['check_id', 'money_per_month']).where('analysis_id', '=', second).where('id', '=', stop.currentFindingId!).executeTakeFirstOrThrow();
    expect(finding).toEqual({ check_id: 'keyword.action_stop', money_per_month: 5200 });

    // «розы доставка» moved from k2 to k3: still the same open finding, same money.
    expect(about('розы доставка')).toContainEqual(expect.objectContaining({ status: 'open', checkId: 'keyword.action_stop', moneyBefore: 5000, moneyAfter: 5000, moneyChange: 0 }));
    expect(result.changes.filter((change) => change.status === 'new').every((change) => change.entityLabel.includes('розы оптом') || change.moneyAfter === 0)).toBe(true);

    expect(result.moneyAfter! - result.moneyBefore!).toBeGreaterThanOrEqual(5200);
    expect(result.scoreBefore).not.toBeNull();
    expect(result.scoreAfter).not.toBeNull();

    // The board's counts were recorded when the second audit completed.
    const counts = await context.t.app.db.selectFrom('audit_change_counts').selectAll().where('analysis_id', '=', second).executeTakeFirstOrThrow();
    expect(counts).toMatchObject({ previous_analysis_id: first, new_count: result.counts.new, fixed_count: result.counts.fixed });
    expect(counts.new_money_per_month).toBeGreaterThanOrEqual(5200);
  });

  it('answers the last two audits by default over HTTP, at most per_status changes of each status, and the trend oldest first', async () => {
    const { projectId, first, second } = await sharedAudits();
    const { t, user } = context;
    const answer = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-changes`, { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ from: { id: first }, to: { id: second } });
    const direct = await readAuditChanges(t.app.db, { projectId, fromAnalysisId: first, toAnalysisId: second });
    expect(answer.body.counts).toEqual(direct.counts);
    expect(answer.body.changes).toEqual(direct.changes);

    const capped = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-changes?from=${first}&to=${second}&per_status=1`, { token: user.token });
    expect(capped.body.changes.map((change: { status: string }) => change.status)).toEqual(['new', 'worse', 'fixed', 'open']);
    expect(capped.body.counts).toEqual(direct.counts);

    const trend = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-trend`, { token: user.token });
    expect(trend.status).toBe(200);
    expect(trend.body.audits.map((audit: { id: string }) => audit.id)).toEqual([first, second]);
    expect(trend.body.audits[1].money_per_month).toBe(direct.moneyAfter);
    expect(trend.body.audits[0].score).toBe(direct.scoreBefore);
  });

  it('refuses in Russian: the same audit twice, an audit of another project, a project with one audit, another organization', async () => {
    const { projectId, first, second } = await sharedAudits();
    const { t, user } = context;
    const same = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-changes?from=${first}&to=${first}`, { token: user.token });
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ code: 'SAME_ANALYSIS', error: 'Выберите два разных анализа' });

    const other = await projectWithCampaigns(t.app, user, flowerAccount());
    const foreign = await call(t.app, 'GET', `/api/v1/projects/${other.projectId}/audit-changes?from=${first}&to=${second}`, { token: user.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Анализ не найден среди завершённых анализов проекта');
    const none = await call(t.app, 'GET', `/api/v1/projects/${other.projectId}/audit-changes`, { token: user.token });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: 'NOT_ENOUGH_AUDITS', error: 'Для сравнения нужны два завершённых анализа проекта' });
    const badLimit = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-changes?per_status=0`, { token: user.token });
    expect(badLimit.status).toBe(422);

    const stranger = await createUser(t.app, { email: `stranger-${randomUUID()}@example.ru` });
    const hidden = await call(t.app, 'GET', `/api/v1/projects/${projectId}/audit-changes`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    const board = await call(t.app, 'GET', '/api/v1/agency-board', { token: stranger.token });
    expect(board.body.projects).toEqual([]);
  });

  it('the board: every project of the organization with its money trend, new findings and last run', async () => {
    const { projectId, first, second } = await sharedAudits();
    const { t, user } = context;
    const board = await call(t.app, 'GET', '/api/v1/agency-board', { token: user.token });
    expect(board.status).toBe(200);
    const row = board.body.projects.find((project: { id: string }) => project.id === projectId);
    const direct = await readAuditChanges(t.app.db, { projectId, fromAnalysisId: first, toAnalysisId: second });
    expect(row).toMatchObject({
      last_run: { id: second, status: 'completed' },
      audits: [{ id: first, money_per_month: direct.moneyBefore }, { id: second, money_per_month: direct.moneyAfter }],
      new_findings: direct.counts.new,
    });
    expect(row.new_findings_money).toBeGreaterThanOrEqual(5200);

    // Audits stored before the counts existed are counted by the board itself, once.
    await t.app.db.deleteFrom('audit_change_counts').where('analysis_id', '=', second).execute();
    const again = await call(t.app, 'GET', '/api/v1/agency-board', { token: user.token });
    expect(again.body.projects.find((project: { id: string }) => project.id === projectId)).toEqual(row);
    expect(await t.app.db.selectFrom('audit_change_counts').select('new_count').where('analysis_id', '=', second).executeTakeFirst()).toEqual({ new_count: direct.counts.new });
    // A project without audits is on the board too, with nothing to show yet.
    expect(board.body.projects.some((project: { last_run: unknown; audits: unknown[] }) => project.last_run === null && project.audits.length === 0)).toBe(true);
  });
});
