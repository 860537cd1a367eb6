/**
 * Settings checks (issue 22, item 4): an account read through the fake Direct API (strategies, budgets,
 * schedules, regions, bid adjustments, states, autotargeting, day-by-day statistics) and audited with
 * the project's region Москва and target CPA 1 000 ₽. Each check: its exact wording and money on
 * «ОкнаПро» (tests/fakes/direct-settings-accounts.ts, one defect or two per campaign), and nothing at
 * all on the account a specialist set up well. The period is 30 days: money per month = the period's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, ScoringResult } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { checkRegistry } from '../../../server/engines/scoring/registry.js';
import { createDirectClient } from '../../../server/direct/api/client.js';
import { fetchAccount } from '../../../server/direct/api/fetch-account.js';
import { settingsCleanAccount, settingsDefectsAccount, settingsPeriod } from '../../fakes/direct-settings-accounts.js';
import { startFakeDirect, type FakeDirect, type FakeDirectAccount } from '../../fakes/yandex-direct-fake.js';
import { analyse } from './helpers.js';

const fakes: FakeDirect[] = [];
afterAll(async () => {
  for (const fake of fakes) await fake.close();
});

async function read(account: FakeDirectAccount, withPeriod = true): Promise<{ data: CampaignData; fake: FakeDirect }> {
  const fake = await startFakeDirect(account, { token: 't', pageSize: 100 });
  fakes.push(fake);
  const client = createDirectClient({ token: 't', baseUrl: fake.url, sleep: async () => undefined });
  return { data: await fetchAccount(client, withPeriod ? { statsPeriod: settingsPeriod } : {}), fake };
}

const project = { targetCpa: 1000, homeRegionWords: ['москва'] };
const settingsFindings = (scoring: ScoringResult) => scoring.findings.filter((finding) => finding.checkId.startsWith('settings.'));

let defects: Finding[];
let defectsData: CampaignData;
let fake: FakeDirect;
beforeAll(async () => {
  ({ data: defectsData, fake } = await read(settingsDefectsAccount()));
  defects = settingsFindings((await analyse(defectsData, project)).scoring);
});

/** Money is written with a no-break space between thousands («4 000 ₽»); the expectations use a plain one. */
const plain = (text: string) => text.replace(/\s/g, ' ');

/** The one finding of `checkId` on the target labelled `on` (campaign, group), its texts with plain spaces. */
function finding(checkId: string, on: string): Finding {
  const found = defects.filter((item) => item.checkId === checkId && (item.target.label ?? item.target.groupName ?? item.target.campaignName) === on);
  expect(found, `${checkId} on ${on}`).toHaveLength(1);
  return { ...found[0]!, explanation: plain(found[0]!.explanation), fix: plain(found[0]!.fix) };
}

describe('reading the settings through the Direct API', () => {
  it('asks bidmodifiers.get for the campaigns\' and groups\' adjustments, the daily report and the autotargeting categories', () => {
    const modifiers = fake.requests.filter((request) => request.service === 'bidmodifiers');
    expect(modifiers.length).toBe(1);
    expect(modifiers[0]!.body.params.SelectionCriteria).toEqual({ CampaignIds: [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009], Levels: ['CAMPAIGN', 'AD_GROUP'] });
    expect(modifiers[0]!.body.params.MobileAdjustmentFieldNames).toEqual(['BidModifier']);
    const daily = fake.requests.filter((request) => request.service === 'reports' && request.body.params.ReportType === 'CAMPAIGN_PERFORMANCE_REPORT');
    expect(daily[0]!.body.params.FieldNames).toEqual(['Date', 'CampaignId', 'Impressions', 'Clicks', 'Cost', 'Conversions']);
    expect(fake.requests.find((request) => request.service === 'keywords')!.body.params.FieldNames).toContain('AutotargetingCategories');
  });

  it('keeps the adjustments on their campaign or group (a switched-off one dropped), the days in order and the categories switched on', () => {
    const campaign = (id: string) => defectsData.campaigns.find((item) => item.externalId === id)!;
    expect(campaign('1006').bidAdjustments).toEqual([
      { type: 'mobile', percent: 0 },
      { type: 'demographics', percent: 700, condition: 'женщины 18–24' },
      { type: 'regional', percent: 150, condition: 'регион 2', regionId: 2 },
    ]);
    expect(campaign('1001').bidAdjustments).toBeUndefined();
    expect(campaign('1002').groups[0]!.bidAdjustments).toEqual([{ type: 'demographics', percent: 5, condition: 'мужчины от 55' }]);
    const days = campaign('1001').dailyStats!;
    expect(days).toHaveLength(29);
    expect(days[0]).toEqual({ date: '2024-03-01', stats: { impressions: 3000, clicks: 25, cost: 1000, conversions: 1 } });
    expect(days.map((day) => day.date)).toEqual([...days.map((day) => day.date)].sort());
    const autotargeting = campaign('1009').groups[0]!.keywords.find((keyword) => keyword.isAutotargeting)!;
    expect(autotargeting.autotargetingCategories).toEqual(['exact', 'alternative', 'competitor', 'broader', 'accessory']);
  });
});

