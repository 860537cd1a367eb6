/**
 * Checks on statistics, with money first. Every campaign has a placement (search, networks or both,
 * ../../placement.ts); a keyword's statistics are judged per placement (the report's split when it has
 * one, else the campaign's placement):
 * - keyword actions against one reference CPA: the project's target CPA, else the account's CPA on the
 *   keyword's placement (the whole account's when that placement's conversions are all this campaign's,
 *   or the campaign shows on both), else none. A campaign's own CPA only describes it (explanations),
 *   never the reference. Stop (0 conversions, cost ≥ 2 × CPA), lower bid (CPA ≥ 1.5 × reference), raise
 *   bid (CPA at least `bidChangeMinDifference` under the reference), hold, keep; fewer than
 *   `minClicksForKeywordAction` clicks = collect data, no verdict. Money verdicts run on every placement;
 * - a campaign spending without conversions (every placement);
 * - search CTR under 2 % on commercial keywords (or far under the account's median search CTR) is low:
 *   search traffic only, the median from search traffic only;
 * - a network CTR of 2 % or more is suspicious, not good (the campaign's network traffic);
 * - clicks far dearer than the account's median CPC on the same placement;
 * - network sites and apps of a placements report that spend without converting (siteChecks).
 * Conversion-based checks run only when the data has conversions at all (else a notice says so).
 * Where the import read the campaign's strategy (../strategy.ts): no bid advice and no «Дорогие клики»
 * under an automatic strategy, and pay-for-conversion traffic stays out of the click-price medians.
 */
import { share, type Evidence, type FindingItem, type KeywordAction, type KeywordVerdict } from '../../../../contract/analysis-results.js';
import type { Placement, Stats, StatsPeriod } from '../../../../contract/campaigns.js';
import { campaignPlacementStats, placementPhrase } from '../../placement.js';
import { intentOf } from '../../semantic/clusters.js';
import { flatString } from '../../semantic/flat-string.js';
import type { PreparedCampaign, PreparedKeyword } from '../../semantic/prepare.js';
import { countOf, examplesSentence, sortItems, sumItemMoney } from '../aggregate.js';
import { formatRub, percent, rub, type ScoringContext } from '../context.js';
import { formatCountOf, pluralRu } from '../../../../contract/format.js';
import { keywordLabel } from '../../../../contract/labels.js';
import { checks, makeFinding } from '../registry.js';
import { automaticStrategy, paysForConversions, strategyPhrase } from '../strategy.js';
import { networkSiteChecks } from './placements.js';

const clicksText = (clicks: number) => formatCountOf(clicks, ['клик', 'клика', 'кликов']);

export function sumStats(list: (Stats | undefined)[]): Stats | undefined {
  let found = false;
  const total: Stats = { impressions: 0, clicks: 0, cost: 0, conversions: 0 };
  for (const stats of list) {
    if (!stats) continue;
    found = true;
    total.impressions += stats.impressions;
    total.clicks += stats.clicks;
    total.cost += stats.cost;
    total.conversions += stats.conversions;
  }
  return found ? total : undefined;
}

