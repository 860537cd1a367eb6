/** Texts of the analysis screens: money, percentages, evidence values, periods, in Russian conventions. */
import type { EntityRef, Evidence } from '@/contract/analysis-results.js';
import type { StatsPeriod } from '@/contract/campaigns.js';
import { formatCount, formatRub, pluralRu } from './format';

export { formatCount, formatRub, formatTokens, pluralRu, scoreBand } from './format';

const decimal = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });
const shortDate = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

export const formatRubPerMonth = (value: number) => `${formatRub(value)} в месяц`;
/** «Теряете ≈ 12 345 ₽ в месяц»: the one money figure of an analysis, the same on every screen. */
export const moneyHeadline = (perMonth: number) => `Теряете ≈ ${formatRubPerMonth(perMonth)}`;
/** A share (0.0213) as a percent: «2,13 %». */
export const formatShare = (value: number) => `${decimal.format(value * 100)} %`;

export function formatPeriod(period: StatsPeriod | null | undefined): string | null {
  if (!period) return null;
  const from = new Date(period.from);
  const to = new Date(period.to);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return `${period.from} — ${period.to}`;
  return `${shortDate.format(from)} — ${shortDate.format(to)}`;
}

/** One evidence value with its unit (percent values are shares in the engines). */
export function formatEvidenceValue(value: number | string, unit: Evidence['unit']): string {
  if (typeof value === 'string') return value;
  switch (unit) {
    case 'percent':
      return formatShare(value);
    case 'rub':
      return formatRub(value);
    case 'chars':
      return `${formatCount(value)} ${pluralRu(value, ['символ', 'символа', 'символов'])}`;
    case 'clicks':
      return `${formatCount(value)} ${pluralRu(value, ['клик', 'клика', 'кликов'])}`;
    case 'impressions':
      return `${formatCount(value)} ${pluralRu(value, ['показ', 'показа', 'показов'])}`;
    case 'conversions':
      return `${formatCount(value)} ${pluralRu(value, ['конверсия', 'конверсии', 'конверсий'])}`;
    case 'ratio':
      return `× ${decimal.format(value)}`;
    default:
      return decimal.format(value);
  }
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