describe('strategy', () => {
  it('manual bids where conversions are tracked', () => {
    const found = finding('settings.manual_with_conversions', 'Окна — ручные ставки');
    expect(found.explanation).toBe('Кампания «Окна — ручные ставки» на ручном управлении ставками, а за период получила 12 конверсий по 800 ₽: этого достаточно, чтобы Директ сам назначал ставки под цену конверсии.');
    expect(found.fix).toBe('Переведите кампанию на стратегию «Максимум конверсий» с оплатой за клики: цель — та, по которой пришли эти конверсии, средняя цена конверсии — около 800 ₽. Ставки фраз после этого не нужны.');
    expect(found.evidence[0]).toEqual({ label: 'Конверсий за период', value: 12, threshold: 10, setting: 'conversionStrategyMinConversions', unit: 'conversions' });
    expect(found.money).toBeUndefined();
  });

  it('«Максимум кликов» where conversions are tracked', () => {
    const found = finding('settings.max_clicks_with_conversions', 'Окна — Максимум кликов');
    expect(found.explanation).toBe('Кампания «Окна — Максимум кликов» работает на стратегии «Максимум кликов»: она покупает клики подешевле, а не конверсии, хотя за период кампания получила 15 конверсий по 800 ₽.');
    expect(found.fix).toBe('Переведите кампанию на «Максимум конверсий» с целью, по которой пришли эти конверсии, и средней ценой конверсии около 800 ₽; недельный бюджет оставьте прежним (20 000 ₽).');
  });

  it('a target CPA the strategy does not hold: the money over the target', () => {
    const found = finding('settings.strategy_cpa_over_target', 'Окна — Максимум конверсий');
    expect(found.explanation).toBe(
      'Стратегия «Максимум конверсий со средней ценой конверсии» в кампании «Окна — Максимум конверсий» должна держать цену конверсии 500 ₽, а фактическая — 900 ₽ (10 конверсий за 9 000 ₽). Сверх цели потрачено 4 000 ₽ за период, 4 000 ₽ в месяц.',
    );
    expect(found.fix).toBe('Проверьте, та ли цель выбрана в стратегии и засчитываются ли конверсии. Если цель верна — перенесите кампанию на «Оплату за конверсии» по цене 500 ₽: тогда Директ спишет за каждую конверсию не больше цели.');
    expect([found.money, found.moneyPerMonth]).toEqual([4000, 4000]);
    expect(found.evidence[0]).toEqual({ label: 'Фактическая цена конверсии', value: 900, threshold: 650, setting: 'strategyCpaOverTargetRatio', unit: 'rub' });
  });

  it('a weekly budget too low for the target', () => {
    const found = finding('settings.weekly_budget_low', 'Окна — Максимум конверсий');
    expect(found.explanation).toBe(
      'Недельного бюджета кампании «Окна — Максимум конверсий» 3 000 ₽ при цене конверсии в стратегии 500 ₽ хватает не больше чем на 6 конверсий в неделю. Стратегия «Максимум конверсий со средней ценой конверсии» учится на конверсиях: ей нужно хотя бы 10 в неделю.',
    );
    expect(found.fix).toBe('Поднимите недельный бюджет до 5 000 ₽ или оптимизируйте стратегию по цели, которая случается чаще (например, по добавлению в корзину или звонку), пока она не наберёт 10 конверсий в неделю.');
    expect(found.evidence[0]).toEqual({ label: 'Недельный бюджет', value: 3000, threshold: 5000, setting: 'weeklyBudgetMinTargetCpas', unit: 'rub' });
  });

  it('a conversion strategy without a goal', () => {
    const found = finding('settings.conversion_strategy_no_goal', 'Окна — Оплата за конверсии');
    expect(found.explanation).toBe('Кампания «Окна — Оплата за конверсии» на стратегии «Оплата за конверсии», но цель Метрики в стратегии не указана: оптимизировать показы не на что.');
    expect(found.fix).toBe('Укажите в стратегии цель Метрики, которая означает заявку или покупку, и проверьте, что счётчик Метрики указан в параметрах кампании.');
  });

  it('a conversion strategy without conversions (its spend is priced by «Расход без конверсий», not twice)', () => {
    const found = finding('settings.conversion_strategy_no_conversions', 'Окна — Максимум конверсий без конверсий');
    expect(found.explanation).toBe(
      'Кампания «Окна — Максимум конверсий без конверсий» на стратегии «Максимум конверсий» получила 150 кликов и потратила 6 000 ₽ за период без единой конверсии: стратегия не видит конверсий, и учиться ей не на чем.',
    );
    expect(found.fix).toBe(
      'Проверьте, что цель срабатывает (отправьте тестовую заявку и найдите её в Метрике) и что счётчик указан в кампании. Если цель работает, а конверсий нет — выберите цель, которая случается чаще, или на время перейдите на «Максимум кликов» с ограничением средней цены клика.',
    );
    expect(found.money).toBeUndefined();
  });
});

