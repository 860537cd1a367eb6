/**
 * Every export file is what the platform's upload takes as it is: minus-words written as Direct and Editor
 * read them (not spoiled by formula escaping), the platform's ids carried, Yandex macros translated for
 * Google; and every file goes back through the product's own importers to the same campaigns.
 */
import { Writable } from 'node:stream';
import { parseString } from '@fast-csv/parse';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { generateAccount } from '../../../bench/analysis.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { applyChanges, changedCampaigns, type ChangeSet } from '../../../server/engines/export/changes.js';
import { exportFileOf, exportNotes } from '../../../server/engines/export/export-changes.js';
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
      // Each ad comes back an RSA Editor takes: at least 3 headlines and 2 descriptions.
      expect(back.groups.flatMap((g) => g.ads.map((a) => [a.headlines.length >= 3, a.texts.length >= 2]))).toEqual([
        [true, true],
        [true, true],
      ]);
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
  const writer = exportFileOf(platform, format, () => changedCampaigns(data, changeSet), data.platform, changeSet.campaignIndexes.length)!;
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

/** What Google Ads Editor says is wrong with a responsive search ad row, checked on its own (not with the exporter's code). */
function editorProblems(row: Record<string, string>): string[] {
  const problems: string[] = [];
  const filled = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => row[`${prefix} ${i + 1}`] ?? '').filter((text) => text !== '');
  // Keyword insertion counts as its default text.
  const length = (text: string) => text.replace(/\{keyword:([^}]*)\}/gi, '$1').length;
  const repeated = (texts: string[]) => new Set(texts.map((text) => text.toLowerCase())).size !== texts.length;
  const headlines = filled('Headline', 15);
  const descriptions = filled('Description', 4);
  if (headlines.length < 3) problems.push(`заголовков ${headlines.length}`);
  if (descriptions.length < 2) problems.push(`описаний ${descriptions.length}`);
  for (const text of headlines) if (length(text) > 30 || text.includes('!')) problems.push(`заголовок «${text}»`);
  for (const text of descriptions) if (length(text) > 90) problems.push(`описание «${text}»`);
  if (repeated(headlines) || repeated(descriptions)) problems.push('повтор');
  // Headlines and descriptions are filled in order: no gap before a later one.
  if (row[`Headline ${headlines.length + 1}`] || row[`Description ${descriptions.length + 1}`]) problems.push('пропуск');
  const [path1 = '', path2 = ''] = [row['Path 1'], row['Path 2']];
  if (path1.length > 15 || path2.length > 15 || /\s/.test(path1 + path2) || (path2 && !path1)) problems.push(`пути «${path1}» «${path2}»`);
  if (!/^https?:\/\//.test(row['Final URL'] ?? '')) problems.push('нет ссылки');
  return problems;
}

const rsaRows = (rows: Record<string, string>[]) => rows.filter((row) => row['Ad type'] === 'Responsive search ad');
const everyCampaign = (data: CampaignData): ChangeSet => ({ ...changes, keywordUpdates: [], campaignNegatives: data.campaigns.map((_, campaignIndex) => ({ campaignIndex, add: ['вакансии'] })), campaignIndexes: data.campaigns.map((_, i) => i) });

