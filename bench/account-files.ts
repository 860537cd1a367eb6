/**
 * A generated account (bench/analysis.ts) as the files a user uploads: our CSV template (structure with
 * keyword statistics), split into files of at most `rowsPerFile` rows with each campaign in one file, plus
 * a Direct search-query report in files of `reportRowsPerFile`, the way Commander splits large accounts.
 */
import type { CampaignData } from '../contract/campaigns.js';

/** Rows per uploaded structure file (Commander splits big accounts into several files; the upload takes ≤ 50 MB a file). */
const ROWS_PER_FILE = 150_000;
/** Rows per search-query report file. */
const REPORT_ROWS_PER_FILE = 250_000;

const cell = (value: string | number | undefined) => {
  const text = value === undefined ? '' : String(value);
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const line = (cells: (string | number | undefined)[]) => cells.map(cell).join(';');

const TEMPLATE_HEADER = [
  'Кампания', 'Тип кампании', 'Минус-слова кампании', 'Группа', 'Минус-слова группы', 'Фраза', 'Заголовок 1', 'Заголовок 2', 'Текст 1', 'Ссылка',
  'Отображаемая ссылка', 'Заголовки быстрых ссылок', 'Описания быстрых ссылок', 'Уточнения', 'Показы', 'Клики', 'Расход', 'Конверсии',
];

/** The account as our CSV template files (structure with keyword statistics) plus a Direct search-query report. */
export function accountFiles(data: CampaignData, split: { rowsPerFile?: number; reportRowsPerFile?: number } = {}): { files: { name: string; text: string }[]; keywords: number; ads: number; queries: number } {
  const rowsPerFile = split.rowsPerFile ?? ROWS_PER_FILE;
  const reportRowsPerFile = split.reportRowsPerFile ?? REPORT_ROWS_PER_FILE;
  const files: { name: string; text: string }[] = [];
  let rows: string[] = [];
  let keywords = 0;
  let ads = 0;
  const flush = () => {
    if (rows.length === 0) return;
    files.push({ name: `account-${files.length + 1}.csv`, text: [line(TEMPLATE_HEADER), ...rows].join('\r\n') + '\r\n' });
    rows = [];
  };
  for (const campaign of data.campaigns) {
    // A campaign stays in one file (the importer merges files by campaign name anyway).
    if (rows.length >= rowsPerFile - 10_000) flush();
    for (const group of campaign.groups) {
      const count = Math.max(group.keywords.length, group.ads.length);
      for (let i = 0; i < count; i++) {
        const keyword = group.keywords[i];
        const ad = group.ads[i];
        if (keyword) keywords++;
        if (ad) ads++;
        const phrase = keyword ? [keyword.phrase, ...keyword.negativeWords.map((word) => `-${word}`)].join(' ') : '';
        rows.push(
          line([
            campaign.name, campaign.type === 'network' ? 'сети' : 'поиск', i === 0 ? campaign.negativeKeywords.map((w) => `-${w}`).join(' ') : '', group.name,
            i === 0 ? group.negativeKeywords.map((w) => `-${w}`).join(' ') : '', phrase,
            ad?.headlines[0], ad?.headlines[1], ad?.texts[0], ad?.finalUrl, ad?.displayUrl, ad?.sitelinks.map((l) => l.title).join('||'),
            ad?.sitelinks.map((l) => l.description ?? '').join('||'), ad?.callouts.join('||'),
            keyword?.stats?.impressions, keyword?.stats?.clicks, keyword?.stats?.cost, keyword?.stats?.conversions,
          ]),
        );
      }
    }
  }
  flush();
  const reportRows = data.searchQueries.map((q) => line([q.query, q.campaignName, q.groupName, q.stats.impressions, q.stats.clicks, q.stats.cost, q.stats.conversions]));
  for (let from = 0, part = 1; from < reportRows.length; from += reportRowsPerFile, part++) {
    files.push({
      name: `search-queries-${part}.csv`,
      text: ['Поисковые запросы', 'Период: 01.03.2024 - 31.03.2024', '', line(['Поисковый запрос', 'Кампания', 'Группа', 'Показы', 'Клики', 'Расход (руб.)', 'Конверсии']), ...reportRows.slice(from, from + reportRowsPerFile)].join('\r\n') + '\r\n',
    });
  }
  return { files, keywords, ads, queries: reportRows.length };
}