describe('budget and placements', () => {
  it('a daily budget that ran out on 9 of 29 days with spend', () => {
    const found = finding('settings.daily_budget_limited', 'Окна — ручные ставки');
    expect(found.explanation).toBe(
      'Дневной бюджет кампании «Окна — ручные ставки» 1 000 ₽ заканчивался в 9 из 29 дней с расходом (расход дня от 95 % бюджета): в эти дни объявления переставали показываться до конца дня. Цена конверсии кампании 800 ₽ не выше цели 1 000 ₽: каждый недополученный показ — упущенная заявка.',
    );
    expect(found.fix).toBe('Поднимите дневной бюджет (например, до 1 300 ₽); если бюджет не увеличить — включите распределённый режим показов, чтобы объявления показывались весь день, а не до обеда.');
    expect(found.evidence[1]).toEqual({ label: 'Доля дней с расходом', value: 0.3103, threshold: 0.3, setting: 'dailyBudgetLimitedDaysShare', unit: 'share' });
  });

  it('search and networks in one campaign: the network spend over the search CPA', () => {
    const found = finding('settings.search_networks_mixed', 'Окна — Поиск и РСЯ');
    expect(found.explanation).toBe(
      'Кампания «Окна — Поиск и РСЯ» показывается и на поиске, и в сетях (в сетях — по стратегии поиска): это разные аудитории с разной ценой клика и конверсии, а стратегия и объявления у них одни. В сетях конверсия стоила 2 000 ₽, на поиске — 800 ₽. Переплата 2 400 ₽ за период, 2 400 ₽ в месяц.',
    );
    expect(found.fix).toBe('Разделите кампанию: здесь оставьте только поиск (в сетях — «Показы отключены»), а для РСЯ создайте отдельную кампанию с объявлениями с изображениями и своей стратегией.');
    expect([found.money, found.moneyPerMonth]).toEqual([2400, 2400]);
  });
});

