import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { DEFAULT_ALERT_RULES } from '../../../server/monitoring/alert-rules.js';
import { auditAlerts } from '../../../server/monitoring/audit-alerts.js';
import { raiseEvent } from '../../../server/monitoring/events.js';
import { ad, campaign, group, kw, stats, yandex } from '../../fixtures/analysis/builders.js';
import { appWithAuditUser, eventsUntilDone, projectWithCampaigns } from '../analysis/helpers.js';
import { call } from '../helpers/app.js';
import type { FixtureUser } from '../helpers/fixtures.js';
import { insertDraft } from '../projects/helpers.js';

/**
 * What a completed audit raises, on two real audits of one account: a week later a new keyword wastes
 * 5 200 ₽ (a new leak over the 1 000 ₽ threshold), a small new one 600 ₽ (under it, silent), an ad was
 * rejected by moderation, another ad's sitelinks were, and a campaign ends in two days.
 */
function account(later = false): CampaignData {
  const roses = [kw('розы', { externalId: '7001', stats: stats(1000, 30, 9000, 3) }), kw('купить розы', { externalId: '7002', stats: stats(800, 60, 4000, 8) })];
  if (later) roses.unshift(kw('розы оптом', { externalId: '7010', stats: stats(500, 45, 5200, 0) }), kw('розы дешево', { externalId: '7011', stats: stats(100, 8, 600, 0) }));
  const rejected = ad('Розы от 99 рублей', {
    externalId: '5009',
    stats: stats(900, 30, 1500, 1),
    ...(later ? { moderation: { status: 'rejected', clarification: 'Не подтверждена цена на сайте' } } : { moderation: { status: 'accepted' } }),
  });
  return yandex(
    [
      campaign('Цветы — поиск', [group('Розы', roses, [ad('Розы с доставкой', { externalId: '5001', stats: stats(700, 20, 800, 1), ...(later ? { sitelinksModeration: { status: 'rejected', clarification: 'Ссылка ведёт на несуществующую страницу' } } : {}) }), rejected], { externalId: '3001' })], { externalId: '1001', placement: 'search' }),
      campaign('Тюльпаны к 8 марта', [group('Тюльпаны', [kw('тюльпаны купить', { externalId: '7005', stats: stats(400, 35, 1500, 2) })], [ad('Тюльпаны купить', { externalId: '5003' })])], {
        externalId: '1002',
        placement: 'search',
        state: 'on',
        endDate: '2026-11-02',
        stats: stats(400, 35, 1500, 2),
      }),
    ],
    [],
    { period: { from: '2026-10-01', to: '2026-10-30' } },
  );
}

describe('alerts of a completed audit', () => {
  const context = appWithAuditUser();

  async function audit(user: FixtureUser, projectId: string): Promise<string> {
    const detail = await call(context.t.app, 'GET', `/api/v1/projects/${projectId}`, { token: user.token });
    const started = await call(context.t.app, 'POST', `/api/v1/projects/${projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: (detail.body.campaigns as { id: string }[]).map((c) => c.id), idempotency_key: randomUUID() },
    });
    expect(started.status).toBe(201);
    const events = await eventsUntilDone(context.t.app, user.token, started.body.analysis.id);
    expect(events.at(-1)?.analysis.status).toBe('completed');
    return started.body.analysis.id as string;
  }

  it('raises the new leak over the threshold, the rejected ad and the ending campaign, each with its money, cause and link', async () => {
    const { t, user } = context;
    const { projectId } = await projectWithCampaigns(t.app, user, account());
    await audit(user, projectId);
    const reimport = await call(t.app, 'POST', `/api/v1/projects/${projectId}/imports`, { token: user.token, body: { draft_id: await insertDraft(t.app, user, account(true)), mode: 'replace' } });
    expect(reimport.status).toBe(201);
    const second = await audit(user, projectId);

    // 31 October, 12:00 in Moscow: the campaign's last day (2 November) is two days away.
    const now = new Date('2026-10-31T09:00:00Z');
    const events = await auditAlerts(t.app.db, { projectId, projectName: 'Цветы', analysisId: second, timeZone: 'Europe/Moscow', rules: DEFAULT_ALERT_RULES, now });

    const leaks = events.filter((event) => event.kind === 'new_leak');
    expect(leaks.map((event) => event.cause)).toContainEqual(expect.stringContaining('Цветы — поиск › Розы › розы оптом'));
    expect(leaks.every((event) => event.moneyPerMonth! >= 1000)).toBe(true);
    expect(leaks.some((event) => event.cause.includes('розы дешево'))).toBe(false);
    const wholesale = leaks.find((event) => event.cause.includes('розы оптом') && event.moneyPerMonth === 5200)!;
    expect(wholesale.link).toMatch(new RegExp(`^/projects/${projectId}/analysis/${second}/results\\?check=`));

    expect(events.filter((event) => event.kind === 'rejected')).toEqual([
      expect.objectContaining({
        title: 'Объявление отклонено модерацией в «Цветы»',
        cause: 'Цветы — поиск › Розы: «Розы от 99 рублей» — Не подтверждена цена на сайте. Пока его не исправят, оно не показывается.',
        moneyPerMonth: 1500,
      }),
      expect.objectContaining({
        title: 'Быстрые ссылки отклонены модерацией в «Цветы»',
        cause: 'Цветы — поиск › Розы: «Розы с доставкой» — Ссылка ведёт на несуществующую страницу. Объявление показывается без быстрых ссылок, пока их не исправят.',
        moneyPerMonth: 800,
        link: `/projects/${projectId}`,
      }),
    ]);
    expect(events.filter((event) => event.kind === 'runout')).toEqual([
      expect.objectContaining({ title: 'Кампания «Тюльпаны к 8 марта» остановится через 2 дн.', cause: expect.stringContaining('Продлите её в Директе'), moneyPerMonth: 1500 }),
    ]);

    // A higher threshold and rules turned off raise less.
    const strict = await auditAlerts(t.app.db, { projectId, projectName: 'Цветы', analysisId: second, timeZone: 'Europe/Moscow', rules: { ...DEFAULT_ALERT_RULES, new_leak_min_rub: 6000, rejected: false, runout: false }, now });
    expect(strict.filter((event) => event.kind === 'new_leak' && event.cause.includes('розы оптом'))).toEqual([]);
    expect(strict.filter((event) => event.kind !== 'new_leak')).toEqual([]);

    // The next daily audit sees the same rejected ad: it is told once.
    const rejectedEvent = events.find((event) => event.kind === 'rejected')!;
    expect(await raiseEvent(t.app.db, rejectedEvent, now, { telegram: false })).not.toBeNull();
    expect(await raiseEvent(t.app.db, rejectedEvent, new Date(now.getTime() + 86_400_000), { telegram: false })).toBeNull();
    const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: user.token });
    expect(bell.body.items[0]).toMatchObject({ kind: 'rejected', money_per_month: 1500, link: `/projects/${projectId}` });
  }, 120_000);
});
