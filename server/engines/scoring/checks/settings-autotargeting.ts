/**
 * Autotargeting (issue 22), from the group's `---autotargeting` row, which the keyword checks leave out:
 * - its statistics: the stop rule of the keywords (cost ≥ `stopCostCpaRatio` reference CPAs without a
 *   conversion: all its cost is money) or the lower-bid rule (CPA ≥ `lowerBidCpaRatio` × reference: the
 *   spend over what its conversions would cost at the reference is money);
 * - its categories (Direct `AutotargetingCategories`): all five on, the broad and competitor queries included.
 * The fix is strategy-aware: under an automatic strategy Direct sets the autotargeting bid itself.
 */
import type { Keyword, Stats } from '../../../../contract/campaigns.js';
import type { PreparedCampaign, PreparedGroup } from '../../semantic/prepare.js';
import { formatRub, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { clicksText, conversionsText, cpaBenchmark, periodMoney, workingStrategy, type CpaBenchmark } from './settings-common.js';

/** Direct's categories (keywords.get `AutotargetingCategories`): целевые, альтернативные, с конкурентами, широкие, сопутствующие. */
const ALL_CATEGORIES = ['exact', 'alternative', 'competitor', 'broader', 'accessory'];

export function runAutotargetingChecks(context: ScoringContext): void {
  const benchmark = context.facts.hasConversions ? cpaBenchmark(context) : null;
  for (const campaign of context.account.campaigns) {
    for (const group of campaign.groups) {
      for (const row of group.group.keywords) {
        if (!row.isAutotargeting) continue;
        if (benchmark && row.stats) wasteful(context, campaign, group, row.stats, benchmark);
        if (row.autotargetingCategories && ALL_CATEGORIES.every((category) => row.autotargetingCategories!.includes(category))) allCategories(context, group, row);
      }
    }
  }
}

function bidAdvice(campaign: PreparedCampaign): string {
  const working = workingStrategy(campaign.campaign);
  return working?.strategy.bidding === 'automatic' ? 'ставку автотаргетинга при автоматической стратегии назначает Директ, поэтому управлять можно только категориями и минус-словами' : 'или снизьте его ставку';
}

function wasteful(context: ScoringContext, campaign: PreparedCampaign, group: PreparedGroup, stats: Stats, benchmark: CpaBenchmark): void {
  const { stopCostCpaRatio, lowerBidCpaRatio } = context.settings;
  const reference = benchmark.value;
  const monthFactor = context.facts.monthFactor;
  let money: number;
  let explanation: string;
  if (stats.conversions === 0) {
    if (stats.cost < stopCostCpaRatio * reference) return;
    money = stats.cost;
    explanation = `Автотаргетинг группы «${group.group.name}» потратил ${formatRub(stats.cost)} (${formatRub(stats.cost * monthFactor)} в месяц) за ${clicksText(stats.clicks)} без конверсий — не меньше ${stopCostCpaRatio} цен конверсии (${benchmark.label}).`;
  } else {
    const cpa = stats.cost / stats.conversions;
    if (cpa < lowerBidCpaRatio * reference) return;
    money = stats.cost - stats.conversions * reference;
    explanation = `Автотаргетинг группы «${group.group.name}» принёс ${conversionsText(stats.conversions)} по ${formatRub(cpa)} — не меньше ${lowerBidCpaRatio} × ориентир (${benchmark.label}). Сверх ориентира потрачено ${formatRub(money)} за период, ${formatRub(money * monthFactor)} в месяц.`;
  }
  context.findings.push(makeFinding(checks.settingsAutotargetingWaste, group.ref, {
    ...periodMoney(context, money),
    suffix: 'autotargeting',
    explanation,
    fix: `Посмотрите запросы автотаргетинга в отчёте по поисковым запросам и добавьте нецелевые в минус-слова; оставьте в автотаргетинге только целевые запросы (${bidAdvice(campaign)}). Если запросов с заявками нет — выключите автотаргетинг в группе.`,
    evidence: [
      stats.conversions === 0
        ? { label: 'Расход без конверсий', value: rub(stats.cost), threshold: rub(stopCostCpaRatio * reference), setting: 'stopCostCpaRatio', unit: 'rub' }
        : { label: 'Цена конверсии автотаргетинга', value: rub(stats.cost / stats.conversions), threshold: rub(lowerBidCpaRatio * reference), setting: 'lowerBidCpaRatio', unit: 'rub' },
      benchmark.evidence,
    ],
  }));
}

function allCategories(context: ScoringContext, group: PreparedGroup, row: Keyword): void {
  context.findings.push(makeFinding(checks.settingsAutotargetingAllCategories, group.ref, {
    suffix: 'autotargeting-categories',
    explanation: `В автотаргетинге группы «${group.group.name}» включены все категории запросов: кроме целевых — альтернативные, с конкурентами, широкие и сопутствующие. Объявление показывается по запросам, далёким от фраз группы.`,
    fix: 'Оставьте в автотаргетинге целевые запросы; широкие, сопутствующие, альтернативные и запросы с конкурентами включайте по одной, если отчёт по поисковым запросам покажет, что они приводят заявки.',
    evidence: [{ label: 'Включено категорий', value: row.autotargetingCategories!.length, threshold: ALL_CATEGORIES.length, unit: 'count' }],
  }));
}
