/**
 * Checks on statistics, with money first:
 * - keyword actions against the target CPA (project setting) or the campaign's own CPA: stop
 *   (0 conversions, cost ≥ 2 × CPA), lower bid (CPA ≥ 1.5 × target), raise bid (CPA below the
 *   campaign's), hold, keep; fewer than `minClicksForKeywordAction` clicks = collect data, no verdict;
 * - a campaign spending without conversions;
 * - search CTR under 2 % on commercial keywords (or far under the account's median) is low;
 *   a network CTR of 2 % or more is suspicious, not good;
 * - clicks far dearer than the account's median CPC.
 * Conversion-based checks run only when the data has conversions at all (else a notice says so).
 */
import type { Evidence, FindingItem, KeywordAction, KeywordVerdict } from '../../../../src/contract/analysis-results.js';
import type { Stats } from '../../../../src/contract/campaigns.js';
import { intentOf } from '../../semantic/clusters.js';
import type { PreparedCampaign, PreparedKeyword } from '../../semantic/prepare.js';
import { countOf, examplesSentence, sortItems, sumItemMoney } from '../aggregate.js';
import { formatRub, percent, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';

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
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const cpaOf = (stats: Stats | undefined) => (stats && stats.conversions > 0 ? stats.cost / stats.conversions : null);

export function runStatisticsChecks(context: ScoringContext): { wastedSpend: number } {
  const { account, facts, settings, findings } = context;
  if (!facts.hasStatistics) return { wastedSpend: 0 };
  const { monthFactor, period } = facts;
  const common = { monthFactor, period: period ?? undefined };
  const periodEvidence: Evidence = { label: 'Период, дней', value: facts.periodDays, unit: 'count' };

  const campaignStats = new Map(account.campaigns.map((campaign) => [campaign, campaignStatsOf(campaign)]));
  const accountCpa = cpaOf(sumStats([...campaignStats.values()]));

  // Medians of the account itself, search and network apart (they live on different scales).
  const searchCtrs: number[] = [];
  const cpcs = { search: [] as number[], network: [] as number[] };
  for (const keyword of account.keywords) {
    const stats = keyword.keyword.stats;
    if (!stats) continue;
    if (!keyword.campaign.isNetwork && stats.impressions >= settings.minImpressionsForCtr) searchCtrs.push(stats.clicks / stats.impressions);
    if (stats.clicks > 0) cpcs[keyword.campaign.isNetwork ? 'network' : 'search'].push(stats.cost / stats.clicks);
  }
  const medianSearchCtr = median(searchCtrs);
  const medianCpc = { search: median(cpcs.search), network: median(cpcs.network) };

  let wastedSpend = 0;
  // Money already priced by a keyword's stop / lower-bid finding is not counted again by wider findings.
  const pricedCost = new Map<PreparedCampaign, number>();
  // Keywords with clicks and no conversions that no stop finding prices: the items of their campaign's
  // «Расход без конверсий» when the whole campaign has none.
  const unpricedWaste = new Map<PreparedCampaign, FindingItem[]>();
  for (const keyword of account.keywords) {
    const stats = keyword.keyword.stats;
    if (!stats) continue;
    if (facts.hasConversions && stats.conversions === 0 && stats.clicks > 0) wastedSpend += stats.cost;
    const before = findings.length;
    if (facts.hasConversions) keywordAction(keyword, stats, campaignStats.get(keyword.campaign), accountCpa, context, periodEvidence);
    const priced = findings.length > before && findings[findings.length - 1].money !== undefined;
    if (priced) pricedCost.set(keyword.campaign, (pricedCost.get(keyword.campaign) ?? 0) + stats.cost);
    else if (facts.hasConversions && stats.conversions === 0 && stats.clicks > 0) {
      const items = unpricedWaste.get(keyword.campaign) ?? [];
      items.push({
        target: keyword.ref,
        evidence: [
          { label: 'Расход без конверсий', value: rub(stats.cost), unit: 'rub' },
          { label: 'Клики', value: stats.clicks, unit: 'clicks' },
        ],
        money: rub(stats.cost),
        moneyPerMonth: rub(stats.cost * monthFactor),
      });
      unpricedWaste.set(keyword.campaign, items);
    }
    ctrChecks(keyword, stats, medianSearchCtr, context, periodEvidence);

    const reference = medianCpc[keyword.campaign.isNetwork ? 'network' : 'search'];
    if (reference && stats.clicks >= settings.minClicksForNegative) {
      const cpc = stats.cost / stats.clicks;
      const limit = reference * settings.expensiveCpcMedianRatio;
      if (cpc >= limit) {
        const overpay = (cpc - reference) * stats.clicks;
        const money = priced ? undefined : overpay;
        findings.push(makeFinding(checks.expensiveClicks, keyword.ref, {
          ...common,
          explanation: `Клик по фразе «${keyword.keyword.phrase}» стоит ${formatRub(cpc)} — в ${(cpc / reference).toFixed(1).replace('.', ',')} раза дороже медианы аккаунта (${formatRub(reference)}). Переплата ${formatRub(overpay * monthFactor)} в месяц.`,
          fix: 'Снизьте ставку или проверьте, окупается ли фраза.',
          evidence: [
            { label: 'Цена клика', value: rub(cpc), threshold: rub(limit), setting: 'expensiveCpcMedianRatio', unit: 'rub' },
            { label: 'Медиана цены клика', value: rub(reference), unit: 'rub' },
            { label: 'Клики', value: stats.clicks, threshold: settings.minClicksForNegative, setting: 'minClicksForNegative', unit: 'clicks' },
            periodEvidence,
          ],
          money,
        }));
      }
    }
  }

  for (const campaign of account.campaigns) {
    const stats = campaignStats.get(campaign);
    if (!stats) continue;
    if (facts.hasConversions && stats.conversions === 0 && stats.cost > 0 && stats.clicks >= settings.minClicksForKeywordAction) {
      // With keyword statistics the money is the sum of the keywords' (each an item; the ones a stop
      // finding prices are left out); with campaign totals only, the campaign's cost.
      const items = sortItems(unpricedWaste.get(campaign) ?? []);
      const hasKeywordStats = campaign.groups.some((group) => group.keywords.some((keyword) => keyword.keyword.stats));
      const finding = makeFinding(checks.campaignWastedSpend, campaign.ref, {
        ...common,
        explanation: `Кампания «${campaign.campaign.name}» потратила ${formatRub(stats.cost)} за ${facts.periodDays} дн. (${formatRub(stats.cost * monthFactor)} в месяц) на ${stats.clicks} кликов без единой конверсии.`,
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
    if (campaign.isNetwork && stats.impressions >= settings.minImpressionsForCtr) {
      const ctr = stats.clicks / stats.impressions;
      if (ctr >= settings.suspiciousNetworkCtr) {
        findings.push(makeFinding(checks.networkCtrSuspicious, campaign.ref, {
          ...common,
          explanation: `CTR кампании в сетях ${percent(ctr)} % при норме 0,5–1,5 %: похоже на случайные клики с площадок. Под вопросом ${formatRub(stats.cost * monthFactor)} в месяц.`,
          fix: 'Откройте отчёт по площадкам и исключите мобильные приложения и площадки с высоким CTR без конверсий.',
          evidence: [
            { label: 'CTR в сетях', value: percent(ctr), threshold: percent(settings.suspiciousNetworkCtr), setting: 'suspiciousNetworkCtr', unit: 'percent' },
            { label: 'Показы', value: stats.impressions, threshold: settings.minImpressionsForCtr, setting: 'minImpressionsForCtr', unit: 'impressions' },
            periodEvidence,
          ],
          money: stats.cost,
        }));
      }
    }
  }
  return { wastedSpend };
}

function ctrChecks(keyword: PreparedKeyword, stats: Stats, medianSearchCtr: number | null, context: ScoringContext, periodEvidence: Evidence): void {
  const { settings, findings, facts } = context;
  if (keyword.campaign.isNetwork || stats.impressions < settings.minImpressionsForCtr) return;
  if (intentOf(keyword.parsed.words) === 'informational') return;
  const ctr = stats.clicks / stats.impressions;
  const medianLimit = medianSearchCtr !== null ? medianSearchCtr * settings.ctrBelowMedianRatio : null;
  let evidence: Evidence | null = null;
  let reason = '';
  if (ctr < settings.lowSearchCtr) {
    evidence = { label: 'CTR на поиске', value: percent(ctr), threshold: percent(settings.lowSearchCtr), setting: 'lowSearchCtr', unit: 'percent' };
    reason = `ниже ${percent(settings.lowSearchCtr)} %`;
  } else if (medianLimit !== null && ctr < medianLimit) {
    evidence = { label: 'CTR на поиске', value: percent(ctr), threshold: percent(medianLimit), setting: 'ctrBelowMedianRatio', unit: 'percent' };
    reason = `меньше половины медианы аккаунта (${percent(medianSearchCtr!)} %)`;
  }
  if (!evidence) return;
  findings.push(makeFinding(checks.lowCtr, keyword.ref, {
    period: facts.period ?? undefined,
    explanation: `CTR фразы «${keyword.keyword.phrase}» на поиске ${percent(ctr)} % — ${reason}; ${stats.clicks} кликов на ${stats.impressions} показов.`,
    fix: 'Впишите фразу в заголовок, добавьте быстрые ссылки и уточнения, проверьте минус-слова.',
    evidence: [evidence, { label: 'Показы', value: stats.impressions, threshold: settings.minImpressionsForCtr, setting: 'minImpressionsForCtr', unit: 'impressions' }, periodEvidence],
  }));
}

function keywordAction(keyword: PreparedKeyword, stats: Stats, campaign: Stats | undefined, accountCpa: number | null, context: ScoringContext, periodEvidence: Evidence): void {
  const { settings, findings, verdicts, facts } = context;
  const { monthFactor } = facts;
  const campaignCpa = cpaOf(campaign);
  const referenceCpa = settings.targetCpa ?? campaignCpa ?? accountCpa;
  const referenceCpaSource: KeywordVerdict['referenceCpaSource'] = settings.targetCpa !== null ? 'target' : campaignCpa !== null ? 'campaign' : accountCpa !== null ? 'account' : null;
  const cpa = cpaOf(stats);
  const verdict = (action: KeywordAction, reason: string) =>
    verdicts.push({ target: keyword.ref, action, clicks: stats.clicks, cost: rub(stats.cost), conversions: stats.conversions, cpa: cpa === null ? null : rub(cpa), referenceCpa: referenceCpa === null ? null : rub(referenceCpa), referenceCpaSource, reason });
  const cpaLabel = referenceCpaSource === 'target' ? 'Целевая цена конверсии' : referenceCpaSource === 'campaign' ? 'Цена конверсии кампании' : 'Цена конверсии аккаунта';
  const clicksEvidence: Evidence = { label: 'Клики', value: stats.clicks, threshold: settings.minClicksForKeywordAction, setting: 'minClicksForKeywordAction', unit: 'clicks' };

  if (stats.clicks < settings.minClicksForKeywordAction) {
    verdict('collect_data', `Мало данных: ${stats.clicks} кликов при пороге ${settings.minClicksForKeywordAction}.`);
    return;
  }
  if (stats.conversions === 0) {
    if (referenceCpa !== null && stats.cost >= settings.stopCostCpaRatio * referenceCpa) {
      const reason = `0 конверсий при расходе ${formatRub(stats.cost)} ≥ ${settings.stopCostCpaRatio} × ${formatRub(referenceCpa)}.`;
      verdict('stop', reason);
      findings.push(makeFinding(checks.keywordStop, keyword.ref, {
        monthFactor,
        period: facts.period ?? undefined,
        explanation: `Фраза «${keyword.keyword.phrase}» потратила ${formatRub(stats.cost)} (${formatRub(stats.cost * monthFactor)} в месяц) за ${stats.clicks} кликов без конверсий — это не меньше ${settings.stopCostCpaRatio} цен конверсии (${formatRub(referenceCpa)}).`,
        fix: 'Остановите фразу или перепишите её точнее; сэкономленный бюджет отдайте фразам с конверсиями.',
        evidence: [
          { label: 'Расход без конверсий', value: rub(stats.cost), threshold: rub(settings.stopCostCpaRatio * referenceCpa), setting: 'stopCostCpaRatio', unit: 'rub' },
          { label: cpaLabel, value: rub(referenceCpa), setting: referenceCpaSource === 'target' ? 'targetCpa' : undefined, unit: 'rub' },
          clicksEvidence,
          periodEvidence,
        ],
        money: stats.cost,
      }));
    } else {
      verdict('hold', referenceCpa === null ? 'Нет ни целевой цены конверсии, ни конверсий в кампании.' : `0 конверсий, но расход ${formatRub(stats.cost)} меньше ${settings.stopCostCpaRatio} × ${formatRub(referenceCpa)}.`);
    }
    return;
  }
  if (referenceCpa !== null && cpa! >= settings.lowerBidCpaRatio * referenceCpa) {
    const overpay = stats.cost - stats.conversions * referenceCpa;
    verdict('lower_bid', `Цена конверсии ${formatRub(cpa!)} ≥ ${settings.lowerBidCpaRatio} × ${formatRub(referenceCpa)}.`);
    findings.push(makeFinding(checks.keywordLowerBid, keyword.ref, {
      monthFactor,
      period: facts.period ?? undefined,
      explanation: `Конверсия по фразе «${keyword.keyword.phrase}» стоит ${formatRub(cpa!)} — в ${(cpa! / referenceCpa).toFixed(1).replace('.', ',')} раза дороже (${cpaLabel.toLowerCase()} ${formatRub(referenceCpa)}). Переплата ${formatRub(overpay * monthFactor)} в месяц.`,
      fix: `Снизьте ставку примерно в ${(cpa! / referenceCpa).toFixed(1).replace('.', ',')} раза или отключите фразу в дорогих местах показа.`,
      evidence: [
        { label: 'Цена конверсии', value: rub(cpa!), threshold: rub(settings.lowerBidCpaRatio * referenceCpa), setting: 'lowerBidCpaRatio', unit: 'rub' },
        { label: cpaLabel, value: rub(referenceCpa), setting: referenceCpaSource === 'target' ? 'targetCpa' : undefined, unit: 'rub' },
        { label: 'Конверсии', value: stats.conversions, unit: 'conversions' },
        clicksEvidence,
        periodEvidence,
      ],
      money: overpay,
    }));
    return;
  }
  if (campaignCpa !== null && cpa! < campaignCpa && (settings.targetCpa === null || cpa! <= settings.targetCpa)) {
    verdict('raise_bid', `Цена конверсии ${formatRub(cpa!)} ниже, чем в кампании (${formatRub(campaignCpa)}).`);
    findings.push(makeFinding(checks.keywordRaiseBid, keyword.ref, {
      period: facts.period ?? undefined,
      explanation: `Конверсия по фразе «${keyword.keyword.phrase}» стоит ${formatRub(cpa!)}, в среднем по кампании — ${formatRub(campaignCpa)}: фраза может принести больше конверсий.`,
      fix: 'Повысьте ставку на 10–20 % и проверьте цену конверсии через неделю.',
      evidence: [
        { label: 'Цена конверсии', value: rub(cpa!), threshold: rub(campaignCpa), unit: 'rub' },
        { label: 'Конверсии', value: stats.conversions, unit: 'conversions' },
        clicksEvidence,
        periodEvidence,
      ],
    }));
    return;
  }
  verdict('keep', `Цена конверсии ${formatRub(cpa!)} в пределах нормы.`);
}
