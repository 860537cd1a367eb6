/** Russian formatting of the page check screens. */
import { formatCount, pluralRu } from '@contract/format';

export { formatCount, formatRub, formatTokens, pluralRu, scoreBand } from '@contract/format';

const integer = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

export const formatPercent = (share: number) => `${integer.format(Math.round(share * 100))} %`;
export const formatPages = (value: number) => `${formatCount(value)} ${pluralRu(value, ['страница', 'страницы', 'страниц'])}`;

