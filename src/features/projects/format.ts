/** Number, money and date texts of the project screens, in Russian conventions. */
export { formatCount, pluralRu } from '@contract/format';

const money = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const dateTime = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const date = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric' });

export const formatMoney = (value: number) => `${money.format(value)} ₽`;
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDate = (iso: string) => date.format(new Date(iso));
export const formatPercent = (value: number) => `${(value * 100).toFixed(2).replace('.', ',')} %`;

