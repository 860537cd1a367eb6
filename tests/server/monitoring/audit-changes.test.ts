import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { readAuditChanges } from '../../../server/monitoring/audit-changes.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { call } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';
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
    const second = await audit(user, projectId);
    return { projectId, first, second };
  }

  it('calls the fixed ad «fixed» and the new wasting keyword «new», with their ₽/month; the rest matched though every index moved', async () => {
    const { projectId, first, second } = await twoAudits();
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
});
