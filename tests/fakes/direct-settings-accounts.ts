/**
 * Direct accounts for the settings checks (issue 22), served by the fake Direct API
 * (yandex-direct-fake.ts) in the API's own shapes: money in millionths of a rouble, strategies with
 * their parameter structures, schedules as `TimeTargeting.Schedule.Items`, bid adjustments as
 * `bidmodifiers.get` answers, day-by-day rows of `CAMPAIGN_PERFORMANCE_REPORT`.
 *
 * «ОкнаПро» (`settingsDefectsAccount`) has one settings defect or two per campaign; `settingsCleanAccount`
 * is set up the way a specialist would leave it. Period: 1–30 March 2024 (30 days: money per month is
 * the period's). The project: region Москва, target CPA 1 000 ₽.
 */
import type { ApiObject, FakeDirectAccount } from './yandex-direct-fake.js';

export const settingsPeriod = { from: '2024-03-01', to: '2024-03-30' };
const DAYS = Array.from({ length: 30 }, (_, index) => `2024-03-${String(index + 1).padStart(2, '0')}`);
/** 2024-03-01 is a Friday: weekday index (Monday 0) of each day of the period. */
const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
const isWeekend = (date: string) => weekdayOf(date) >= 5;

const micros = (roubles: number) => Math.round(roubles * 1_000_000);

type Strategy = Record<string, unknown>;
const off: Strategy = { BiddingStrategyType: 'SERVING_OFF' };
const manualSearch: Strategy = { BiddingStrategyType: 'HIGHEST_POSITION' };

interface KeywordSpec {
  id: number;
  text: string;
  /** [impressions, clicks, cost ₽, conversions] on search (and networks when `network` is given). */
  stats?: [number, number, number, number];
  network?: [number, number, number, number];
  categories?: Record<string, 'YES' | 'NO'>;
}

interface GroupSpec {
  id: number;
  name: string;
  regions: number[];
  keywords: KeywordSpec[];
}

interface CampaignSpec {
  id: number;
  name: string;
  search: Strategy;
  network: Strategy;
  groups: GroupSpec[];
  state?: string;
  endDate?: string;
  dailyBudget?: number;
  /** 7 strings «day,24 coefficients». */
  schedule?: string[];
  /** Day-by-day [cost ₽, conversions] of the daily report. */
  daily?: [number, number][];
}

interface Built {
  campaigns: ApiObject[];
  adGroups: ApiObject[];
  ads: ApiObject[];
  keywords: ApiObject[];
  custom: Record<string, string | number>[];
  daily: Record<string, string | number>[];
}

function build(specs: CampaignSpec[]): Built {
  const built: Built = { campaigns: [], adGroups: [], ads: [], keywords: [], custom: [], daily: [] };
  for (const spec of specs) {
    built.campaigns.push({
      Id: spec.id, Name: spec.name, Type: 'TEXT_CAMPAIGN', State: spec.state ?? 'ON', Status: 'ACCEPTED', Currency: 'RUB',
      DailyBudget: spec.dailyBudget ? { Amount: micros(spec.dailyBudget), Mode: 'STANDARD' } : null,
      NegativeKeywords: { Items: ['бесплатно', 'своими руками'] }, StartDate: '2024-01-10', EndDate: spec.endDate ?? null, TimeZone: 'Europe/Moscow',
      ...(spec.schedule ? { TimeTargeting: { Schedule: { Items: spec.schedule }, ConsiderWorkingWeekends: 'YES' } } : {}),
      TextCampaign: { BiddingStrategy: { Search: spec.search, Network: spec.network } },
    });
    for (const group of spec.groups) {
      built.adGroups.push({ Id: group.id, Name: group.name, CampaignId: spec.id, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: group.regions, NegativeKeywords: null });
      const adId = group.id * 10;
      built.ads.push({
        Id: adId, AdGroupId: group.id, CampaignId: spec.id, State: 'ON', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
        TextAd: { Title: `${group.name} от производителя`, Title2: 'Замер бесплатно', Text: 'Пластиковые окна с гарантией 10 лет. Монтаж за 1 день.', Href: 'https://oknapro.example/?utm_source=yandex&utm_medium=cpc', DisplayUrlPath: 'okna', Mobile: 'NO', SitelinkSetId: null, AdExtensions: [] },
      });
      for (const keyword of group.keywords) {
        built.keywords.push({
          Id: keyword.id, Keyword: keyword.text, AdGroupId: group.id, CampaignId: spec.id, Bid: micros(20), ContextBid: 0, State: 'ON', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE',
          ...(keyword.categories ? { AutotargetingCategories: { Items: Object.entries(keyword.categories).map(([Category, Value]) => ({ Category, Value })) } } : {}),
        });
        const row = (type: string, [impressions, clicks, cost, conversions]: [number, number, number, number]) =>
          built.custom.push({ CampaignId: spec.id, AdGroupId: group.id, AdId: adId, CriterionId: keyword.id, CriterionType: keyword.text === '---autotargeting' ? 'AUTOTARGETING' : 'KEYWORD', AdNetworkType: type, Impressions: impressions, Clicks: clicks, Cost: cost.toFixed(2), Conversions: conversions });
        if (keyword.stats) row('SEARCH', keyword.stats);
        if (keyword.network) row('AD_NETWORK', keyword.network);
      }
    }
    spec.daily?.forEach(([cost, conversions], index) => {
      if (cost > 0 || conversions > 0) built.daily.push({ Date: DAYS[index]!, CampaignId: spec.id, Impressions: Math.round(cost * 3), Clicks: Math.round(cost / 40), Cost: cost.toFixed(2), Conversions: conversions });
    });
  }
  return built;
}

