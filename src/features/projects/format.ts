/** Number, money and date texts of the project screens, in Russian conventions. */
const integer = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const money = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const dateTime = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const date = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric' });

export const formatCount = (value: number) => integer.format(value);
export const formatMoney = (value: number) => `${money.format(value)} ₽`;
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => date.format(new Date(iso));
export const formatPercent = (value: number) => `${(value * 100).toFixed(2).replace('.', ',')} %`;

/** Russian plural: pluralRu(5, ['кампания', 'кампании', 'кампаний']) → 'кампаний'. */
export function pluralRu(count: number, forms: [string, string, string]): string {
  const mod10 = count % 10;
  const mod100 = count % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}
