import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Suggestion } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { applyChanges, collectChanges } from '../../../server/engines/export/changes.js';
import { exportAcceptedChanges } from '../../../server/engines/export/export-changes.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { ad, campaign, group, kw, query, stats, yandex } from '../../fixtures/analysis/builders.js';
import { analyse } from './helpers.js';

/** What an upload changes: negatives, keywords with minus-words, ad texts and links. */
const shape = (data: CampaignData) =>
  data.campaigns.map((c) => ({
    name: c.name,
    negatives: [...c.negativeKeywords].sort(),
    groups: c.groups.map((g) => ({
      name: g.name,
      negatives: [...g.negativeKeywords].sort(),
      keywords: g.keywords.map((k) => `${k.phrase}|${k.negativeWords.join(',')}`),
      ads: g.ads.map((a) => ({ headlines: a.headlines.filter(Boolean), texts: a.texts, finalUrl: a.finalUrl, displayUrl: a.displayUrl })),
    })),
  }));

const data = yandex(
  [
    campaign('Шубы', [
      group('Все шубы', [kw('шуба', { externalId: '11' }), kw('шубы', { externalId: '12' })], [ad('Шубы в наличии', { externalId: '21', finalUrl: 'https://example.ru/shuby' })], { externalId: '31' }),
      group('Норковые', [kw('шуба норковая', { externalId: '13' })], [ad('Норковые шубы с примеркой дома по всей Москве и области', { externalId: '22' })], { externalId: '32' }),
    ], { negativeKeywords: [], externalId: '41' }),
  ],
  [query('шуба бесплатно скачать', stats(100, 3, 60), { campaignName: 'Шубы' })],
);