function account(built: Built, bidModifiers: ApiObject[]): FakeDirectAccount {
  return {
    campaigns: built.campaigns,
    adGroups: built.adGroups,
    ads: built.ads,
    keywords: built.keywords,
    sitelinksSets: [],
    adExtensions: [],
    adImages: [],
    bidModifiers,
    reportRows: { CUSTOM_REPORT: built.custom, SEARCH_QUERY_PERFORMANCE_REPORT: [], CAMPAIGN_PERFORMANCE_REPORT: built.daily },
  };
}

const allHours = (coefficient: number) => Array<number>(24).fill(coefficient).join(',');
/** Weekdays 9–21, off all weekend. */
const weekdaysOnly = [1, 2, 3, 4, 5].map((day) => `${day},${Array.from({ length: 24 }, (_, hour) => (hour >= 9 && hour < 21 ? 100 : 0)).join(',')}`).concat([`6,${allHours(0)}`, `7,${allHours(0)}`]);
const everyDay = [1, 2, 3, 4, 5, 6, 7].map((day) => `${day},${allHours(100)}`);

/** `count` conversions spread over the given days (one a day, in order), the cost evenly. */
function spread(cost: number, conversions: number, on: (date: string) => boolean): [number, number][] {
  const days = DAYS.filter(on);
  let left = conversions;
  return DAYS.map((date) => {
    if (!on(date)) return [0, 0];
    const today = left > 0 ? Math.ceil(left / Math.max(1, days.length - days.indexOf(date))) : 0;
    left -= today;
    return [Math.round((cost / days.length) * 100) / 100, today];
  });
}

const allCategoriesOn = { EXACT: 'YES', ALTERNATIVE: 'YES', COMPETITOR: 'YES', BROADER: 'YES', ACCESSORY: 'YES' } as const;

