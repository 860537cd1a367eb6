/**
 * Strategy settings (issue 22): manual bids or «Максимум кликов» where conversions are tracked, a
 * target CPA the strategy does not hold, a weekly budget too small for the target, a conversion
 * strategy without a goal or without conversions. Only campaigns whose strategy the import read (the
 * Direct API); the statistics are the strategy's placement's when the report splits them.
 */
import { formatRub, rub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { strategyPhrase } from '../strategy.js';
import type { PreparedCampaign } from '../../semantic/prepare.js';
import type { BiddingStrategy } from '../../../../contract/campaigns.js';
import { clicksText, conversionsText, cpaBenchmark, cpaOf, hasGoalsElsewhere, isClickStrategy, isConversionStrategy, periodMoney, statsOfStrategy, workingStrategy } from './settings-common.js';

export function runStrategyChecks(context: ScoringContext): void {
  for (const campaign of context.account.campaigns) {
    const working = workingStrategy(campaign.campaign);
    if (!working) continue;
    const { strategy, placement } = working;
    if (strategy.bidding === 'manual' || isClickStrategy(strategy)) bidsWithoutConversionGoal(context, campaign, strategy, placement);
    if (!isConversionStrategy(strategy)) continue;
    targetCpaNotHeld(context, campaign, strategy, placement);
    weeklyBudgetTooLow(context, campaign, strategy, placement);
    conversionStrategyWithoutGoal(context, campaign, strategy);
    conversionStrategyWithoutConversions(context, campaign, strategy, placement);
  }
}

/** Manual bids or «Максимум кликов» in a campaign that already gets enough conversions for a conversion strategy. */
function bidsWithoutConversionGoal(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy, placement: 'search' | 'networks'): void {
  const stats = statsOfStrategy(campaign, placement);
  const minimum = context.settings.conversionStrategyMinConversions;
  if (!stats || stats.conversions < minimum) return;
  const cpa = stats.cost / stats.conversions;
  const manual = strategy.bidding === 'manual';
  const name = campaign.campaign.name;
  const evidence = [
    { label: 'Конверсий за период', value: stats.conversions, threshold: minimum, setting: 'conversionStrategyMinConversions' as const, unit: 'conversions' as const },
    { label: 'Цена конверсии кампании', value: rub(cpa), unit: 'rub' as const },
  ];
  context.findings.push(
    manual
      ? makeFinding(checks.settingsManualWithConversions, campaign.ref, {
          explanation: `Кампания «${name}» на ручном управлении ставками, а за период получила ${conversionsText(stats.conversions)} по ${formatRub(cpa)}: этого достаточно, чтобы Директ сам назначал ставки под цену конверсии.`,
          fix: `Переведите кампанию на стратегию «Максимум конверсий» с оплатой за клики: цель — та, по которой пришли эти конверсии, средняя цена конверсии — около ${formatRub(cpa)}. Ставки фраз после этого не нужны.`,
          evidence,
        })
      : makeFinding(checks.settingsMaxClicksWithConversions, campaign.ref, {
          explanation: `Кампания «${name}» работает на стратегии «Максимум кликов»: она покупает клики подешевле, а не конверсии, хотя за период кампания получила ${conversionsText(stats.conversions)} по ${formatRub(cpa)}.`,
          fix: `Переведите кампанию на «Максимум конверсий» с целью, по которой пришли эти конверсии, и средней ценой конверсии около ${formatRub(cpa)}${strategy.weeklyBudget ? `; недельный бюджет оставьте прежним (${formatRub(strategy.weeklyBudget)})` : ''}.`,
          evidence,
        }),
  );
}

/** The real CPA well above the strategy's target: the money over the target is overpaid. Not in pay-for-conversion, where Direct charges the target itself. */
function targetCpaNotHeld(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy, placement: 'search' | 'networks'): void {
  const target = strategy.targetCpa;
  const stats = statsOfStrategy(campaign, placement);
  const cpa = cpaOf(stats);
  const ratio = context.settings.strategyCpaOverTargetRatio;
  if (strategy.payForConversion || !target || !stats || cpa === null || cpa < ratio * target) return;
  const overpaid = stats.cost - stats.conversions * target;
  const perMonth = overpaid * context.facts.monthFactor;
  context.findings.push(makeFinding(checks.settingsStrategyCpaOverTarget, campaign.ref, {
    ...periodMoney(context, overpaid),
    explanation: `${capitalized(strategyPhrase(strategy))} в кампании «${campaign.campaign.name}» должна держать цену конверсии ${formatRub(target)}, а фактическая — ${formatRub(cpa)} (${conversionsText(stats.conversions)} за ${formatRub(stats.cost)}). Сверх цели потрачено ${formatRub(overpaid)} за период, ${formatRub(perMonth)} в месяц.`,
    fix: `Проверьте, та ли цель выбрана в стратегии и засчитываются ли конверсии. Если цель верна — перенесите кампанию на «Оплату за конверсии» по цене ${formatRub(target)}: тогда Директ спишет за каждую конверсию не больше цели.`,
    evidence: [
      { label: 'Фактическая цена конверсии', value: rub(cpa), threshold: rub(ratio * target), setting: 'strategyCpaOverTargetRatio', unit: 'rub' },
      { label: 'Цена конверсии в стратегии', value: rub(target), unit: 'rub' },
      { label: 'Сверх цели за период', value: rub(overpaid), unit: 'rub' },
    ],
  }));
}

/**
 * A weekly budget that buys fewer conversions than the strategy needs to learn. The price compared
 * with: the strategy's own target, else the project's target CPA, else the campaign's CPA.
 */
function weeklyBudgetTooLow(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy, placement: 'search' | 'networks'): void {
  const budget = strategy.weeklyBudget;
  if (!budget) return;
  const price = weeklyBudgetPrice(context, campaign, strategy, placement);
  const needed = context.settings.weeklyBudgetMinTargetCpas;
  if (!price || budget >= needed * price.value) return;
  const affordable = Math.floor(budget / price.value);
  context.findings.push(makeFinding(checks.settingsWeeklyBudgetLow, campaign.ref, {
    explanation: `Недельного бюджета кампании «${campaign.campaign.name}» ${formatRub(budget)} при ${price.at} ${formatRub(price.value)} хватает ${affordable === 0 ? 'меньше чем на одну конверсию' : `не больше чем на ${conversionsText(affordable)}`} в неделю. ${capitalized(strategyPhrase(strategy))} учится на конверсиях: ей нужно хотя бы ${needed} в неделю.`,
    fix: `Поднимите недельный бюджет до ${formatRub(needed * price.value)} или оптимизируйте стратегию по цели, которая случается чаще (например, по добавлению в корзину или звонку), пока она не наберёт ${needed} конверсий в неделю.`,
    evidence: [
      { label: 'Недельный бюджет', value: rub(budget), threshold: rub(needed * price.value), setting: 'weeklyBudgetMinTargetCpas', unit: 'rub' },
      { label: price.label, value: rub(price.value), unit: 'rub' },
    ],
  }));
}

/** The conversion price a weekly budget is measured in: the strategy's target, else the project's, else the campaign's CPA. */
function weeklyBudgetPrice(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy, placement: 'search' | 'networks') {
  if (strategy.targetCpa) return { value: strategy.targetCpa, label: 'Цена конверсии в стратегии', at: 'цене конверсии в стратегии' };
  if (context.settings.targetCpa !== null) return { value: context.settings.targetCpa, label: 'Целевая цена конверсии проекта', at: 'целевой цене конверсии проекта' };
  const cpa = cpaOf(statsOfStrategy(campaign, placement));
  return cpa === null ? null : { value: cpa, label: 'Цена конверсии кампании', at: 'цене конверсии кампании' };
}

function conversionStrategyWithoutGoal(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy): void {
  if (strategy.goalId || hasGoalsElsewhere(strategy)) return;
  context.findings.push(makeFinding(checks.settingsConversionStrategyNoGoal, campaign.ref, {
    explanation: `Кампания «${campaign.campaign.name}» на стратегии «${strategyName(strategy)}», но цель Метрики в стратегии не указана: оптимизировать показы не на что.`,
    fix: 'Укажите в стратегии цель Метрики, которая означает заявку или покупку, и проверьте, что счётчик Метрики указан в параметрах кампании.',
    evidence: [{ label: 'Цель стратегии', value: 'не указана', threshold: 'цель Метрики' }],
  }));
}

/**
 * Many clicks, no conversion: the strategy has nothing to learn from (the goal does not fire or is the
 * wrong one). The spend itself is priced by «Расход без конверсий», not here. Pay-for-conversion
 * campaigns pay nothing without conversions and are left out.
 */
function conversionStrategyWithoutConversions(context: ScoringContext, campaign: PreparedCampaign, strategy: BiddingStrategy, placement: 'search' | 'networks'): void {
  const stats = statsOfStrategy(campaign, placement);
  const minimum = context.settings.conversionStrategyMinClicks;
  if (strategy.payForConversion || !stats || stats.conversions > 0 || stats.clicks < minimum) return;
  context.findings.push(makeFinding(checks.settingsConversionStrategyNoConversions, campaign.ref, {
    explanation: `Кампания «${campaign.campaign.name}» на стратегии «${strategyName(strategy)}» получила ${clicksText(stats.clicks)} и потратила ${formatRub(stats.cost)} за период без единой конверсии: стратегия не видит конверсий, и учиться ей не на чем.`,
    fix: 'Проверьте, что цель срабатывает (отправьте тестовую заявку и найдите её в Метрике) и что счётчик указан в кампании. Если цель работает, а конверсий нет — выберите цель, которая случается чаще, или на время перейдите на «Максимум кликов» с ограничением средней цены клика.',
    evidence: [
      { label: 'Клики без конверсий', value: stats.clicks, threshold: minimum, setting: 'conversionStrategyMinClicks', unit: 'clicks' },
      { label: 'Расход за период', value: rub(stats.cost), unit: 'rub' },
    ],
  }));
}

/** «Максимум конверсий со средней ценой конверсии», or the type as Direct names it when we know no name. */
function strategyName(strategy: BiddingStrategy): string {
  const phrase = strategyPhrase(strategy);
  const quoted = /«(.+)»/.exec(phrase);
  return quoted ? quoted[1]! : strategy.type;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