describe('a unified campaign (ЕПК) on search and networks', () => {
  it('is flagged only when its networks do worse than its search by the setting\'s multiple', async () => {
    const data = structuredClone(defectsData);
    const campaign = data.campaigns.find((item) => item.externalId === '1006')!;
    campaign.type = 'unified';
    const mixed = async () => settingsFindings((await analyse(structuredClone(data), project)).scoring).filter((item) => item.checkId === 'settings.search_networks_mixed');
    expect((await mixed()).map((item) => item.money)).toEqual([2400]);
    // Networks at 1 000 ₽ a conversion against 800 ₽ on search: under 1,5 ×, by design.
    campaign.placementStats!.networks = { ...campaign.placementStats!.networks!, conversions: 4 };
    expect(await mixed()).toEqual([]);
  });
});

describe('schedule', () => {
  it('off on the weekdays that bring a fifth of the account\'s conversions', () => {
    const found = finding('settings.schedule_off_converting_days', 'Окна — Максимум конверсий');
    expect(found.explanation).toBe('Кампания «Окна — Максимум конверсий» не показывается по субботам и воскресеньям, а на эти дни недели пришлось 21,62 % конверсий аккаунта за период (8 из 37).');
    expect(found.fix).toBe('Включите показы по субботам и воскресеньям хотя бы с коэффициентом 50 % и через 2 недели сравните цену конверсии в эти дни с остальными.');
    // Said once: the weekend finding would repeat it.
    expect(defects.some((item) => item.checkId === 'settings.schedule_weekend_off')).toBe(false);
  });

  it('off all weekend, when no daily statistics say more', async () => {
    const { data } = await read(settingsDefectsAccount(), false);
    const findings = settingsFindings((await analyse(data, project)).scoring).filter((item) => item.checkId.startsWith('settings.schedule'));
    expect(findings.map((item) => [item.checkId, item.target.campaignName])).toEqual([['settings.schedule_weekend_off', 'Окна — Максимум конверсий']]);
    expect(plain(findings[0]!.explanation)).toBe('Кампания «Окна — Максимум конверсий» не показывается ни в субботу, ни в воскресенье: в выходные по её запросам показываются только конкуренты.');
    expect(plain(findings[0]!.fix)).toBe('Если заявки в выходные принимают — включите показы в субботу и воскресенье с коэффициентом 50 % и через 2 недели сравните цену конверсии с буднями. Если не принимают — расписание верное.');
  });
});

describe('geography', () => {
  /** «ОкнаПро» with the group of `id` moved to Москва: the other outside group is then alone in its campaign. */
  async function onlyOutside(movedGroupId: string) {
    const data = structuredClone(defectsData);
    const group = data.campaigns.flatMap((campaign) => campaign.groups).find((item) => item.externalId === movedGroupId)!;
    group.regionIds = [213];
    group.region = '213';
    const found = settingsFindings((await analyse(data, project)).scoring).filter((item) => item.checkId === 'settings.geo_outside_home');
    expect(found).toHaveLength(1);
    return { ...found[0]!, explanation: plain(found[0]!.explanation), fix: plain(found[0]!.fix) };
  }

  it('a group wholly outside the project\'s region: all its spend', async () => {
    const found = await onlyOutside('2010');
    expect(found.target.groupName).toBe('Окна Казань');
    expect(found.explanation).toBe('Группа «Окна Казань» показывается в регионе «Казань», а регион проекта — «Москва»: все её показы уходят людям, которым вы не продаёте (1 500 ₽ за период, 1 500 ₽ в месяц).');
    expect(found.fix).toBe('Уберите «Казань» из регионов группы, если туда нет доставки, или укажите этот регион в проекте.');
    expect([found.money, found.moneyPerMonth]).toEqual([1500, 1500]);
  });

  it('a group shown all over Russia: part of it outside, no money (the regions\' share is not reported)', async () => {
    const found = await onlyOutside('2011');
    expect(found.target.groupName).toBe('Окна Россия');
    expect(found.explanation).toBe('Группа «Окна Россия» показывается в регионе «Россия», а регион проекта — «Москва»: часть показов уходит людям, которым вы не продаёте.');
    expect(found.fix).toBe('Оставьте в регионах группы «Москва» или, если доставка есть и в другие регионы, заведите для них отдельную группу со своими объявлениями и ценами.');
    expect(found.money).toBeUndefined();
  });

  it('several groups of a campaign outside the region: one finding at the campaign, the money of all', () => {
    const found = finding('settings.geo_outside_home', 'Окна — регионы');
    expect(found.explanation).toBe('В кампании «Окна — регионы» 2 группы показываются в регионах вне региона проекта. Вместе 1 500 ₽ в месяц. Больше всего денег: «Окна Казань» — 1 500 ₽ в месяц, «Окна Россия».');
    expect(found.items!.map((item) => [item.target.groupName, item.evidence[0]!.value, item.money])).toEqual([
      ['Окна Казань', 'Казань', 1500],
      ['Окна Россия', 'Россия', undefined],
    ]);
    expect([found.money, found.moneyPerMonth]).toEqual([1500, 1500]);
  });

  it('groups of one campaign competing for Moscow with the same keyword', () => {
    const found = finding('settings.geo_competing_groups', 'Окна Россия');
    expect(found.explanation).toBe(
      'Группы «Окна Россия» («Россия») и «Окна Москва» («Москва») кампании «Окна — регионы» показываются по одним и тем же фразам (1: «окна пвх»), а регион «Москва» есть у обеих: там показы достаются то одной группе, то другой.',
    );
    expect(found.fix).toBe('Исключите «Москва» из регионов группы «Окна Россия» (в Директе — минус-регион), чтобы запросы оттуда получала группа «Окна Москва» со своими объявлениями.');
  });
});