describe('export of accepted changes', () => {
  it('collects accepted negatives, cross-minus and ad fixes, with the user’s edited value', async () => {
    const { scoring, semantic } = await analyse(data);
    const suggestions: Suggestion[] = [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives];
    const utm = scoring.suggestions.find((item) => item.field === 'finalUrl')!;
    const changes = collectChanges(suggestions, [{ id: 'neg:c0|скачать' }, { id: 'xm:kw:c0g0k0' }, { id: utm.id, value: 'https://example.ru/shuby?utm_source=yandex' }]);
    const changed = applyChanges(data, changes);
    expect(changed.campaigns[0].negativeKeywords).toEqual(['скачать']);
    expect(changed.campaigns[0].groups[0].keywords[0]).toMatchObject({ phrase: 'шуба', negativeWords: ['норковая'] });
    expect(changed.campaigns[0].groups[0].ads[0].finalUrl).toBe('https://example.ru/shuby?utm_source=yandex');
    // The original is not touched.
    expect(data.campaigns[0].negativeKeywords).toEqual([]);
  });

  it('writes Yandex Direct CSV and XLSX that re-import with the project importer to the same changes', async () => {
    const { scoring, semantic } = await analyse(data);
    const suggestions: Suggestion[] = [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives];
    const accepted = [{ id: 'neg:c0|скачать' }, { id: 'neg:c0|бесплатно' }, ...semantic.crossMinus.map((item) => ({ id: item.id })), ...scoring.suggestions.map((item) => ({ id: item.id }))];
    const result = await exportAcceptedChanges(data, suggestions, accepted);
    expect(result.files.map((file) => file.fileName)).toEqual(['direct-changes.csv', 'direct-changes.xlsx']);
    // шуба / шубы are duplicates: the file keeps one (with both fixes), a note asks to delete the other by hand.
    expect(result.notes).toEqual(['Удалите дубль «шубы» (кампания «Шубы», группа «Все шубы»): файл загрузки не удаляет фразы.']);
    const expected = shape(applyChanges(data, result.changes));
    expect(expected[0].groups[0].keywords).toEqual(['шуба|норковая']);
    expect(expected[0].negatives).toEqual(['бесплатно', 'скачать']);

    const csv = result.files[0].content.toString('utf8');
    expect(csv.split('\r\n')[0]).toContain('Фраза (с минус-словами)');
    expect(csv).toContain('\tшуба -норковая\t');

    for (const file of result.files) {
      const imported = await importCampaignFiles([{ name: file.fileName, bytes: new Uint8Array(file.content) }], { platform: 'yandex_direct' });
      expect(imported.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(shape(imported.data!)).toEqual(expected);
    }

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(result.files[1].content as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].getRow(1).getCell(1).value).toBe('Доп. объявление группы');
  });

  it('writes untouched parts of a changed campaign back whole: network bids, an image ad with its image, a mobile ad', async () => {
    const withImageAd = yandex([
      campaign('Шубы', [
        group('Все шубы', [kw('шуба', { externalId: '11', bid: 12.5, networkBid: 3.5 }), kw('шуба купить', { externalId: '12' })], [
          ad('Шубы в наличии', { externalId: '21', isMobile: true }),
          { kind: 'image', externalId: '22', headlines: [], texts: [], finalUrl: 'https://example.ru/shuby', image: 'shuby_1080x607.jpg', sitelinks: [], callouts: [] },
        ]),
      ], { negativeKeywords: [], externalId: '41' }),
    ], [query('шуба скачать выкройку', stats(40, 2, 30), { campaignName: 'Шубы' })]);
    const { scoring, semantic } = await analyse(withImageAd);
    const result = await exportAcceptedChanges(withImageAd, [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives], [{ id: 'neg:c0|скачать' }]);
    for (const file of result.files) {
      const imported = await importCampaignFiles([{ name: file.fileName, bytes: new Uint8Array(file.content) }], { platform: 'yandex_direct' });
      const [campaignBack] = imported.data!.campaigns;
      expect(campaignBack!.negativeKeywords, file.fileName).toEqual(['скачать']);
      expect(campaignBack!.groups[0]!.keywords.map((item) => [item.externalId, item.bid, item.networkBid]), file.fileName).toEqual([
        ['11', 12.5, 3.5],
        ['12', undefined, undefined],
      ]);
      const ads = campaignBack!.groups[0]!.ads;
      expect(ads.map((item) => [item.externalId, item.kind, item.isMobile ?? false, item.image]), file.fileName).toEqual([
        ['21', 'text', true, undefined],
        ['22', 'image', false, 'shuby_1080x607.jpg'],
      ]);
    }
  });

  it('writes a Google Ads Editor CSV that re-imports to the same changes', async () => {
    const google: CampaignData = {
      platform: 'google_ads',
      searchQueries: [query('running shoes free download', stats(100, 6, 60), { campaignName: 'Shoes' })],
      campaigns: [campaign('Shoes', [group('Running', [kw('running shoes', { matchType: 'phrase' }), kw('trail running shoes', { matchType: 'broad' })], [
        { kind: 'responsive_search', headlines: ['Running shoes', 'Free returns', 'Fast delivery'], texts: ['Shoes for every run', 'Order today'], paths: ['running'], finalUrl: 'https://shop.example/run', sitelinks: [], callouts: [] },
      ])], { negativeKeywords: [] })],
    };
    const { scoring, semantic } = await analyse(google);
    const suggestions: Suggestion[] = [...scoring.suggestions, ...semantic.crossMinus, ...semantic.negatives];
    const accepted = [...semantic.negatives.map((item) => ({ id: item.id })), ...scoring.suggestions.map((item) => ({ id: item.id }))];
    expect(semantic.negatives.map((item) => item.text)).toEqual(expect.arrayContaining(['free', 'download']));
    const result = await exportAcceptedChanges(google, suggestions, accepted);
    expect(result.files.map((file) => file.fileName)).toEqual(['google-ads-editor-changes.csv']);
    const imported = await importCampaignFiles([{ name: 'changes.csv', bytes: new Uint8Array(result.files[0].content) }], { platform: 'google_ads' });
    expect(imported.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(shape(imported.data!)).toEqual(shape(applyChanges(google, result.changes)));
  });
});
