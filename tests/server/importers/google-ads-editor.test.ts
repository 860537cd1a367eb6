import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { campaignNamed, dataOf, groupNamed, importFixtures, textFile } from './helpers.js';

const CAMPAIGN = 'Диваны Комфорт — Google Поиск';

describe('Google Ads Editor export, UTF-16LE tab-separated', () => {
  it('detects the file and reads the campaign row', async () => {
    const result = await importFixtures(['google-editor-utf16.csv']);
    expect(result.detected).toEqual([
      { file: 'google-editor-utf16.csv', kind: 'google_ads_editor', encoding: 'utf-16le', delimiter: '\t', headerRow: 1, platform: 'google_ads' },
    ]);
    expect(result.problems).toEqual([]);
    const data = dataOf(result);
    expect(data.platform).toBe('google_ads');
    expect(campaignNamed(data, CAMPAIGN)).toMatchObject({ type: 'search', dailyBudget: 2500, status: 'Enabled', platform: 'google_ads' });
    expect(result.counts).toEqual({ campaigns: 1, groups: 2, ads: 1, keywords: 4, searchQueries: 0 });
  });

  it('reads keywords with their match types and bids; a bracketed keyword without a type is exact', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['google-editor-utf16.csv'])), CAMPAIGN);
    expect(groupNamed(campaign, 'Угловые диваны').keywords).toEqual([
      { phrase: 'купить угловой диван', negativeWords: [], matchType: 'broad', bid: 45, status: 'Enabled' },
      { phrase: 'угловой диван', negativeWords: [], matchType: 'phrase', status: 'Enabled' },
      { phrase: 'угловой диван москва', negativeWords: [], matchType: 'exact', bid: 52.5, status: 'Paused' },
    ]);
    expect(groupNamed(campaign, 'Диваны-кровати').keywords).toEqual([{ phrase: 'диван кровать', negativeWords: [], matchType: 'exact', status: 'Enabled' }]);
    expect(groupNamed(campaign, 'Угловые диваны').status).toBe('Enabled');
  });

  it('puts negatives on the group or the campaign in Google notation', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['google-editor-utf16.csv'])), CAMPAIGN);
    expect(groupNamed(campaign, 'Угловые диваны').negativeKeywords).toEqual(['бесплатно', '"диван своими руками"']);
    expect(groupNamed(campaign, 'Диваны-кровати').negativeKeywords).toEqual(['"диван кровать икеа"']);
    expect(campaign.negativeKeywords).toEqual(['[б/у]', 'вакансии']);
  });

  it('reads a responsive search ad: headlines, descriptions, final URL and paths', async () => {
    const campaign = campaignNamed(dataOf(await importFixtures(['google-editor-utf16.csv'])), CAMPAIGN);
    expect(groupNamed(campaign, 'Угловые диваны').ads).toEqual([
      {
        kind: 'responsive_search',
        headlines: ['Угловые диваны от фабрики', 'Доставка за 1 день', 'Рассрочка 0%', 'Гарантия 3 года', 'Более 200 моделей'],
        texts: [
          'Угловые диваны в наличии на складе в Москве. Соберём бесплатно.',
          'Ткани на выбор, рассрочка без переплаты.',
          'Закажите онлайн или приезжайте в салон.',
        ],
        finalUrl: 'https://divany-komfort.example/uglovye',
        paths: ['divany', 'uglovye'],
        sitelinks: [],
        callouts: [],
        status: 'Enabled',
      },
    ]);
  });
});