describe('Direct ads for Google Ads Editor: responsive search ads it accepts', () => {
  it('builds every RSA of a Direct account from titles, text, sitelinks, callouts, keywords and the display path, within Editor’s rules', async () => {
    const data = flowerShop();
    data.campaigns[0]!.groups[0]!.ads[0]!.displayUrl = 'розы-с-доставкой';
    const { files } = await exportAcceptedChangesOf(data, changes, 'google_ads', 'csv');
    const rows = rsaRows(await rowsOf(files[0]!.content.toString('utf8')));
    expect(rows.map(editorProblems)).toEqual([[], []]);
    const roses = rows[0]!;
    // Title 1, title 2, the sitelink, the callout, the keywords; the display path read as words repeats title 1.
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((i) => roses[`Headline ${i}`])).toEqual(['Розы с доставкой', 'С доставкой за 1 день', 'Цены', 'Гарантия 5 лет', 'Розы', 'Розы кустовые', 'Купить розы', '']);
    expect([roses['Description 1'], roses['Description 2'], roses['Description 3']]).toEqual(['Гарантия 5 лет. Замер бесплатно. Звоните!', 'Прайс на все окна', 'Розы с доставкой. С доставкой за 1 день.']);
    // «розы-с-доставкой» (16 characters) is split at a hyphen into two paths of at most 15.
    expect([roses['Path 1'], roses['Path 2']]).toEqual(['розы-с', 'доставкой']);
  });

  it('keeps every RSA of a realistic account valid, and counts each ad either as a row or as left out', async () => {
    const data = generateAccount({ campaigns: 3, groupsPerCampaign: 40 });
    // A title longer than 30 characters, a template, and an exclamation: what Direct allows and Google does not.
    const first = data.campaigns[0]!.groups[0]!.ads[0]!;
    first.headlines = ['Пластиковые окна — от производителя в Москве!', '#Окна# со скидкой'];
    const all = everyCampaign(data);
    const { files } = await exportAcceptedChangesOf(data, all, 'google_ads', 'csv');
    const rows = rsaRows(await rowsOf(files[0]!.content.toString('utf8')));
    const invalid = rows.map((row) => ({ row: `${row['Ad group']}: ${row['Headline 1']}`, problems: editorProblems(row) })).filter((entry) => entry.problems.length > 0);
    expect(invalid).toEqual([]);
    const ads = data.campaigns.reduce((sum, campaign) => sum + campaign.groups.reduce((count, group) => count + group.ads.length, 0), 0);
    const notes = await exportNotes('google_ads', () => changedCampaigns(data, all), 'yandex_direct', all);
    const left = notes.map((note) => Number(/не выгружено в файл Google Ads Editor: (\d+)/.exec(note)?.[1] ?? 0)).reduce((sum, count) => sum + count, 0);
    expect(rows.length + left).toBe(ads);
    expect(rows.length).toBe(ads);
    // Most ads have far more than the minimum to rotate.
    expect(rows.filter((row) => row['Headline 5']).length).toBeGreaterThan(ads * 0.9);
    const firstRow = rows.find((row) => row['Ad group'] === data.campaigns[0]!.groups[0]!.name)!;
    expect(firstRow['Headline 1']).toBe('Пластиковые окна');
    expect(firstRow['Headline 2']).toBe('{KeyWord:Окна} со скидкой');
  });

  it('leaves out an ad with too little text, an image ad and an ad without a link, and says how many and why', async () => {
    const data = flowerShop();
    const roses = data.campaigns[0]!.groups[0]!;
    roses.ads.push(
      ad('Розы', { headlines: ['Розы', ''], texts: ['Розы'], sitelinks: [], callouts: [], displayUrl: undefined }),
      ad('', { kind: 'image', headlines: [], texts: [], image: 'roses.png', sitelinks: [], callouts: [] }),
      ad('Розы в коробке', { finalUrl: undefined }),
    );
    roses.keywords = [kw('розы', { externalId: '1001' })];
    const { files } = await exportAcceptedChangesOf(data, changes, 'google_ads', 'csv');
    const rows = rsaRows(await rowsOf(files[0]!.content.toString('utf8')));
    expect(rows.map((row) => row['Headline 1'])).toEqual(['Розы с доставкой', 'Пионы']);
    expect(rows.map(editorProblems)).toEqual([[], []]);
    const notes = await exportNotes('google_ads', () => changedCampaigns(data, changes), 'yandex_direct', changes);
    expect(notes).toEqual([
      'Объявлений не выгружено в файл Google Ads Editor: 1 — из их текстов, быстрых ссылок, уточнений и фраз группы не набралось 3 разных заголовков до 30 знаков и 2 описаний до 90 знаков, без которых Google Ads Editor не примет адаптивное объявление; допишите их в Google Ads. Например: «Розы» (кампания «Розы Москва», группа «Розы»).',
      'Объявлений не выгружено в файл Google Ads Editor: 1 — это графические объявления: в поисковой кампании Google у них нет аналога. Например: «без заголовка» (кампания «Розы Москва», группа «Розы»).',
      'Объявлений не выгружено в файл Google Ads Editor: 1 — у них нет ссылки на сайт, а адаптивному объявлению Google она обязательна. Например: «Розы в коробке» (кампания «Розы Москва», группа «Розы»).',
    ]);
    // The Direct files carry every ad as it is: nothing to leave out there.
    expect(await exportNotes('yandex_direct', () => changedCampaigns(data, changes), 'yandex_direct', changes)).toEqual([]);
  });
});

describe('Direct XLSX: one campaign per file, as the web interface takes it', () => {
  it('writes two changed campaigns as a ZIP of two XLSX files, each re-importing to its campaign with ids and minus-words', async () => {
    const data = flowerShop();
    data.campaigns.push(campaign('Пионы / Москва', [group('Пионы', [kw('пионы купить', { externalId: '1101' })], [ad('Пионы', { externalId: '2101' })], { externalId: '3101' })], { externalId: '4101', negativeKeywords: ['семена'] }));
    const two: ChangeSet = { ...changes, campaignNegatives: [...changes.campaignNegatives, { campaignIndex: 1, add: ['оптом'] }], campaignIndexes: [0, 1] };
    const { files } = await exportAcceptedChangesOf(data, two, 'yandex_direct', 'xlsx');
    expect(files[0]!.fileName).toBe('direct-changes-xlsx.zip');
    const entries = unzipSync(new Uint8Array(files[0]!.content));
    expect(Object.keys(entries)).toEqual(['01 Розы Москва.xlsx', '02 Пионы Москва.xlsx']);
    const expected = applyChanges(data, two).campaigns;
    for (const [index, [name, bytes]] of Object.entries(entries).entries()) {
      const imported = await importCampaignFiles([{ name, bytes }], { platform: 'yandex_direct' });
      expect(imported.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(imported.data!.campaigns.map((c) => [c.name, c.externalId, c.negativeKeywords])).toEqual([[expected[index]!.name, expected[index]!.externalId, expected[index]!.negativeKeywords]]);
      expect(imported.data!.campaigns[0]!.groups.flatMap((g) => g.keywords.map((k) => k.externalId))).toEqual(expected[index]!.groups.flatMap((g) => g.keywords.map((k) => k.externalId)));
    }
  });

  it('writes one changed campaign as the XLSX itself', async () => {
    const { files } = await exportAcceptedChangesOf(flowerShop(), changes, 'yandex_direct', 'xlsx');
    expect(files[0]!.fileName).toBe('direct-changes.xlsx');
    expect(files[0]!.content.subarray(0, 2).toString()).toBe('PK');
    expect(unzipSync(new Uint8Array(files[0]!.content))['xl/workbook.xml']).toBeDefined();
  });
});