export function settingsDefectsAccount(): FakeDirectAccount {
  // Manual bids with a daily budget of 1 000 ₽ spent in full on 9 of 29 days with spend (31 %).
  const manualDaily: [number, number][] = DAYS.map((date, index) => (index === 29 ? [0, 0] : index < 9 ? [1000, index < 6 ? 1 : 0] : [30, index < 15 ? 1 : 0]));
  const built = build([
    { id: 1001, name: 'Окна — ручные ставки', search: manualSearch, network: off, dailyBudget: 1000, daily: manualDaily, groups: [{ id: 2001, name: 'Пластиковые окна', regions: [213], keywords: [{ id: 3001, text: 'пластиковые окна', stats: [20000, 480, 9600, 12] }] }] },
    {
      id: 1002, name: 'Окна — Максимум кликов', search: { BiddingStrategyType: 'WB_MAXIMUM_CLICKS', WbMaximumClicks: { WeeklySpendLimit: micros(20000) } }, network: off,
      // 5 of its 15 conversions on weekends.
      daily: DAYS.map((date) => {
        const nth = DAYS.filter((day) => isWeekend(day) === isWeekend(date)).indexOf(date);
        return isWeekend(date) ? [600, nth < 5 ? 1 : 0] : [300, nth < 10 ? 1 : 0];
      }),
      groups: [{ id: 2002, name: 'Окна ПВХ', regions: [213], keywords: [{ id: 3002, text: 'окна пвх цена', stats: [30000, 600, 12000, 15] }] }],
    },
    {
      id: 1003, name: 'Окна — Максимум конверсий', search: { BiddingStrategyType: 'AVERAGE_CPA', AverageCpa: { AverageCpa: micros(500), WeeklySpendLimit: micros(3000), GoalId: 111 } }, network: off, schedule: weekdaysOnly,
      daily: spread(9000, 10, (date) => !isWeekend(date)),
      groups: [{ id: 2003, name: 'Окна в квартиру', regions: [213], keywords: [{ id: 3003, text: 'окна в квартиру', stats: [15000, 300, 9000, 10] }] }],
    },
    {
      id: 1004, name: 'Окна — Оплата за конверсии', search: { BiddingStrategyType: 'PAY_FOR_CONVERSION', PayForConversion: { Cpa: micros(1000), WeeklySpendLimit: micros(20000) } }, network: off,
      groups: [{ id: 2004, name: 'Окна на дачу', regions: [213], keywords: [{ id: 3004, text: 'окна на дачу', stats: [8000, 200, 5000, 5] }] }],
    },
    {
      id: 1005, name: 'Окна — Максимум конверсий без конверсий', search: { BiddingStrategyType: 'WB_MAXIMUM_CONVERSION_RATE', WbMaximumConversionRate: { WeeklySpendLimit: micros(50000), GoalId: 222 } }, network: off,
      groups: [{ id: 2005, name: 'Окна в дом', regions: [213], keywords: [{ id: 3005, text: 'окна в частный дом', stats: [9000, 150, 6000, 0] }] }],
    },
    {
      id: 1006, name: 'Окна — Поиск и РСЯ', search: manualSearch, network: { BiddingStrategyType: 'NETWORK_DEFAULT', NetworkDefault: {} },
      groups: [{ id: 2006, name: 'Окна недорого', regions: [213], keywords: [{ id: 3006, text: 'окна недорого', stats: [10000, 200, 6400, 8], network: [40000, 160, 4000, 2] }] }],
    },
    { id: 1007, name: 'Окна — весенняя акция', search: manualSearch, network: off, state: 'ENDED', endDate: '2024-03-15', groups: [{ id: 2007, name: 'Акция', regions: [213], keywords: [{ id: 3007, text: 'окна акция', stats: [4000, 80, 2400, 3] }] }] },
    { id: 1008, name: 'Окна — на паузе', search: manualSearch, network: off, state: 'SUSPENDED', groups: [{ id: 2008, name: 'Балконы', regions: [213], keywords: [{ id: 3008, text: 'остекление балкона', stats: [3000, 100, 2000, 4] }] }] },
    {
      id: 1009, name: 'Окна — регионы', search: manualSearch, network: off,
      groups: [
        { id: 2009, name: 'Окна Москва', regions: [213], keywords: [{ id: 3009, text: 'окна пвх', stats: [2000, 40, 800, 1] }, { id: 3010, text: '---autotargeting', stats: [5000, 100, 2500, 0], categories: allCategoriesOn }] },
        { id: 2010, name: 'Окна Россия', regions: [225], keywords: [{ id: 3011, text: 'окна пвх', stats: [3000, 50, 1000, 1] }] },
        { id: 2011, name: 'Окна Казань', regions: [43], keywords: [{ id: 3012, text: 'окна пвх казань', stats: [2000, 60, 1500, 0] }] },
      ],
    },
  ]);
  return account(built, [
    { Id: 1, CampaignId: 1006, AdGroupId: null, Level: 'CAMPAIGN', Type: 'MOBILE_ADJUSTMENT', MobileAdjustment: { BidModifier: 0 } },
    { Id: 2, CampaignId: 1006, AdGroupId: null, Level: 'CAMPAIGN', Type: 'DEMOGRAPHICS_ADJUSTMENT', DemographicsAdjustment: { Gender: 'GENDER_FEMALE', Age: 'AGE_18_24', BidModifier: 700, Enabled: 'YES' } },
    { Id: 3, CampaignId: 1006, AdGroupId: null, Level: 'CAMPAIGN', Type: 'REGIONAL_ADJUSTMENT', RegionalAdjustment: { RegionId: 2, BidModifier: 150, Enabled: 'YES' } },
    { Id: 4, CampaignId: 1002, AdGroupId: 2002, Level: 'AD_GROUP', Type: 'DEMOGRAPHICS_ADJUSTMENT', DemographicsAdjustment: { Gender: 'GENDER_MALE', Age: 'AGE_55', BidModifier: 5, Enabled: 'YES' } },
    // Switched off: not an adjustment at all.
    { Id: 5, CampaignId: 1001, AdGroupId: null, Level: 'CAMPAIGN', Type: 'DEMOGRAPHICS_ADJUSTMENT', DemographicsAdjustment: { Gender: 'GENDER_MALE', Age: 'AGE_0_17', BidModifier: 1000, Enabled: 'NO' } },
  ]);
}

