/** Texts of the analysis screens: money, percentages, evidence values, periods, in Russian conventions. */
import type { EntityRef } from '@contract/analysis-results.js';

export { formatCount, formatPeriod, formatRub, formatRubPerMonth, formatTokens, moneyHeadline, pluralRu, scoreBand } from '@contract/format';
export { formatEvidenceValue } from '@contract/evidence-format';

/** Where a suggestion applies, as a person reads it: «Кампания → Группа». */
export function placeOf(target: EntityRef): string {
  return [target.campaignName, target.groupName].filter(Boolean).join(' → ') || target.label || '—';
}

/**
 * Where a labelled target sits, without its own name again: a group's finding reads «Группа · Кампания»,
 * a campaign's just «Кампания» (not «Поиск Москва · Поиск Москва»). Null when there is nothing more to say.
 */
export function placeAround(target: EntityRef): string | null {
  const parts = [target.campaignName, target.groupName].filter((part): part is string => Boolean(part) && part !== target.label);
  return parts.length > 0 ? parts.join(' → ') : null;
}
