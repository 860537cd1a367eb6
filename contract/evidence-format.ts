/**
 * The one formatter of evidence numbers, for the results screens and the AI plan's prompt alike. It reads
 * an evidence item whole (its value or threshold with its own unit), so a number is never formatted
 * with another item's unit, and each unit has one meaning (see `EvidenceUnit`).
 */
import type { StoredEvidence } from './analysis-results.js';
import { formatCount, formatCountOf, formatRub } from './format.js';

const decimal = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

/** A share (0.0213) as a percent: «2,13 %». */
export const formatShare = (value: number) => `${decimal.format(value * 100)} %`;

/** The evidence's value (or its threshold) with its unit: «3 %», «1 200 ₽», «35 символов». */
export function formatEvidenceValue(evidence: StoredEvidence, part: 'value' | 'threshold' = 'value'): string {
  const value = part === 'value' ? evidence.value : evidence.threshold;
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  switch (evidence.unit) {
    case 'share':
      return formatShare(value);
    case 'percent':
      // Stored before `share`: already percent points.
      return `${decimal.format(value)} %`;
    case 'rub':
      return formatRub(value);
    case 'chars':
      return formatCountOf(value, ['символ', 'символа', 'символов']);
    case 'clicks':
      return formatCountOf(value, ['клик', 'клика', 'кликов']);
    case 'impressions':
      return formatCountOf(value, ['показ', 'показа', 'показов']);
    case 'conversions':
      return formatCountOf(value, ['конверсия', 'конверсии', 'конверсий']);
    case 'ratio':
      return `× ${decimal.format(value)}`;
    case 'count':
      return formatCount(value);
    default:
      return decimal.format(value);
  }
}
