/**
 * How rows of the Direct export become groups: «Доп. объявление группы» `-` on a group's own rows, `+` on the
 * rows of its further ads (group cells blank, or repeated as Commander writes them), `||` in multi-value cells.
 */
import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { campaignNamed, dataOf, groupNamed, textFile } from './helpers.js';

const HEADER = ['Доп. объявление группы', 'Название кампании', 'ID группы', 'Название группы', 'Фраза (с минус-словами)', 'ID объявления', 'Заголовок 1', 'Текст', 'Уточнения', 'Заголовки быстрых ссылок', 'Адреса быстрых ссылок'];

function directTsv(rows: string[][]): string {
  return [HEADER, ...rows].map((row) => row.join('\t')).join('\n');
}

describe('«Доп. объявление группы» in the Direct export', () => {
  it('warns about a «+» row that comes before any group, with its row and column, and imports the rest', async () => {
    const csv = directTsv([
      ['+', '', '', '', '', '7100', 'Ничейное объявление', 'Текст без группы', '', '', ''],
      ['-', 'Кресла', '501', 'Кресла-мешки', 'кресло мешок', '7101', 'Кресла-мешки', 'Большой выбор', '', '', ''],
      ['+', '', '', '', '', '7102', 'Кресла-мешки в наличии', 'Доставка завтра', '', '', ''],
    ]);
    const result = await importCampaignFiles([textFile('direct.tsv', csv)]);
    expect(result.problems).toEqual([
      {
        file: 'direct.tsv',
        row: 2,
        column: 'Доп. объявление группы',
        severity: 'warning',
        message: 'Строка с «+» (доп. объявление группы) идёт раньше первой строки группы: строка пропущена',
      },
    ]);
    const group = groupNamed(campaignNamed(dataOf(result), 'Кресла'), 'Кресла-мешки');
    expect(group.ads.map((ad) => ad.externalId)).toEqual(['7101', '7102']);
    expect(result.counts).toMatchObject({ campaigns: 1, groups: 1, ads: 2, keywords: 1 });
  });

  it('skips a «+» row that names another campaign but no group, leaving no empty campaign behind', async () => {
    const csv = directTsv([
      ['-', 'Кресла', '501', 'Кресла-мешки', 'кресло мешок', '7101', 'Кресла-мешки', 'Большой выбор', '', '', ''],
      ['+', 'Диваны', '', '', '', '7300', 'Диваны', 'Без группы', '', '', ''],
    ]);
    const result = await importCampaignFiles([textFile('direct.tsv', csv)]);
    expect(result.problems).toMatchObject([{ row: 3, column: 'Доп. объявление группы', severity: 'warning' }]);
    expect(dataOf(result).campaigns.map((campaign) => campaign.name)).toEqual(['Кресла']);
  });

  it('puts a «+» row that repeats its group cells into that group, even after another group', async () => {
    const csv = directTsv([
      ['-', 'Кресла', '501', 'Кресла-мешки', 'кресло мешок', '7101', 'Кресла-мешки', 'Большой выбор', '', '', ''],
      ['-', 'Кресла', '502', 'Кресла-качалки', 'кресло качалка', '7201', 'Кресла-качалки', 'Из массива', '', '', ''],
      ['+', '', '', '', '', '7202', 'Качалки в наличии', 'Привезём за день', '', '', ''],
      ['+', 'Кресла', '501', 'Кресла-мешки', '', '7103', 'Мешки со скидкой', 'До -20%', '', '', ''],
    ]);
    const campaign = campaignNamed(dataOf(await importCampaignFiles([textFile('direct.tsv', csv)])), 'Кресла');
    expect(campaign.groups.map((group) => [group.name, group.ads.map((ad) => ad.externalId), group.keywords.map((keyword) => keyword.phrase)])).toEqual([
      ['Кресла-мешки', ['7101', '7103'], ['кресло мешок']],
      // The «+» row with blank group cells belongs to the group of the row above it.
      ['Кресла-качалки', ['7201', '7202'], ['кресло качалка']],
    ]);
  });

  it('splits «||» cells by position, keeping an empty place so titles and addresses stay paired', async () => {
    const csv = directTsv([
      ['-', 'Кресла', '501', 'Кресла-мешки', 'кресло мешок', '7101', 'Кресла-мешки', 'Большой выбор', 'Доставка||Гарантия||Рассрочка', 'Каталог||Отзывы||Акции', 'https://kresla.example/c||||https://kresla.example/a'],
    ]);
    const [ad] = groupNamed(campaignNamed(dataOf(await importCampaignFiles([textFile('direct.tsv', csv)])), 'Кресла'), 'Кресла-мешки').ads;
    expect(ad.callouts).toEqual(['Доставка', 'Гарантия', 'Рассрочка']);
    expect(ad.sitelinks).toEqual([
      { title: 'Каталог', url: 'https://kresla.example/c' },
      { title: 'Отзывы' },
      { title: 'Акции', url: 'https://kresla.example/a' },
    ]);
  });
});
