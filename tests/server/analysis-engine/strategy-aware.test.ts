/**
 * Strategy-aware verdicts (issue 22, item 5): where the Direct API import read a campaign's strategy,
 * no keyword bid advice under an automatic strategy (Direct sets the bids itself), no click-cost
 * verdicts where clicks are not what is paid for; and no «Нет минус-слов на кампанию» where the groups
 * use a shared negative set. Without a strategy (file imports) everything is as before.
 */
import { describe, expect, it } from 'vitest';
import type { Campaign, CampaignData, CampaignStrategy } from '../../../contract/campaigns.js';
import { ad, campaign, group, kw, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

const period = { from: '2024-03-01', to: '2024-03-30' };
const okna = (headline: string) => ad(headline, { finalUrl: 'https://okna.example.ru/?utm_source=yandex&utm_medium=cpc', displayUrl: 'okna' });
const plain = (text: string | undefined) => (text ?? '').replace(/\s/g, ' ');

const maxClicks: CampaignStrategy = { search: { type: 'WB_MAXIMUM_CLICKS', bidding: 'automatic', weeklyBudget: 20000 }, networks: { type: 'SERVING_OFF', bidding: 'off' } };
const payForConversion: CampaignStrategy = {
  search: { type: 'PAY_FOR_CONVERSION', bidding: 'automatic', payForConversion: true, targetCpa: 500, goalId: '123', weeklyBudget: 30000 },
  networks: { type: 'SERVING_OFF', bidding: 'off' },
};
const manual: CampaignStrategy = { search: { type: 'HIGHEST_POSITION', bidding: 'manual' }, networks: { type: 'SERVING_OFF', bidding: 'off' } };

/**
 * The account: one campaign on «Максимум кликов», one paying for conversions, one on manual bids;
 * search only, 30 days, a target CPA of 500 ₽. Clicks cost 20 ₽ except «окна купить» (80 ₽).
 */
function account(withStrategies: boolean): CampaignData {
  const strategy = (value: CampaignStrategy): Partial<Campaign> => ({ placement: 'search', ...(withStrategies ? { strategy: value } : {}) });
  return yandex(
    [
      // 10 conversions at 800 ₽ (1,6 × the target), clicks at 80 ₽: «Снизить ставку» and «Дорогие клики» without the strategy.
      campaign('Окна — Максимум кликов', [group('Купить', [kw('окна купить', { stats: stats(3000, 100, 8000, 10), bid: 80 })], [okna('Окна купить')])], strategy(maxClicks)),
      // 10 conversions at 200 ₽: «Повысить ставку» without the strategy.
      campaign('Окна — Оплата за конверсии', [group('Производитель', [kw('окна от производителя', { stats: stats(3000, 100, 2000, 10), bid: 20 })], [okna('Окна от производителя')])], strategy(payForConversion)),
      // Manual bids: the advice stays.
      campaign('Окна — Ручные ставки', [group('ПВХ', [kw('окна пвх', { stats: stats(3000, 100, 2000, 10), bid: 20 }), kw('пластиковые окна', { stats: stats(3000, 100, 2000, 4) })], [okna('Окна ПВХ')])], strategy(manual)),
    ],
    [],
    { period },
  );
}

const run = async (data: CampaignData) => (await analyse(data, { targetCpa: 500 })).scoring;
const labels = (findings: { checkId: string; target: { label?: string } }[], checkId: string) => findings.filter((f) => f.checkId === checkId).map((f) => f.target.label);

describe('strategy-aware bid advice', () => {
  it('without a strategy (a file import) the advice is as before', async () => {
    const { findings } = await run(account(false));
    expect(labels(findings, 'keyword.action_lower_bid')).toEqual(['окна купить']);
    expect(labels(findings, 'keyword.action_raise_bid').sort()).toEqual(['окна от производителя', 'окна пвх']);
    expect(labels(findings, 'stats.expensive_clicks')).toEqual(['окна купить']);
  });

  it('no «Снизить/Повысить ставку» and no «Дорогие клики» where Direct sets the bids; manual bids keep their advice', async () => {
    const { findings, keywordVerdicts: verdicts } = await run(account(true));
    expect(labels(findings, 'keyword.action_lower_bid')).toEqual([]);
    expect(labels(findings, 'keyword.action_raise_bid')).toEqual(['окна пвх']);
    expect(labels(findings, 'stats.expensive_clicks')).toEqual([]);

    const raise = findings.find((f) => f.checkId === 'keyword.action_raise_bid')!;
    expect(plain(raise.fix)).toBe('Повысьте ставку на 20 % (ставка 20 ₽ → 24 ₽) и через 1–2 недели сравните цену конверсии: конверсия окупается, пока клик стоит не дороже 50 ₽ (сейчас 20 ₽).');

    const verdictOf = (label: string) => verdicts.find((v) => v.target.label === label)!;
    expect(verdictOf('окна купить').action).toBe('keep');
    expect(plain(verdictOf('окна купить').reason)).toBe(
      'Цена конверсии 800 ₽ ≥ 1.5 × 500 ₽, но ставки назначает стратегия «Максимум кликов»: ставка фразы ничего не изменит. Проверьте запросы фразы и остановите её, если она не приводит покупателей.',
    );
    expect(verdictOf('окна от производителя').action).toBe('keep');
    expect(plain(verdictOf('окна от производителя').reason)).toBe('Цена конверсии 200 ₽ (ориентир 500 ₽); ставки назначает стратегия «Оплата за конверсии»: ставку фразы менять незачем.');
    expect(verdictOf('окна пвх').action).toBe('raise_bid');
  });

  it('pay-for-conversion «clicks» are no click prices: they do not pull the account\'s median down and make a manual keyword look dear', async () => {
    const data = (withStrategies: boolean) =>
      yandex(
        [
          campaign('Окна — Оплата за конверсии', [group('Производитель', [kw('окна от производителя', { stats: stats(3000, 100, 2000, 4) }), kw('окна на заказ', { stats: stats(3000, 100, 2000, 4) })], [okna('Окна от производителя')])], {
            placement: 'search',
            ...(withStrategies ? { strategy: payForConversion } : {}),
          }),
          campaign('Окна — Ручные ставки', [group('ПВХ', [kw('окна пвх', { stats: stats(3000, 100, 2000, 4) }), kw('окна в квартиру', { stats: stats(3000, 100, 6000, 12) })], [okna('Окна ПВХ')])], {
            placement: 'search',
            ...(withStrategies ? { strategy: manual } : {}),
          }),
        ],
        [],
        { period },
      );
    // Medians: 20 ₽ with the conversions' «clicks» (20, 20, 20, 60), 40 ₽ without them (20, 60): 60 ₽ is not twice that.
    expect(labels((await run(data(false))).findings, 'stats.expensive_clicks')).toEqual(['окна в квартиру']);
    expect(labels((await run(data(true))).findings, 'stats.expensive_clicks')).toEqual([]);
  });
});

describe('shared negative sets', () => {
  const sets = [{ externalId: '7001', name: 'Общие минус-слова', negativeKeywords: ['бесплатно', 'своими руками', 'пермь'] }];
  const data = (setIds: [string[] | undefined, string[] | undefined]) =>
    yandex(
      [
        campaign(
          'Окна — Поиск',
          [
            group('ПВХ', [kw('окна пвх'), kw('пластиковые окна')], [okna('Окна ПВХ')], setIds[0] ? { negativeSetIds: setIds[0] } : {}),
            group('Балконы', [kw('остекление балконов')], [okna('Остекление балконов')], setIds[1] ? { negativeSetIds: setIds[1] } : {}),
          ],
          { negativeKeywords: [], placement: 'search' },
        ),
      ],
      [],
      { negativeSets: sets },
    );
  const noNegatives = async (input: CampaignData) => (await run(input)).findings.filter((f) => f.checkId === 'campaign.no_negatives');

  it('no «Нет минус-слов на кампанию» when every group uses a shared set', async () => {
    expect(await noNegatives(data([['7001'], ['7001']]))).toEqual([]);
  });

  it('a group without a set still counts: the finding lists only its keywords', async () => {
    const [finding] = await noNegatives(data([['7001'], undefined]));
    expect(finding!.items!.map((item) => item.target.label)).toEqual(['остекление балконов']);
    expect(plain(finding!.explanation)).toBe(
      'У кампании «Окна — Поиск» нет минус-слов на кампанию. 1 фраза в широком соответствии без минус-слов и у группы — по ним показываются любые запросы с их словами. Например: «остекление балконов» (группа «Балконы»).',
    );
  });

  it('without sets the finding is as before', async () => {
    const [finding] = await noNegatives(data([undefined, undefined]));
    expect(finding!.items).toHaveLength(3);
  });
});

describe('a clean account with its strategies read', () => {
  it('gets none of these verdicts', async () => {
    const data = yandex(
      [
        campaign('Окна — Ручные ставки', [group('ПВХ', [kw('окна пвх', { stats: stats(3000, 100, 2000, 4) }), kw('пластиковые окна', { stats: stats(3000, 100, 2200, 4) })], [okna('Окна ПВХ')], { negativeSetIds: ['7001'] })], {
          placement: 'search',
          strategy: manual,
        }),
        campaign('Окна — Максимум кликов', [group('Купить', [kw('окна купить', { stats: stats(3000, 100, 2100, 4) })], [okna('Окна купить')], { negativeSetIds: ['7001'] })], {
          placement: 'search',
          strategy: maxClicks,
          negativeKeywords: [],
        }),
      ],
      [],
      { period, negativeSets: [{ externalId: '7001', name: 'Общие минус-слова', negativeKeywords: ['бесплатно'] }] },
    );
    const { findings, keywordVerdicts: verdicts } = await run(data);
    for (const checkId of ['keyword.action_lower_bid', 'keyword.action_raise_bid', 'keyword.action_stop', 'stats.expensive_clicks', 'campaign.no_negatives']) {
      expect(labels(findings, checkId)).toEqual([]);
    }
    expect(verdicts.map((v) => v.action)).toEqual(['keep', 'keep', 'keep']);
  });
});