describe('Google Ads Editor export, UTF-8 comma-separated', () => {
  it('matches headers whatever their case and spacing, keeps quoted commas and reads performance columns as stats', async () => {
    const result = await importFixtures(['google-editor-utf8.csv']);
    expect(result.detected[0]).toMatchObject({ kind: 'google_ads_editor', encoding: 'utf-8', delimiter: ',' });
    expect(result.problems).toEqual([]);
    const group = groupNamed(campaignNamed(dataOf(result), 'Диваны Комфорт — Google Поиск — СПб'), 'Прямые диваны');
    expect(group.keywords).toEqual([
      { phrase: 'прямой диван', negativeWords: [], matchType: 'phrase', bid: 40, status: 'Enabled', stats: { impressions: 2450, clicks: 120, cost: 4512.3, conversions: 3 } },
      { phrase: 'купить прямой диван спб', negativeWords: [], matchType: 'exact', status: 'Enabled', stats: { impressions: 610, clicks: 35, cost: 1480, conversions: 2 } },
    ]);
    expect(group.negativeKeywords).toEqual(['"бу"']);
    expect(group.ads).toEqual([
      {
        kind: 'responsive_search',
        headlines: ['Прямые диваны в СПб', 'Доставка, сборка, гарантия', 'Рассрочка 0%'],
        texts: ['Диваны от фабрики: доставка, сборка и вывоз старой мебели.', '"Комфорт" — 12 лет на рынке.'],
        finalUrl: 'https://divany-komfort.example/spb/pryamye',
        paths: ['spb'],
        sitelinks: [],
        callouts: [],
        status: 'Enabled',
        stats: { impressions: 900, clicks: 15, cost: 600, conversions: 1 },
      },
    ]);
  });

  it('treats blank cells and «[]» as no value', async () => {
    const csv = [
      'Campaign,Ad Group,Keyword,Criterion Type,Max CPC,Status',
      'Диваны,Кресла,кресло мешок,Broad,[],',
      'Диваны,Кресла,кресло качалка,Exact,,Paused',
    ].join('\n');
    const data = dataOf(await importCampaignFiles([textFile('editor.csv', csv)]));
    expect(groupNamed(campaignNamed(data, 'Диваны'), 'Кресла').keywords).toEqual([
      { phrase: 'кресло мешок', negativeWords: [], matchType: 'broad' },
      { phrase: 'кресло качалка', negativeWords: [], matchType: 'exact', status: 'Paused' },
    ]);
  });

  it('warns about a keyword row without an ad group and an unknown criterion type, and goes on', async () => {
    const csv = ['Campaign,Ad Group,Keyword,Criterion Type', 'Диваны,,кресло,Broad', 'Диваны,Кресла,кресло мешок,Wide'].join('\n');
    const result = await importCampaignFiles([textFile('editor.csv', csv)]);
    expect(result.problems).toEqual([
      { file: 'editor.csv', row: 2, column: 'Ad Group', severity: 'warning', message: 'Не указана группа объявлений: строка пропущена' },
      { file: 'editor.csv', row: 3, column: 'Criterion Type', severity: 'warning', message: 'Неизвестный тип условия «Wide»: считаем его широким соответствием' },
    ]);
    expect(result.counts.keywords).toBe(1);
  });

  it('reads all 15 headlines and 4 descriptions, and «Negative keyword» rows in the notation of their text', async () => {
    const headlines = Array.from({ length: 15 }, (_, i) => `Заголовок ${i + 1}`);
    const descriptions = Array.from({ length: 4 }, (_, i) => `Описание ${i + 1}`);
    const header = ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type', 'Ad type', ...headlines.map((_, i) => `Headline ${i + 1}`), ...descriptions.map((_, i) => `Description ${i + 1}`)];
    const rows = [
      ['Диваны', 'Кресла', '', '', 'Responsive search ad', ...headlines, ...descriptions],
      ['Диваны', 'Кресла', '[кресло бу]', 'Negative keyword', '', ...headlines.map(() => ''), ...descriptions.map(() => '')],
      ['Диваны', '', '"ремонт кресел"', 'Campaign negative keyword', '', ...headlines.map(() => ''), ...descriptions.map(() => '')],
    ];
    const data = dataOf(await importCampaignFiles([textFile('rsa.csv', [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n'))]));
    const campaign = campaignNamed(data, 'Диваны');
    const group = groupNamed(campaign, 'Кресла');
    expect(group.ads[0]).toMatchObject({ kind: 'responsive_search', headlines, texts: descriptions });
    expect(group.negativeKeywords).toEqual(['[кресло бу]']);
    expect(campaign.negativeKeywords).toEqual(['"ремонт кресел"']);
  });
});

function csvCell(value: string): string {
  return /[",]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
