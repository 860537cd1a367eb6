/** Texts of the analysis screens: money, percentages, evidence values, periods, in Russian conventions. */
import type { EntityRef } from '@contract/analysis-results.js';
import type { StatsPeriod } from '@contract/campaigns.js';
import { formatRub } from '@contract/format';

export { formatCount, formatRub, formatTokens, pluralRu, scoreBand } from '@contract/format';
export { formatEvidenceValue } from '@contract/evidence-format';

const shortDate = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

export const formatRubPerMonth = (value: number) => `${formatRub(value)} в месяц`;
/** «Теряете ≈ 12 345 ₽ в месяц»: the one money figure of an analysis, the same on every screen. */
export const moneyHeadline = (perMonth: number) => `Теряете ≈ ${formatRubPerMonth(perMonth)}`;

export function formatPeriod(period: StatsPeriod | null | undefined): string | null {
  if (!period) return null;
  const from = new Date(period.from);
  const to = new Date(period.to);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return `${period.from} — ${period.to}`;
  return `${shortDate.format(from)} — ${shortDate.format(to)}`;
}

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
