/** Russian formatting of the relevance screens. */
const integer = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

export const formatCount = (value: number) => integer.format(value);
export const formatRub = (value: number) => `${integer.format(Math.round(value))} ₽`;
export const formatPercent = (share: number) => `${integer.format(Math.round(share * 100))} %`;

/** pluralRu(5, ['страница', 'страницы', 'страниц']) → 'страниц'. */
export function pluralRu(count: number, forms: [string, string, string]): string {
  const mod10 = count % 10;
  const mod100 = count % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

export const formatTokens = (value: number) => `${formatCount(value)} ${pluralRu(value, ['токен', 'токена', 'токенов'])}`;
export const formatPages = (value: number) => `${formatCount(value)} ${pluralRu(value, ['страница', 'страницы', 'страниц'])}`;

/** Colour band of a 0–100 score. */
export function scoreBand(score: number): 'good' | 'fair' | 'poor' {
  if (score >= 80) return 'good';
  if (score >= 50) return 'fair';
  return 'poor';
}