describe('geography: a broad group against several regional ones', () => {
  it('one finding for the broad group, naming the first regional group and the others', async () => {
    const data = structuredClone(defectsData);
    data.campaigns.find((campaign) => campaign.externalId === '1009')!.groups.push({
      externalId: '2099', name: 'Окна Петербург', regionIds: [2], region: '2', negativeKeywords: [], ads: [],
      keywords: [{ externalId: '3099', phrase: 'окна пвх', negativeWords: [], matchType: 'broad', status: 'accepted' }],
    });
    const found = settingsFindings((await analyse(data, project)).scoring).filter((item) => item.checkId === 'settings.geo_competing_groups');
    expect(found).toHaveLength(1);
    expect(found[0]!.target.groupName).toBe('Окна Россия');
    expect(plain(found[0]!.explanation)).toBe(
      'Группы «Окна Россия» («Россия») и «Окна Москва» («Москва») и другие группы с более узкими регионами кампании «Окна — регионы» показываются по одним и тем же фразам (1: «окна пвх»), а регион «Москва» есть у обеих: там показы достаются то одной группе, то другой.',
    );
    expect(plain(found[0]!.fix)).toBe('Исключите регионы региональных групп из регионов группы «Окна Россия» (в Директе — минус-регион), чтобы запросы оттуда получала группа «Окна Москва» и другие региональные группы со своими объявлениями.');
  });
});

