/**
 * Every export file is what the platform's upload takes as it is: minus-words written as Direct and Editor
 * read them (not spoiled by formula escaping), the platform's ids carried, Yandex macros translated for
 * Google; and every file goes back through the product's own importers to the same campaigns.
 */
import { Writable } from 'node:stream';
import { parseString } from '@fast-csv/parse';
import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { applyChanges, changedCampaigns, type ChangeSet } from '../../../server/engines/export/changes.js';
import { exportFileOf } from '../../../server/engines/export/export-changes.js';
import { googleFinalUrl } from '../../../server/engines/export/google.js';
import { accountFacts } from '../../../server/engines/semantic/account-facts.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { defaultAnalysisSettings } from '../../../contract/analysis-results.js';
import { ad, campaign, group, kw, yandex } from '../../fixtures/analysis/builders.js';

/** The rows of a tab-separated file as a spreadsheet or the platform reads them (RFC 4180 unquoting only). */
function rowsOf(text: string): Promise<Record<string, string>[]> {
  return new Promise((resolve, reject) => {
    const rows: Record<string, string>[] = [];
    parseString(text.replace(/^\uFEFF/, ''), { delimiter: '\t', headers: true })
      .on('data', (row: Record<string, string>) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
}

const flowerShop = (): CampaignData =>
  yandex([
    campaign(
      'Розы Москва',
      [
        group(
          'Розы',
          [kw('розы', { externalId: '1001', negativeWords: ['кустовые'] }), kw('розы кустовые', { externalId: '1002' }), kw('"купить розы"', { externalId: '1003', matchType: 'phrase' })],
          [ad('Розы с доставкой', { externalId: '2001', finalUrl: 'https://flowers.example/roses?utm_campaign={campaign_id}&utm_content={ad_id}&pos={position}&utm_source=yandex' })],
          { externalId: '3001', negativeKeywords: ['оптом'] },
        ),
        group('Пионы', [kw('пионы', { externalId: '1004', negativeWords: ['!в', 'семена'] })], [ad('Пионы', { externalId: '2002', finalUrl: 'https://flowers.example/peonies' })], { externalId: '3002' }),
      ],
      { externalId: '4001', negativeKeywords: ['своими руками'] },
    ),
  ]);

/** Accepted: a campaign negative and a cross-minus on «пионы». */
const changes: ChangeSet = {
  campaignNegatives: [{ campaignIndex: 0, add: ['вакансии'] }],
  groupNegatives: [],
  keywordUpdates: [{ ref: { level: 'keyword', key: 'c0g1k0', label: 'пионы', campaignIndex: 0, groupIndex: 1, keywordIndex: 0 }, phrase: 'пионы', negativeWords: ['!в', 'семена', 'белые'] }],
  keywordRemovals: [],
  adUpdates: [],
  campaignIndexes: [0],
};

describe('export files upload as they are', () => {
  it('writes Direct minus-words as Direct reads them: no formula quote on «-слово», ids of campaigns, groups, phrases and ads kept', async () => {
    const data = flowerShop();
    const { files } = await exportAcceptedChangesOf(data, changes, 'yandex_direct', 'csv');
    const text = files[0]!.content.toString('utf8');
    expect(text).not.toContain("'-");
    const rows = await rowsOf(text);
    expect(rows[0]!['Минус-слова на кампанию']).toBe('-своими руками -вакансии');
    expect(rows[0]!['Минус-фразы на группу']).toBe('-оптом');
    expect(rows.map((row) => row['Фраза (с минус-словами)'])).toEqual(['розы -кустовые', 'розы кустовые', '"купить розы"', 'пионы -!в -семена -белые']);
    expect(rows.map((row) => [row['ID кампании'], row['ID группы'], row['ID фразы'], row['ID объявления']])).toEqual([
      ['4001', '3001', '1001', '2001'],
      ['4001', '3001', '1002', ''],
      ['4001', '3001', '1003', ''],
      ['4001', '3002', '1004', '2002'],
    ]);
  });

  it('writes for Google Ads Editor a Direct account’s cross-minus as ad group negatives and its URL macros as ValueTrack', async () => {
    const data = flowerShop();
    const { files } = await exportAcceptedChangesOf(data, changes, 'google_ads', 'csv');
    const rows = await rowsOf(files[0]!.content.toString('utf8'));
    const negatives = (groupName: string) => rows.filter((row) => row['Ad group'] === groupName && row['Criterion Type']!.startsWith('Negative')).map((row) => row.Keyword);
    // «кустовые» is a word of «розы кустовые» in the same group: as a group negative it would switch that keyword off.
    expect(negatives('Розы')).toEqual(['оптом']);
    expect(negatives('Пионы')).toEqual(['в', 'семена', 'белые']);
    expect(rows.filter((row) => row['Criterion Type']!.startsWith('Campaign Negative')).map((row) => row.Keyword)).toEqual(['своими руками', 'вакансии']);
    expect(rows.filter((row) => row['Criterion Type'] === 'Phrase').map((row) => row.Keyword)).toEqual(['купить розы']);
    const urls = rows.filter((row) => row['Final URL']).map((row) => row['Final URL']);
    expect(urls).toEqual(['https://flowers.example/roses?utm_campaign={campaignid}&utm_content={creative}&utm_source=yandex', 'https://flowers.example/peonies']);
    expect(urls.join(' ')).not.toMatch(/\{(campaign_id|ad_id|position)\}/);
  });

  it('translates known Yandex macros, drops the ones Google has no equivalent of, and leaves Google macros alone', () => {
    expect(googleFinalUrl('https://a.example/?k={keyword}&g={gbid}&r={region_name}#top')).toBe('https://a.example/?k={keyword}&g={adgroupid}#top');
    expect(googleFinalUrl('https://a.example/p?x={position_type}')).toBe('https://a.example/p');
    expect(googleFinalUrl('{lpurl}?src={source_type}&d={device_type}')).toBe('{lpurl}?src={network}&d={device}');
  });

  it.each([
    ['Direct CSV', 'yandex_direct', 'csv'],
    ['Direct XLSX', 'yandex_direct', 'xlsx'],
    ['Google Ads Editor CSV of a Direct account', 'google_ads', 'csv'],
  ] as const)('%s re-imports through the product’s importer to the same rows and minus-words', async (_name, platform, format) => {
    const data = flowerShop();
    const { files } = await exportAcceptedChangesOf(data, changes, platform, format);
    const file = files[0]!;
    const imported = await importCampaignFiles([{ name: file.fileName, bytes: new Uint8Array(file.content) }], { platform });
    expect(imported.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    const back = imported.data!.campaigns[0]!;
    const expected = applyChanges(data, changes).campaigns[0]!;
    expect(back.name).toBe(expected.name);
    expect(back.groups.map((g) => g.name)).toEqual(expected.groups.map((g) => g.name));
    expect(back.groups.map((g) => g.keywords.length)).toEqual(expected.groups.map((g) => g.keywords.length));
    expect(back.groups.map((g) => g.ads.map((a) => a.headlines[0]))).toEqual(expected.groups.map((g) => g.ads.map((a) => a.headlines[0])));
    if (platform === 'yandex_direct') {
      expect(back.externalId).toBe('4001');
      expect(back.negativeKeywords).toEqual(['своими руками', 'вакансии']);
      expect(back.groups.map((g) => g.externalId)).toEqual(['3001', '3002']);
      expect(back.groups.flatMap((g) => g.keywords.map((k) => [k.externalId, k.phrase, k.negativeWords.join(' ')]))).toEqual([
        ['1001', 'розы', 'кустовые'],
        ['1002', 'розы кустовые', ''],
        ['1003', '"купить розы"', ''],
        ['1004', 'пионы', '!в семена белые'],
      ]);
    } else {
      expect(back.negativeKeywords).toEqual(['своими руками', 'вакансии']);
      expect(back.groups.map((g) => g.negativeKeywords)).toEqual([['оптом'], ['в', 'семена', 'белые']]);
      expect(back.groups.flatMap((g) => g.keywords.map((k) => `${k.phrase}|${k.matchType}`))).toEqual(['розы|broad', 'розы кустовые|broad', 'купить розы|phrase', 'пионы|broad']);
    }
  });

  it('says when Direct campaigns came without ids (an upload would create them anew), and not for Google, which matches by names', () => {
    const codes = (data: CampaignData) => accountFacts(data, defaultAnalysisSettings).notices.map((notice) => notice.code);
    expect(codes(flowerShop())).not.toContain('NO_IDS');
    const withoutIds = flowerShop();
    delete withoutIds.campaigns[0]!.groups[1]!.externalId;
    const notice = accountFacts(withoutIds, defaultAnalysisSettings).notices.find((item) => item.code === 'NO_IDS');
    expect(notice?.message).toContain('Кампаний без ID Директа: 1 из 1');
    expect(notice?.message).toContain('Директ Коммандер создаст такие кампании из файла изменений заново');
    expect(codes({ ...withoutIds, platform: 'google_ads' })).not.toContain('NO_IDS');
  });

  it('re-imports a Google account’s Editor export with its negatives', async () => {
    const data: CampaignData = {
      platform: 'google_ads',
      searchQueries: [],
      campaigns: [campaign('Roses', [group('Red', [kw('red roses', { matchType: 'exact' })], [ad('Red roses', { headlines: ['Red roses', 'Fresh', 'Delivery'], texts: ['a', 'b'], finalUrl: 'https://f.example/?c={campaignid}' })], { negativeKeywords: ['"free roses"'] })], { negativeKeywords: ['[jobs]'], platform: 'google_ads' })],
    };
    const google: ChangeSet = { ...changes, campaignNegatives: [{ campaignIndex: 0, add: ['diy'] }], keywordUpdates: [] };
    const { files } = await exportAcceptedChangesOf(data, google, 'google_ads', 'csv');
    const imported = await importCampaignFiles([{ name: files[0]!.fileName, bytes: new Uint8Array(files[0]!.content) }], { platform: 'google_ads' });
    const back = imported.data!.campaigns[0]!;
    expect(back.negativeKeywords).toEqual(['[jobs]', 'diy']);
    expect(back.groups[0]!.negativeKeywords).toEqual(['"free roses"']);
    expect(back.groups[0]!.keywords.map((k) => `${k.phrase}|${k.matchType}`)).toEqual(['red roses|exact']);
    expect(back.groups[0]!.ads[0]!.finalUrl).toBe('https://f.example/?c={campaignid}');
  });
});

/** The files of a change set written for `platform` (the engine's own writers, as the API streams them). */
async function exportAcceptedChangesOf(data: CampaignData, changeSet: ChangeSet, platform: CampaignData['platform'], format: 'csv' | 'xlsx') {
  const writer = exportFileOf(platform, format, () => changedCampaigns(data, changeSet), data.platform)!;
  const pieces: Buffer[] = [];
  await writer.write(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        pieces.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8'));
        done();
      },
    }),
  );
  return { files: [{ fileName: writer.fileName, content: Buffer.concat(pieces) }] };
}