export function settingsCleanAccount(): FakeDirectAccount {
  const built = build([
    {
      id: 1101, name: 'Окна — Поиск', search: { BiddingStrategyType: 'AVERAGE_CPA', AverageCpa: { AverageCpa: micros(1000), WeeklySpendLimit: micros(15000), GoalId: 111 } }, network: off, schedule: everyDay,
      daily: spread(10800, 12, () => true),
      groups: [
        { id: 2101, name: 'Пластиковые окна', regions: [213], keywords: [{ id: 3101, text: 'пластиковые окна', stats: [20000, 400, 10600, 11] }, { id: 3102, text: '---autotargeting', stats: [1000, 10, 200, 1], categories: { EXACT: 'YES', ALTERNATIVE: 'NO', COMPETITOR: 'NO', BROADER: 'NO', ACCESSORY: 'NO' } }] },
        { id: 2102, name: 'Окна в области', regions: [1], keywords: [{ id: 3103, text: 'окна в загородный дом' }] },
      ],
    },
    {
      id: 1102, name: 'Окна — РСЯ', search: off, network: { BiddingStrategyType: 'WB_MAXIMUM_CONVERSION_RATE', WbMaximumConversionRate: { WeeklySpendLimit: micros(12000), GoalId: 111 } },
      daily: spread(7200, 8, () => true),
      groups: [{ id: 2103, name: 'Окна РСЯ', regions: [213], keywords: [{ id: 3104, text: 'окна от производителя', network: [90000, 300, 7200, 8] }] }],
    },
    {
      id: 1103, name: 'Окна — бренд', search: manualSearch, network: off, dailyBudget: 2000,
      daily: spread(1500, 5, () => true),
      groups: [{ id: 2104, name: 'Бренд', regions: [213], keywords: [{ id: 3105, text: 'окнапро', stats: [3000, 150, 1500, 5] }] }],
    },
  ]);
  return account(built, [
    { Id: 11, CampaignId: 1101, AdGroupId: null, Level: 'CAMPAIGN', Type: 'MOBILE_ADJUSTMENT', MobileAdjustment: { BidModifier: 80 } },
    { Id: 12, CampaignId: 1101, AdGroupId: null, Level: 'CAMPAIGN', Type: 'DEMOGRAPHICS_ADJUSTMENT', DemographicsAdjustment: { Gender: 'GENDER_FEMALE', Age: 'AGE_25_34', BidModifier: 130, Enabled: 'YES' } },
    { Id: 13, CampaignId: 1101, AdGroupId: null, Level: 'CAMPAIGN', Type: 'REGIONAL_ADJUSTMENT', RegionalAdjustment: { RegionId: 213, BidModifier: 120, Enabled: 'YES' } },
  ]);
}