describe('bid adjustments', () => {
  it('mobile −100 %', () => {
    const found = finding('settings.mobile_off', 'Окна — Поиск и РСЯ');
    expect(found.explanation).toBe('Корректировка кампании «Окна — Поиск и РСЯ» на мобильные −100 %: объявления не показываются на смартфонах, а в большинстве тематик оттуда приходит бо́льшая часть запросов.');
    expect(found.fix).toBe(
      'Если сайт удобен на телефоне — замените −100 % на умеренную понижающую корректировку (например, −30 %) и через 2 недели сравните цену конверсии со смартфонов и компьютеров в отчёте по типу устройства. Если сайт на телефоне неудобен — начните с мобильной версии.',
    );
  });

  it('extreme values: +600 % on a campaign, −95 % on a group', () => {
    const up = finding('settings.bid_adjustment_extreme', 'Окна — Поиск и РСЯ');
    expect(up.explanation).toBe('Корректировка кампании «Окна — Поиск и РСЯ» по полу и возрасту («женщины 18–24») +600 %: ставка для этой аудитории в 7 раз выше обычной — клики и конверсии оттуда покупаются почти по любой цене.');
    expect(up.fix).toBe('Снизьте корректировку до +100…+200 % и проверьте в отчёте по этой аудитории, окупаются ли её конверсии; повышайте шагами, если окупаются.');
    expect(up.evidence).toEqual([{ label: 'Корректировка, %', value: 600, threshold: 500, setting: 'bidAdjustmentMaxIncrease', unit: 'count' }]);
    const down = finding('settings.bid_adjustment_extreme', 'Окна ПВХ');
    expect(down.explanation).toBe(
      'Корректировка группы «Окна ПВХ» по полу и возрасту («мужчины от 55») −95 %: показы этой аудитории почти выключены, но не совсем — редкие показы всё равно идут, а ставка на них в 20 раз ниже обычной и не выигрывает аукцион.',
    );
    expect(down.fix).toBe('Если эта аудитория не нужна — выключите её явно (−100 %). Если нужна — поставьте −50 % и через 2 недели сравните цену конверсии.');
  });

  it('a regional adjustment for a region no group shows in', () => {
    const found = finding('settings.bid_adjustment_no_effect', 'Окна — Поиск и РСЯ');
    expect(found.explanation).toBe('Корректировка кампании «Окна — Поиск и РСЯ» по региону «Санкт-Петербург» +50 % не действует: ни одна группа кампании в этом регионе не показывается.');
    expect(found.fix).toBe('Удалите корректировку или добавьте «Санкт-Петербург» в регионы групп, если показы там нужны.');
  });
});

describe('states', () => {
  it('an ended campaign with accepted keywords', () => {
    const found = finding('settings.campaign_ended', 'Окна — весенняя акция');
    expect(found.explanation).toBe(
      'Кампания «Окна — весенняя акция» завершилась 15.03.2024: дата окончания прошла, объявления не показываются, хотя в ней 1 фраза, принятая модерацией. До остановки за период она принесла 3 конверсии по 800 ₽.',
    );
    expect(found.fix).toBe('Если кампания нужна — продлите или уберите дату окончания в параметрах кампании. Если нет — отправьте её в архив, чтобы она не числилась среди рабочих.');
  });

  it('a stopped campaign that converted at no more than the target', () => {
    const found = finding('settings.campaign_stopped_converting', 'Окна — на паузе');
    expect(found.explanation).toBe('Кампания «Окна — на паузе» остановлена, хотя её фразы приняты модерацией, а за период она принесла 4 конверсии по 500 ₽ — не дороже ориентира (целевая цена конверсии проекта 1 000 ₽).');
    expect(found.fix).toBe('Если остановка случайная (закончились деньги, забыли включить после паузы) — возобновите кампанию. Если намеренная — отправьте её в архив, чтобы она не числилась среди рабочих.');
  });
});

describe('autotargeting', () => {
  it('spending two target CPAs without a conversion: all its cost; the fix fits manual bids', () => {
    const found = finding('settings.autotargeting_waste', 'Окна Москва');
    expect(found.explanation).toBe('Автотаргетинг группы «Окна Москва» потратил 2 500 ₽ (2 500 ₽ в месяц) за 100 кликов без конверсий — не меньше 2 цен конверсии (целевая цена конверсии проекта 1 000 ₽).');
    expect(found.fix).toBe(
      'Посмотрите запросы автотаргетинга в отчёте по поисковым запросам и добавьте нецелевые в минус-слова; оставьте в автотаргетинге только целевые запросы (или снизьте его ставку). Если запросов с заявками нет — выключите автотаргетинг в группе.',
    );
    expect([found.money, found.moneyPerMonth]).toEqual([2500, 2500]);
  });

  it('all categories on', () => {
    const found = finding('settings.autotargeting_all_categories', 'Окна Москва');
    expect(found.explanation).toBe(
      'В автотаргетинге группы «Окна Москва» включены все категории запросов: кроме целевых — альтернативные, с конкурентами, широкие и сопутствующие. Объявление показывается по запросам, далёким от фраз группы.',
    );
    expect(found.fix).toBe('Оставьте в автотаргетинге целевые запросы; широкие, сопутствующие, альтернативные и запросы с конкурентами включайте по одной, если отчёт по поисковым запросам покажет, что они приводят заявки.');
  });
});

