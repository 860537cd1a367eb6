/**
 * What a campaign's bidding strategy means for the advice (issue 22, «strategy-aware verdicts»).
 * Only imports that read the strategy (the Direct API) say anything here; for file imports the
 * strategy is unknown and every check behaves as without it.
 * - An automatic strategy sets the bids itself: a keyword's bid does nothing (at most a ceiling), so
 *   no «Повысить / Снизить ставку» and no «Дорогие клики» (the click price is the strategy's doing;
 *   its remedies are the strategy's own settings).
 * - A pay-for-conversion strategy charges per conversion: cost per click means nothing there, so its
 *   clicks never enter the account's click-price medians either.
 */
import type { BiddingStrategy, Campaign, Placement } from '../../../contract/campaigns.js';

/** The automatic strategy on `placement` (on both placements: when both are automatic, the search one); none when bids are manual or unknown. */
export function automaticStrategy(campaign: Campaign, placement: Placement): BiddingStrategy | undefined {
  const strategy = campaign.strategy;
  if (!strategy) return undefined;
  const on = (side: 'search' | 'networks') => (strategy[side]?.bidding === 'automatic' ? strategy[side] : undefined);
  if (placement !== 'both') return on(placement);
  const search = on('search');
  return search && on('networks') ? search : undefined;
}

/** Charged per conversion on this placement (Direct «Оплата за конверсии»). */
export function paysForConversions(campaign: Campaign, placement: Placement): boolean {
  const strategy = campaign.strategy;
  if (!strategy) return false;
  if (placement === 'both') return strategy.search?.payForConversion === true || strategy.networks?.payForConversion === true;
  return strategy[placement]?.payForConversion === true;
}

/** Direct's names of the strategies, as the interface shows them (annex «Типы стратегий»). */
const strategyNames: Record<string, string> = {
  HIGHEST_POSITION: 'Ручное управление ставками',
  MAXIMUM_COVERAGE: 'Ручное управление ставками',
  WB_MAXIMUM_CLICKS: 'Максимум кликов',
  AVERAGE_CPC: 'Максимум кликов со средней ценой клика',
  WB_MAXIMUM_CONVERSION_RATE: 'Максимум конверсий',
  AVERAGE_CPA: 'Максимум конверсий со средней ценой конверсии',
  AVERAGE_CPA_MULTIPLE_GOALS: 'Максимум конверсий со средней ценой конверсии',
  AVERAGE_CRR: 'Максимум конверсий с долей рекламных расходов',
  PAY_FOR_CONVERSION: 'Оплата за конверсии',
  PAY_FOR_CONVERSION_MULTIPLE_GOALS: 'Оплата за конверсии',
  PAY_FOR_CONVERSION_CRR: 'Оплата за конверсии с долей рекламных расходов',
};

/** «стратегия «Максимум кликов»», or «автоматическая стратегия» for a type without a known name. */
export function strategyPhrase(strategy: BiddingStrategy): string {
  const name = strategyNames[strategy.type];
  return name ? `стратегия «${name}»` : 'автоматическая стратегия';
}
