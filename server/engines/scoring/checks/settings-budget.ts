/**
 * Budget and placement settings (issue 22): a daily budget that runs out before the day ends, read from
 * the campaign's day-by-day statistics (a day whose spend reaches the budget, less a margin, is a day
 * the shows stopped early); and a campaign that shows on search and in networks at once, priced by
 * what its networks cost over the search CPA when the report splits the placements.
 */
import type { Stats } from '../../../../contract/campaigns.js';
import { formatShare } from '../../../../contract/evidence-format.js';
import { formatRub, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import type { PreparedCampaign } from '../../semantic/prepare.js';
import { share } from '../../../../contract/analysis-results.js';
import { cpaOf, daysGenitive, periodMoney, showsOnBoth } from './settings-common.js';

export function runBudgetChecks(context: ScoringContext): void {
  for (const campaign of context.account.campaigns) {
    dailyBudgetLimited(context, campaign);
    if (showsOnBoth(campaign.campaign)) searchAndNetworksMixed(context, campaign);
  }
}

function dailyBudgetLimited(context: ScoringContext, campaign: PreparedCampaign): void {
  const { dailyBudget, dailyStats, dailyBudgetMode } = campaign.campaign;
  if (!dailyBudget || !dailyStats?.length) return;
  const { dailyBudgetReachedShare, dailyBudgetLimitedDaysShare } = context.settings;
  const daysWithSpend = dailyStats.filter((day) => day.stats.cost > 0);
  const reached = daysWithSpend.filter((day) => day.stats.cost >= dailyBudgetReachedShare * dailyBudget);
  if (daysWithSpend.length === 0 || reached.length === 0 || reached.length / daysWithSpend.length < dailyBudgetLimitedDaysShare) return;
  const cpa = cpaOf(campaign.campaign.stats);
  const target = context.settings.targetCpa;
  const paysOff = cpa !== null && target !== null && cpa <= target ? ` Цена конверсии кампании ${formatRub(cpa)} не выше цели ${formatRub(target)}: каждый недополученный показ — упущенная заявка.` : '';
  context.findings.push(makeFinding(checks.settingsDailyBudgetLimited, campaign.ref, {
    explanation: `Дневной бюджет кампании «${campaign.campaign.name}» ${formatRub(dailyBudget)} заканчивался в ${reached.length} из ${daysGenitive(daysWithSpend.length)} с расходом (расход дня от ${formatShare(dailyBudgetReachedShare)} бюджета): в эти дни объявления переставали показываться до конца дня.${paysOff}`,
    fix:
      dailyBudgetMode === 'distributed'
        ? `Поднимите дневной бюджет (например, до ${formatRub(Math.ceil((dailyBudget * 1.3) / 100) * 100)}) или сократите расписание до часов, когда приходят заявки: сейчас бюджета не хватает на весь день.`
        : `Поднимите дневной бюджет (например, до ${formatRub(Math.ceil((dailyBudget * 1.3) / 100) * 100)}); если бюджет не увеличить — включите распределённый режим показов, чтобы объявления показывались весь день, а не до обеда.`,
    evidence: [
      { label: 'Дней, когда бюджет закончился', value: reached.length, unit: 'count' },
      { label: 'Доля дней с расходом', value: share(reached.length / daysWithSpend.length), threshold: share(dailyBudgetLimitedDaysShare), setting: 'dailyBudgetLimitedDaysShare', unit: 'share' },
      { label: 'Дневной бюджет', value: rub(dailyBudget), unit: 'rub' },
    ],
  }));
}

/**
 * Search and networks in one campaign (a unified campaign only when its networks do worse, see below). Priced when the report splits the placements and the networks
 * do worse than search by the setting's multiple: the network spend over what its conversions would
 * have cost at the search CPA (all of it when the networks converted nothing).
 */
function searchAndNetworksMixed(context: ScoringContext, campaign: PreparedCampaign): void {
  const split = campaign.campaign.placementStats;
  const onNetworkDefault = campaign.campaign.strategy?.networks?.type === 'NETWORK_DEFAULT';
  const priced = split?.search && split.networks ? networkOverpay(split.search, split.networks, context.settings.mixedPlacementCpaRatio) : null;
  // A unified campaign (ЕПК) shows everywhere by design: only the statistics can say it should be split.
  if (campaign.campaign.type === 'unified' && !priced) return;
  const money = priced ? periodMoney(context, priced.overpay) : {};
  context.findings.push(makeFinding(checks.settingsSearchNetworksMixed, campaign.ref, {
    ...money,
    explanation:
      `Кампания «${campaign.campaign.name}» показывается и на поиске, и в сетях${onNetworkDefault ? ' (в сетях — по стратегии поиска)' : ''}: это разные аудитории с разной ценой клика и конверсии, а стратегия и объявления у них одни.` +
      (priced ? ` ${priced.sentence} Переплата ${formatRub(priced.overpay)} за период, ${formatRub(priced.overpay * context.facts.monthFactor)} в месяц.` : ''),
    fix: 'Разделите кампанию: здесь оставьте только поиск (в сетях — «Показы отключены»), а для РСЯ создайте отдельную кампанию с объявлениями с изображениями и своей стратегией.',
    evidence: priced
      ? [
          {
            label: priced.networkCpa === null ? 'Расход в сетях без конверсий' : 'Цена конверсии в сетях',
            value: rub(priced.networkCpa ?? priced.overpay),
            threshold: rub(context.settings.mixedPlacementCpaRatio * priced.searchCpa),
            setting: 'mixedPlacementCpaRatio',
            unit: 'rub',
          },
          { label: 'Цена конверсии на поиске', value: rub(priced.searchCpa), unit: 'rub' },
          { label: 'Переплата в сетях', value: rub(priced.overpay), unit: 'rub' },
        ]
      : [{ label: 'Площадки', value: 'поиск и сети', threshold: 'одна на кампанию' }],
  }));
}

function networkOverpay(search: Stats, networks: Stats, ratio: number) {
  const searchCpa = cpaOf(search);
  if (searchCpa === null || networks.cost < ratio * searchCpa) return null;
  const networkCpa = cpaOf(networks);
  if (networkCpa === null) {
    return { searchCpa, networkCpa, overpay: networks.cost, sentence: `В сетях кампания потратила ${formatRub(networks.cost)} без единой конверсии, на поиске конверсия стоила ${formatRub(searchCpa)}.` };
  }
  if (networkCpa < ratio * searchCpa) return null;
  const overpay = networks.cost - networks.conversions * searchCpa;
  return { searchCpa, networkCpa, overpay, sentence: `В сетях конверсия стоила ${formatRub(networkCpa)}, на поиске — ${formatRub(searchCpa)}.` };
}