export function campaignStatsOf(campaign: PreparedCampaign): Stats | undefined {
  if (campaign.campaign.stats) return campaign.campaign.stats;
  const fromKeywords = sumStats(campaign.groups.flatMap((group) => group.keywords.map((keyword) => keyword.keyword.stats)));
  return fromKeywords ?? sumStats(campaign.groups.flatMap((group) => group.ads.map((ad) => ad.ad.stats)));
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  // A typed array sorts numbers natively, without a comparator call per comparison.
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const cpaOf = (stats: Stats | undefined) => (stats && stats.conversions > 0 ? stats.cost / stats.conversions : null);

type SplitPlacement = 'search' | 'networks';
const splitPlacements: SplitPlacement[] = ['search', 'networks'];

/** Statistics of one keyword on one placement ('both': a campaign on both placements without a split report). */
export interface StatsSlice {
  placement: Placement;
  stats: Stats;
}

/** A keyword's statistics per placement: the report's split when it has one, else all of it on the campaign's placement. */
export function keywordSlices(keyword: PreparedKeyword): StatsSlice[] {
  const split = keyword.keyword.placementStats;
  const slices: StatsSlice[] = [];
  if (split) for (const placement of splitPlacements) if (split[placement]) slices.push({ placement, stats: split[placement]! });
  if (slices.length > 0) return slices;
  return keyword.keyword.stats ? [{ placement: keyword.campaign.placement, stats: keyword.keyword.stats }] : [];
}

/** A campaign's statistics on one placement: the split when the data has one, else all of it when that is the campaign's placement. */
function campaignStatsOn(campaign: PreparedCampaign, placement: SplitPlacement, total: Stats | undefined): Stats | undefined {
  const split = campaignPlacementStats(campaign.campaign);
  if (split) return split[placement];
  return campaign.placement === placement ? total : undefined;
}

/** The CPA a keyword is compared with, and where it comes from. */
export interface CpaReference {
  value: number | null;
  source: KeywordVerdict['referenceCpaSource'];
  placement?: SplitPlacement;
}

/**
 * The reference CPA of each campaign's keywords: the project's target; else the account's CPA on the
 * campaign's placement, when campaigns other than this one have conversions there (otherwise that
 * «account» figure would be the campaign's own CPA again); else the whole account's CPA; else none.
 */
function cpaReferences(campaigns: PreparedCampaign[], campaignStats: Map<PreparedCampaign, Stats | undefined>, targetCpa: number | null): (campaign: PreparedCampaign) => CpaReference {
  const onPlacement = { search: new Map<PreparedCampaign, Stats>(), networks: new Map<PreparedCampaign, Stats>() };
  for (const campaign of campaigns) {
    for (const placement of splitPlacements) {
      const stats = campaignStatsOn(campaign, placement, campaignStats.get(campaign));
      if (stats) onPlacement[placement].set(campaign, stats);
    }
  }
  const placementTotals = { search: sumStats([...onPlacement.search.values()]), networks: sumStats([...onPlacement.networks.values()]) };
  const accountCpa = cpaOf(sumStats([...campaignStats.values()]));
  return (campaign) => {
    if (targetCpa !== null) return { value: targetCpa, source: 'target' };
    if (campaign.placement !== 'both') {
      const placement = campaign.placement;
      const total = placementTotals[placement];
      const own = onPlacement[placement].get(campaign)?.conversions ?? 0;
      if (total && total.conversions > own) return { value: total.cost / total.conversions, source: 'placement', placement };
    }
    return accountCpa !== null ? { value: accountCpa, source: 'account' } : { value: null, source: null };
  };
}

/**
 * Which keywords are informational by their words (no low-CTR verdict: people ask, they do not buy), by
 * index in `account.keywords`, among those with search traffic enough for a CTR verdict. Taken before
 * the engine releases the parsed phrases (engine.ts): the CTR check then reads a byte per keyword.
 */
export function informationalSearchKeywords(context: ScoringContext): Uint8Array {
  const { account, settings } = context;
  const informational = new Uint8Array(account.keywords.length);
  account.keywords.forEach((keyword, index) => {
    const judged = keywordSlices(keyword).some((slice) => slice.placement === 'search' && slice.stats.impressions >= settings.minImpressionsForCtr);
    if (judged && intentOf(keyword.parsed.words) === 'informational') informational[index] = 1;
  });
  return informational;
}

/** What every finding of a statistics check carries: the month factor and period, and the period as evidence. */
interface PeriodTerms {
  common: { monthFactor: number; period: StatsPeriod | undefined };
  periodEvidence: Evidence;
}

/** `informational`: informationalSearchKeywords' answer, taken while the keywords' phrases were there. */
export function runStatisticsChecks(context: ScoringContext, informational: Uint8Array): { wastedSpend: number } {
  const { account, facts, settings } = context;
  if (!facts.hasStatistics) return { wastedSpend: 0 };
  const terms: PeriodTerms = {
    common: { monthFactor: facts.monthFactor, period: facts.period ?? undefined },
    periodEvidence: { label: 'Период, дней', value: facts.periodDays, unit: 'count' },
  };
  const campaignStats = new Map(account.campaigns.map((campaign) => [campaign, campaignStatsOf(campaign)]));
  const referenceOf = cpaReferences(account.campaigns, campaignStats, settings.targetCpa);
  const keywordsRead = keywordStatisticsChecks(context, informational, campaignStats, referenceOf, terms);

  for (const campaign of account.campaigns) {
    const stats = campaignStats.get(campaign);
    if (!stats) {
      siteChecks(campaign, referenceOf(campaign), context, terms.periodEvidence);
      continue;
    }
    campaignWastedSpendCheck(campaign, stats, keywordsRead, context, terms);
    siteChecks(campaign, referenceOf(campaign), context, terms.periodEvidence);
    networkCtrCheck(campaign, stats, context, terms);
  }
  return { wastedSpend: keywordsRead.wastedSpend };
}

/** What the keyword pass leaves for the campaign checks. */
interface KeywordsRead {
  /** The cost of keywords with clicks and no conversions (when the account has conversions at all). */
  wastedSpend: number;
  /** Money already priced by a keyword's stop / lower-bid finding is not counted again by wider findings. */
  pricedCost: Map<PreparedCampaign, number>;
  /**
   * Keywords with clicks and no conversions that no stop finding prices: the items of their campaign's
   * «Расход без конверсий» when the whole campaign has none.
   */
  unpricedWaste: Map<PreparedCampaign, FindingItem[]>;
}

/**
 * Medians of the account itself, per placement (search and network traffic live on different scales);
 * traffic of a campaign on both placements without a split report joins neither.
 */
function accountMedians(context: ScoringContext): { medianSearchCtr: number | null; medianCpc: Record<'search' | 'networks', number | null> } {
  const { account, settings } = context;
  const searchCtrs: number[] = [];
  const cpcs = { search: [] as number[], networks: [] as number[] };
  for (const keyword of account.keywords) {
    for (const { placement, stats } of keywordSlices(keyword)) {
      if (placement === 'both') continue;
      if (placement === 'search' && stats.impressions >= settings.minImpressionsForCtr) searchCtrs.push(stats.clicks / stats.impressions);
      // Paid per conversion, its cost per click is no click price.
      if (stats.clicks > 0 && !paysForConversions(keyword.campaign.campaign, placement)) cpcs[placement].push(stats.cost / stats.clicks);
    }
  }
  return { medianSearchCtr: median(searchCtrs), medianCpc: { search: median(cpcs.search), networks: median(cpcs.networks) } };
}

/** Each keyword's money decision, CTR and click price, counting what its campaign's checks need. */
function keywordStatisticsChecks(
  context: ScoringContext,
  informational: Uint8Array,
  campaignStats: Map<PreparedCampaign, Stats | undefined>,
  referenceOf: (campaign: PreparedCampaign) => CpaReference,
  terms: PeriodTerms,
): KeywordsRead {
  const { account, facts, findings } = context;
  const { medianSearchCtr, medianCpc } = accountMedians(context);
  const read: KeywordsRead = { wastedSpend: 0, pricedCost: new Map(), unpricedWaste: new Map() };
  for (let index = 0; index < account.keywords.length; index++) {
    const keyword = account.keywords[index];
    const slices = keywordSlices(keyword);
    const stats = keyword.keyword.stats ?? sumStats(slices.map((slice) => slice.stats));
    if (!stats) continue;
    if (facts.hasConversions && stats.conversions === 0 && stats.clicks > 0) read.wastedSpend += stats.cost;
    const before = findings.length;
    if (facts.hasConversions) keywordAction(keyword, stats, cpaOf(campaignStats.get(keyword.campaign)), referenceOf(keyword.campaign), context, terms.periodEvidence);
    const priced = findings.length > before && findings.last()!.money !== undefined;
    if (priced) read.pricedCost.set(keyword.campaign, (read.pricedCost.get(keyword.campaign) ?? 0) + stats.cost);
    else if (facts.hasConversions && stats.conversions === 0 && stats.clicks > 0) {
      const items = read.unpricedWaste.get(keyword.campaign) ?? [];
      items.push({
        target: keyword.ref,
        evidence: [
          { label: 'Расход без конверсий', value: rub(stats.cost), unit: 'rub' },
          { label: 'Клики', value: stats.clicks, unit: 'clicks' },
        ],
        money: rub(stats.cost),
        moneyPerMonth: rub(stats.cost * facts.monthFactor),
      });
      read.unpricedWaste.set(keyword.campaign, items);
    }

    for (const slice of slices) {
      if (slice.placement === 'search' && informational[index] === 0) ctrChecks(keyword, slice.stats, medianSearchCtr, context, terms.periodEvidence);
      if (slice.placement === 'both') continue;
      // Under an automatic strategy the click price is the strategy's, not the keyword bid's.
      if (automaticStrategy(keyword.campaign.campaign, slice.placement)) continue;
      // Two placements of one keyword are two findings.
      expensiveClicksCheck(keyword, slice.placement, slice.stats, medianCpc[slice.placement], { priced, suffix: slices.length > 1 ? slice.placement : undefined }, context, terms);
    }
  }
  return read;
}

/** A keyword's clicks on one placement far dearer than the account's median there. */
function expensiveClicksCheck(
  keyword: PreparedKeyword,
  placement: 'search' | 'networks',
  sliceStats: Stats,
  reference: number | null,
  { priced, suffix }: { priced: boolean; suffix: string | undefined },
  context: ScoringContext,
  { common, periodEvidence }: PeriodTerms,
): void {
  const { settings, findings } = context;
  if (!reference || sliceStats.clicks < settings.minClicksForNegative) return;
  const cpc = sliceStats.cost / sliceStats.clicks;
  const limit = reference * settings.expensiveCpcMedianRatio;
  if (cpc < limit) return;
  const overpay = (cpc - reference) * sliceStats.clicks;
  const where = placementPhrase[placement];
  findings.push(makeFinding(checks.expensiveClicks, keyword.ref, {
    ...common,
    explanation: `Клик по фразе «${keywordLabel(keyword.keyword)}» ${where} стоит ${formatRub(cpc)} — ${timesPhrase(cpc / reference)} дороже медианы аккаунта ${where} (${formatRub(reference)}). Переплата ${formatRub(overpay * common.monthFactor)} в месяц.`,
    fix: 'Снизьте ставку или проверьте, окупается ли фраза.',
    evidence: [
      { label: `Цена клика ${where}`, value: rub(cpc), threshold: rub(limit), setting: 'expensiveCpcMedianRatio', unit: 'rub' },
      { label: `Медиана цены клика ${where}`, value: rub(reference), unit: 'rub' },
      { label: 'Клики', value: sliceStats.clicks, threshold: settings.minClicksForNegative, setting: 'minClicksForNegative', unit: 'clicks' },
      periodEvidence,
    ],
    money: priced ? undefined : overpay,
    suffix,
  }));
}

/** «Расход без конверсий»: a campaign with enough clicks and not one conversion. */
function campaignWastedSpendCheck(campaign: PreparedCampaign, stats: Stats, { pricedCost, unpricedWaste }: KeywordsRead, context: ScoringContext, { common, periodEvidence }: PeriodTerms): void {
  const { facts, settings, findings } = context;
  if (!(facts.hasConversions && stats.conversions === 0 && stats.cost > 0 && stats.clicks >= settings.minClicksForKeywordAction)) return;
  // With keyword statistics the money is the sum of the keywords' (each an item; the ones a stop
  // finding prices are left out); with campaign totals only, the campaign's cost.
  const items = sortItems(unpricedWaste.get(campaign) ?? []);
  const hasKeywordStats = campaign.groups.some((group) => group.keywords.some((keyword) => keyword.keyword.stats));
  const finding = makeFinding(checks.campaignWastedSpend, campaign.ref, {
    ...common,
    explanation: `Кампания «${campaign.campaign.name}» потратила ${formatRub(stats.cost)} за ${facts.periodDays} дн. (${formatRub(stats.cost * common.monthFactor)} в месяц) на ${clicksText(stats.clicks)} без единой конверсии.`,
    fix: 'Проверьте цели и страницу; остановите фразы без конверсий, добавьте минус-слова из запросов.',
    evidence: [
      { label: 'Расход без конверсий', value: rub(stats.cost), unit: 'rub' },
      { label: 'Клики', value: stats.clicks, threshold: settings.minClicksForKeywordAction, setting: 'minClicksForKeywordAction', unit: 'clicks' },
      { label: 'Конверсии', value: 0, unit: 'conversions' },
      periodEvidence,
    ],
    money: hasKeywordStats ? undefined : Math.max(0, stats.cost - (pricedCost.get(campaign) ?? 0)) || undefined,
  });
  if (items.length > 0) {
    Object.assign(finding, sumItemMoney(items));
    finding.explanation += ` ${countOf(items.length, 'keyword')} без конверсий. ${examplesSentence(items)}`;
    finding.count = items.length;
    finding.items = items;
  }
  findings.push(finding);
}

/** A network CTR so high that the clicks look accidental (apps, click farms). */
function networkCtrCheck(campaign: PreparedCampaign, stats: Stats, context: ScoringContext, { common, periodEvidence }: PeriodTerms): void {
  const { settings, findings } = context;
  const network = campaignStatsOn(campaign, 'networks', stats);
  if (!network || network.impressions < settings.minImpressionsForCtr) return;
  const ctr = network.clicks / network.impressions;
  if (ctr < settings.suspiciousNetworkCtr) return;
  findings.push(makeFinding(checks.networkCtrSuspicious, campaign.ref, {
    ...common,
    explanation: `CTR кампании в сетях ${percent(ctr)} % при норме 0,5–1,5 %: похоже на случайные клики с площадок. Под вопросом ${formatRub(network.cost * common.monthFactor)} в месяц.`,
    fix: 'Откройте отчёт по площадкам и исключите мобильные приложения и площадки с высоким CTR без конверсий.',
    evidence: [
      { label: 'CTR в сетях', value: share(ctr), threshold: share(settings.suspiciousNetworkCtr), setting: 'suspiciousNetworkCtr', unit: 'share' },
      { label: 'Показы в сетях', value: network.impressions, threshold: settings.minImpressionsForCtr, setting: 'minImpressionsForCtr', unit: 'impressions' },
      periodEvidence,
    ],
    money: network.cost,
  }));
}

/** Network sites and apps of a placements report: placements.ts. */
function siteChecks(campaign: PreparedCampaign, reference: CpaReference, context: ScoringContext, periodEvidence: Evidence): void {
  networkSiteChecks(campaign, reference.value, context, periodEvidence);
}

/** Search traffic only: a network CTR is on another scale and never gets this verdict; nor does an informational keyword (the caller knows which). */
function ctrChecks(keyword: PreparedKeyword, stats: Stats, medianSearchCtr: number | null, context: ScoringContext, periodEvidence: Evidence): void {
  const { settings, findings, facts } = context;
  if (stats.impressions < settings.minImpressionsForCtr) return;
  const ctr = stats.clicks / stats.impressions;
  const medianLimit = medianSearchCtr !== null ? medianSearchCtr * settings.ctrBelowMedianRatio : null;
  let evidence: Evidence | null = null;
  let reason = '';
  if (ctr < settings.lowSearchCtr) {
    evidence = { label: 'CTR на поиске', value: share(ctr), threshold: share(settings.lowSearchCtr), setting: 'lowSearchCtr', unit: 'share' };
    reason = `ниже ${percent(settings.lowSearchCtr)} %`;
  } else if (medianLimit !== null && ctr < medianLimit) {
    evidence = { label: 'CTR на поиске', value: share(ctr), threshold: share(medianLimit), setting: 'ctrBelowMedianRatio', unit: 'share' };
    reason = `меньше половины медианы аккаунта на поиске (${percent(medianSearchCtr!)} %)`;
  }
  if (!evidence) return;
  findings.push(makeFinding(checks.lowCtr, keyword.ref, {
    period: facts.period ?? undefined,
    explanation: `CTR фразы «${keywordLabel(keyword.keyword)}» на поиске ${percent(ctr)} % — ${reason}; ${clicksText(stats.clicks)} на ${stats.impressions} показов.`,
    fix: 'Впишите фразу в заголовок, добавьте быстрые ссылки и уточнения, проверьте минус-слова.',
    evidence: [evidence, { label: 'Показы на поиске', value: stats.impressions, threshold: settings.minImpressionsForCtr, setting: 'minImpressionsForCtr', unit: 'impressions' }, periodEvidence],
  }));
}

/** «в 1,8 раза», «в 3 раза», «в 9 раз»: a ratio as Russian says it (whole times from 2 up). */
function timesPhrase(ratio: number): string {
  if (ratio < 2) return `в ${ratio.toFixed(1).replace('.', ',')} раза`;
  const whole = Math.round(ratio);
  return `в ${whole} ${pluralRu(whole, ['раз', 'раза', 'раз'])}`;
}

/**
 * Bids move in steps, each checked before the next (agency practice: 10–30 % at a time; a bid cut
 * ninefold at once takes the keyword out of the auction, it does not make its conversions cheaper).
 */
const MAX_BID_CUT = 0.3;
const MAX_BID_RAISE = 0.2;
/** Past this many times the reference CPA, bid steps cannot close the gap (three cuts of 30 % ≈ ×2,9): the keyword itself is in question. */
const BEYOND_BID_STEPS = 3;

/**
 * Bid advice in roubles from the reference CPA: the click price at which the keyword's conversions
 * would cost the reference (CPA × conversions per click), reached in bounded steps. With the keyword's
 * bid known (the import's «Ставка» / «Ставка в сетях»), the new bid is named; else the click price.
 */
/**
 * The first bid step the advice names: × (affordable click price / average click price), at most a cut of
 * `MAX_BID_CUT` or a raise of `MAX_BID_RAISE`. Exported for the change sets, which write it to a keyword's
 * bid under a manual strategy (server/engines/changes/plan.ts).
 */
export function bidStep(stats: { clicks: number; cost: number; conversions: number }, referenceCpa: number, direction: 'lower' | 'raise'): number {
  const cpc = stats.cost / stats.clicks;
  const affordable = (referenceCpa * stats.conversions) / stats.clicks;
  return direction === 'lower' ? Math.max(1 - MAX_BID_CUT, affordable / cpc) : Math.min(1 + MAX_BID_RAISE, affordable / cpc);
}

function bidAdvice(keyword: PreparedKeyword, stats: Stats, referenceCpa: number, direction: 'lower' | 'raise'): { fix: string; evidence: Evidence[] } {
  const cpc = stats.cost / stats.clicks;
  const affordable = (referenceCpa * stats.conversions) / stats.clicks;
  const evidence: Evidence[] = [
    { label: 'Средняя цена клика', value: rub(cpc), unit: 'rub' },
    { label: 'Цена клика, при которой конверсия стоит ориентир', value: rub(affordable), unit: 'rub' },
  ];
  const step = bidStep(stats, referenceCpa, direction);
  const percentChange = Math.round(Math.abs(1 - step) * 100);
  const networks = keyword.campaign.placement === 'networks';
  const bid = networks ? keyword.keyword.networkBid ?? keyword.keyword.bid : keyword.keyword.bid;
  const newBid = bid ? ` (ставка ${formatRub(bid)} → ${formatRub(rub(bid * step))})` : '';
  const check = 'и через 1–2 недели сравните цену конверсии';
  if (direction === 'raise') {
    return { fix: `Повысьте ставку на ${percentChange} %${newBid} ${check}: конверсия окупается, пока клик стоит не дороже ${formatRub(affordable)} (сейчас ${formatRub(cpc)}).`, evidence };
  }
  if (step * cpc <= affordable) {
    return { fix: `Снизьте ставку на ${percentChange} %${newBid}: при клике около ${formatRub(affordable)} вместо ${formatRub(cpc)} конверсия стоит около ${formatRub(referenceCpa)}; ${check}.`, evidence };
  }
  const firstStep = `снизьте ставку на ${percentChange} %${newBid} ${check}`;
  if (cpc / affordable >= BEYOND_BID_STEPS) {
    return {
      fix: `Ставкой этот разрыв не закрыть: чтобы конверсия стоила ${formatRub(referenceCpa)}, клик должен стоить не дороже ${formatRub(affordable)} — ${timesPhrase(cpc / affordable)} дешевле нынешних ${formatRub(cpc)}. Проверьте запросы и страницу фразы и остановите её, если она не приводит покупателей; если оставляете — ${firstStep}.`,
      evidence,
    };
  }
  return { fix: `Снизьте ставку по шагам: сначала на ${percentChange} %${newBid} ${check}; цель — клик около ${formatRub(affordable)} вместо ${formatRub(cpc)}.`, evidence };
}

function keywordAction(keyword: PreparedKeyword, stats: Stats, campaignCpa: number | null, reference: CpaReference, context: ScoringContext, periodEvidence: Evidence): void {
  const { settings, findings, verdicts, facts } = context;
  const { monthFactor } = facts;
  const referenceCpa = reference.value;
  const referenceCpaSource = reference.source;
  const cpa = cpaOf(stats);
  const verdict = (action: KeywordAction, reason: string) =>
    verdicts.push({ target: keyword.ref, action, clicks: stats.clicks, cost: rub(stats.cost), conversions: stats.conversions, cpa: cpa === null ? null : rub(cpa), referenceCpa: referenceCpa === null ? null : rub(referenceCpa), referenceCpaSource, reason: flatString(reason) });
  const cpaLabel = referenceCpaSource === 'target' ? 'Целевая цена конверсии' : referenceCpaSource === 'placement' ? `Цена конверсии аккаунта ${placementPhrase[reference.placement!]}` : 'Цена конверсии аккаунта';
  const referenceEvidence = (value: number): Evidence => ({ label: cpaLabel, value: rub(value), setting: referenceCpaSource === 'target' ? 'targetCpa' : undefined, unit: 'rub' });
  // The campaign's own CPA describes the campaign; it is said, never compared with.
  const campaignNote = campaignCpa !== null ? ` В кампании «${keyword.campaign.campaign.name}» конверсия стоит ${formatRub(campaignCpa)}.` : '';
  const clicksEvidence: Evidence = { label: 'Клики', value: stats.clicks, threshold: settings.minClicksForKeywordAction, setting: 'minClicksForKeywordAction', unit: 'clicks' };

  if (stats.clicks < settings.minClicksForKeywordAction) {
    verdict('collect_data', `Мало данных: ${clicksText(stats.clicks)} при пороге ${settings.minClicksForKeywordAction}.`);
    return;
  }
  if (stats.conversions === 0) {
    if (referenceCpa !== null && stats.cost >= settings.stopCostCpaRatio * referenceCpa) {
      const reason = `0 конверсий при расходе ${formatRub(stats.cost)} ≥ ${settings.stopCostCpaRatio} × ${formatRub(referenceCpa)}.`;
      verdict('stop', reason);
      findings.push(makeFinding(checks.keywordStop, keyword.ref, {
        monthFactor,
        period: facts.period ?? undefined,
        explanation: `Фраза «${keywordLabel(keyword.keyword)}» потратила ${formatRub(stats.cost)} (${formatRub(stats.cost * monthFactor)} в месяц) за ${clicksText(stats.clicks)} без конверсий — это не меньше ${settings.stopCostCpaRatio} цен конверсии (${cpaLabel.toLowerCase()} ${formatRub(referenceCpa)}).${campaignNote}`,
        fix: 'Остановите фразу или перепишите её точнее; сэкономленный бюджет отдайте фразам с конверсиями.',
        evidence: [
          { label: 'Расход без конверсий', value: rub(stats.cost), threshold: rub(settings.stopCostCpaRatio * referenceCpa), setting: 'stopCostCpaRatio', unit: 'rub' },
          referenceEvidence(referenceCpa),
          clicksEvidence,
          periodEvidence,
        ],
        money: stats.cost,
      }));
    } else {
      verdict('hold', referenceCpa === null ? 'Нет ни целевой цены конверсии, ни конверсий в аккаунте.' : `0 конверсий, но расход ${formatRub(stats.cost)} меньше ${settings.stopCostCpaRatio} × ${formatRub(referenceCpa)}.`);
    }
    return;
  }
  if (referenceCpa === null) {
    verdict('keep', `Цена конверсии ${formatRub(cpa!)}; сравнить не с чем: нет целевой цены конверсии и конверсий в аккаунте.`);
    return;
  }
  // A bid change is advised only when the difference is material: at least `bidChangeMinDifference` either way.
  const lowerRatio = Math.max(settings.lowerBidCpaRatio, 1 + settings.bidChangeMinDifference);
  const automatic = automaticStrategy(keyword.campaign.campaign, keyword.campaign.placement);
  if (automatic) {
    // Direct sets the bids itself: a keyword bid changes nothing, so no bid advice either way.
    const strategy = strategyPhrase(automatic);
    if (cpa! >= lowerRatio * referenceCpa) {
      verdict('keep', `Цена конверсии ${formatRub(cpa!)} ≥ ${lowerRatio} × ${formatRub(referenceCpa)}, но ставки назначает ${strategy}: ставка фразы ничего не изменит. Проверьте запросы фразы и остановите её, если она не приводит покупателей.`);
    } else {
      verdict('keep', `Цена конверсии ${formatRub(cpa!)} (ориентир ${formatRub(referenceCpa)}); ставки назначает ${strategy}: ставку фразы менять незачем.`);
    }
    return;
  }
  if (cpa! >= lowerRatio * referenceCpa) {
    const overpay = stats.cost - stats.conversions * referenceCpa;
    verdict('lower_bid', `Цена конверсии ${formatRub(cpa!)} ≥ ${lowerRatio} × ${formatRub(referenceCpa)}.`);
    const lower = bidAdvice(keyword, stats, referenceCpa, 'lower');
    findings.push(makeFinding(checks.keywordLowerBid, keyword.ref, {
      monthFactor,
      period: facts.period ?? undefined,
      explanation: `Конверсия по фразе «${keywordLabel(keyword.keyword)}» стоит ${formatRub(cpa!)} — ${timesPhrase(cpa! / referenceCpa)} дороже (${cpaLabel.toLowerCase()} ${formatRub(referenceCpa)}). Переплата ${formatRub(overpay * monthFactor)} в месяц.${campaignNote}`,
      fix: lower.fix,
      evidence: [
        { label: 'Цена конверсии', value: rub(cpa!), threshold: rub(lowerRatio * referenceCpa), setting: lowerRatio === settings.lowerBidCpaRatio ? 'lowerBidCpaRatio' : 'bidChangeMinDifference', unit: 'rub' },
        referenceEvidence(referenceCpa),
        { label: 'Конверсии', value: stats.conversions, unit: 'conversions' },
        ...lower.evidence,
        clicksEvidence,
        periodEvidence,
      ],
      money: overpay,
    }));
    return;
  }
  const raiseLimit = referenceCpa * (1 - settings.bidChangeMinDifference);
  if (cpa! <= raiseLimit) {
    verdict('raise_bid', `Цена конверсии ${formatRub(cpa!)} ≤ ${formatRub(raiseLimit)} (на ${percent(settings.bidChangeMinDifference)} % ниже ${formatRub(referenceCpa)}).`);
    const raise = bidAdvice(keyword, stats, referenceCpa, 'raise');
    findings.push(makeFinding(checks.keywordRaiseBid, keyword.ref, {
      period: facts.period ?? undefined,
      explanation: `Конверсия по фразе «${keywordLabel(keyword.keyword)}» стоит ${formatRub(cpa!)} — на ${Math.round((1 - cpa! / referenceCpa) * 100)} % дешевле ориентира (${cpaLabel.toLowerCase()} ${formatRub(referenceCpa)}): фраза может принести больше конверсий.${campaignNote}`,
      fix: raise.fix,
      evidence: [
        { label: 'Цена конверсии', value: rub(cpa!), threshold: rub(raiseLimit), setting: 'bidChangeMinDifference', unit: 'rub' },
        referenceEvidence(referenceCpa),
        { label: 'Конверсии', value: stats.conversions, unit: 'conversions' },
        ...raise.evidence,
        clicksEvidence,
        periodEvidence,
      ],
    }));
    return;
  }
  verdict('keep', `Цена конверсии ${formatRub(cpa!)} между ${formatRub(raiseLimit)} и ${formatRub(lowerRatio * referenceCpa)} (ориентир ${formatRub(referenceCpa)}): менять ставку незачем.`);
}
