/**
 * What the settings checks (settings-*.ts, issue 22) share: the campaign's working strategy, the CPA
 * a campaign is compared with, and the Russian words for counts and weekdays. The settings come from
 * the Direct API import; a campaign read from files has none of them, and every check stays silent.
 */
import type { Evidence } from '../../../../contract/analysis-results.js';
import type { BiddingStrategy, Campaign, Stats } from '../../../../contract/campaigns.js';
import { formatCountOf } from '../../../../contract/format.js';
import type { PreparedCampaign } from '../../semantic/prepare.js';
import { formatRub, rub, type ScoringContext } from '../context.js';
import { campaignStatsOf } from './statistics.js';

export const cpaOf = (stats: Stats | undefined) => (stats && stats.conversions > 0 ? stats.cost / stats.conversions : null);

export const conversionsText = (count: number) => formatCountOf(count, ['конверсию', 'конверсии', 'конверсий']);
export const clicksText = (count: number) => formatCountOf(count, ['клик', 'клика', 'кликов']);
/** «из 21 дня», «из 29 дней». */
export const daysGenitive = (count: number) => formatCountOf(count, ['дня', 'дней', 'дней']);

/** Strategies that optimise for a Metrica goal (annex «Типы стратегий»); the `_MULTIPLE_GOALS` ones take their goals from `PriorityGoals`. */
const CONVERSION_STRATEGIES = new Set([
  'WB_MAXIMUM_CONVERSION_RATE',
  'AVERAGE_CPA',
  'AVERAGE_CRR',
  'PAY_FOR_CONVERSION',
  'PAY_FOR_CONVERSION_CRR',
  'AVERAGE_CPA_MULTIPLE_GOALS',
  'PAY_FOR_CONVERSION_MULTIPLE_GOALS',
]);
export const isConversionStrategy = (strategy: BiddingStrategy) => CONVERSION_STRATEGIES.has(strategy.type);
export const hasGoalsElsewhere = (strategy: BiddingStrategy) => strategy.type.endsWith('_MULTIPLE_GOALS');
/** Click strategies: «Максимум кликов» and «Максимум кликов со средней ценой клика». */
export const isClickStrategy = (strategy: BiddingStrategy) => strategy.type === 'WB_MAXIMUM_CLICKS' || strategy.type === 'AVERAGE_CPC';

/**
 * The strategy that runs the campaign: the search one when search is on, else the network one; none
 * when the import did not read a strategy or both placements are off. (Networks on `NETWORK_DEFAULT`
 * follow the search strategy, so the search one speaks for both.)
 */
export function workingStrategy(campaign: Campaign): { strategy: BiddingStrategy; placement: 'search' | 'networks' } | undefined {
  const strategy = campaign.strategy;
  if (strategy?.search && strategy.search.bidding !== 'off') return { strategy: strategy.search, placement: 'search' };
  if (strategy?.networks && strategy.networks.bidding !== 'off') return { strategy: strategy.networks, placement: 'networks' };
  return undefined;
}

/** Both placements on (Direct: neither strategy `SERVING_OFF`). */
export function showsOnBoth(campaign: Campaign): boolean {
  const strategy = campaign.strategy;
  return Boolean(strategy?.search && strategy.networks && strategy.search.bidding !== 'off' && strategy.networks.bidding !== 'off');
}

/**
 * A campaign's statistics (its own, else the sum of its keywords' or ads'), summed once per campaign:
 * several checks ask, and on a big account without campaign rows each sum walks every keyword.
 */
const campaignTotals = new WeakMap<PreparedCampaign, { stats: Stats | undefined }>();
export function statsOfCampaign(campaign: PreparedCampaign): Stats | undefined {
  let entry = campaignTotals.get(campaign);
  if (!entry) campaignTotals.set(campaign, (entry = { stats: campaignStatsOf(campaign) }));
  return entry.stats;
}

/** The campaign's statistics on the strategy's placement: the split when there is one, else the whole campaign. */
export function statsOfStrategy(campaign: PreparedCampaign, placement: 'search' | 'networks'): Stats | undefined {
  return campaign.campaign.placementStats?.[placement] ?? statsOfCampaign(campaign);
}

export interface CpaBenchmark {
  value: number;
  evidence: Evidence;
  /** «целевая цена конверсии проекта 500 ₽» / «цена конверсии аккаунта 620 ₽». */
  label: string;
}

/** The project's target CPA, else the account's CPA over every campaign; none without conversions. */
export function cpaBenchmark(context: ScoringContext): CpaBenchmark | null {
  const target = context.settings.targetCpa;
  if (target !== null) return { value: target, evidence: { label: 'Целевая цена конверсии', value: rub(target), setting: 'targetCpa', unit: 'rub' }, label: `целевая цена конверсии проекта ${formatRub(target)}` };
  let cost = 0;
  let conversions = 0;
  for (const campaign of context.account.campaigns) {
    const stats = statsOfCampaign(campaign);
    if (!stats) continue;
    cost += stats.cost;
    conversions += stats.conversions;
  }
  if (conversions === 0) return null;
  const value = cost / conversions;
  return { value, evidence: { label: 'Цена конверсии аккаунта', value: rub(value), unit: 'rub' }, label: `цена конверсии аккаунта ${formatRub(value)}` };
}

/** The money fields of a finding priced over the statistics period. */
export function periodMoney(context: ScoringContext, money: number) {
  return { money, monthFactor: context.facts.monthFactor, period: context.facts.period ?? undefined };
}

/** Monday first, as `WeekSchedule.days`: «по понедельникам» … «по воскресеньям». */
const weekdaysDative = ['понедельникам', 'вторникам', 'средам', 'четвергам', 'пятницам', 'субботам', 'воскресеньям'];

/** «по субботам и воскресеньям», «по понедельникам, средам и пятницам». */
export function weekdaysPhrase(days: number[]): string {
  const names = days.map((day) => weekdaysDative[day]!);
  return `по ${names.length > 1 ? `${names.slice(0, -1).join(', ')} и ${names[names.length - 1]}` : names[0]}`;
}

/** «31.12.2024» from an ISO date. */
export function russianDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}.${month}.${year}`;
}