describe('strategy-aware wording', () => {
  /** «ОкнаПро» with campaign `id` on another strategy, audited again. */
  async function withStrategy(id: string, strategy: CampaignData['campaigns'][number]['strategy']) {
    const data = structuredClone(defectsData);
    data.campaigns.find((campaign) => campaign.externalId === id)!.strategy = strategy;
    return settingsFindings((await analyse(data, project)).scoring);
  }

  it('no autotargeting bid advice where Direct sets the bids', async () => {
    const findings = await withStrategy('1009', { search: { type: 'WB_MAXIMUM_CLICKS', bidding: 'automatic', weeklyBudget: 20000 }, networks: { type: 'SERVING_OFF', bidding: 'off' } });
    const found = findings.find((item) => item.checkId === 'settings.autotargeting_waste')!;
    expect(plain(found.fix)).toBe(
      'Посмотрите запросы автотаргетинга в отчёте по поисковым запросам и добавьте нецелевые в минус-слова; оставьте в автотаргетинге только целевые запросы (ставку автотаргетинга при автоматической стратегии назначает Директ, поэтому управлять можно только категориями и минус-словами). Если запросов с заявками нет — выключите автотаргетинг в группе.',
    );
    expect(found.fix).not.toContain('снизьте его ставку');
  });

  it('in a conversion strategy an adjustment raises the price of a conversion, not a bid', async () => {
    const findings = await withStrategy('1006', { search: { type: 'AVERAGE_CPA', bidding: 'automatic', targetCpa: 800, weeklyBudget: 20000, goalId: '111' }, networks: { type: 'NETWORK_DEFAULT', bidding: 'automatic' } });
    const found = findings.find((item) => item.checkId === 'settings.bid_adjustment_extreme' && item.target.level === 'campaign')!;
    expect(plain(found.explanation)).toBe(
      'Корректировка кампании «Окна — Поиск и РСЯ» по полу и возрасту («женщины 18–24») +600 %: цена конверсии для этой аудитории в 7 раз выше обычной — клики и конверсии оттуда покупаются почти по любой цене.',
    );
  });
});

describe('no false positives', () => {
  it('every settings check fires on «ОкнаПро» exactly where its defect is', () => {
    const settingsChecks = checkRegistry.filter((check) => check.id.startsWith('settings.')).map((check) => check.id);
    expect(settingsChecks).toHaveLength(19);
    expect(new Set(defects.map((item) => item.checkId))).toEqual(new Set(settingsChecks.filter((id) => id !== 'settings.schedule_weekend_off')));
    expect(defects).toHaveLength(19);
  });

  it('the account a specialist set up gets no settings finding', async () => {
    const { data } = await read(settingsCleanAccount());
    // The clean account has what the checks read: strategies, a schedule, adjustments, autotargeting categories, daily statistics.
    expect(data.campaigns[0]!.bidAdjustments).toHaveLength(3);
    expect(data.campaigns[0]!.dailyStats).toHaveLength(30);
    expect(settingsFindings((await analyse(data, project)).scoring)).toEqual([]);
  });

  it('a file import (no strategy, schedule, adjustments or daily statistics) gets only what its statistics show: the autotargeting spend', async () => {
    const strip = ({ strategy: _s, schedule: _t, bidAdjustments: _b, dailyStats: _d, state: _st, endDate: _e, ...rest }: CampaignData['campaigns'][number]) => rest;
    const asFile: CampaignData = { ...defectsData, campaigns: defectsData.campaigns.map((campaign) => ({ ...strip(campaign), placement: undefined, groups: campaign.groups.map(({ regionIds: _r, bidAdjustments: _g, ...group }) => ({ ...group, region: undefined, keywords: group.keywords.map(({ autotargetingCategories: _c, ...keyword }) => keyword) })) })) };
    expect(settingsFindings((await analyse(asFile, project)).scoring).map((item) => [item.checkId, item.target.groupName])).toEqual([['settings.autotargeting_waste', 'Окна Москва']]);
  });
});
