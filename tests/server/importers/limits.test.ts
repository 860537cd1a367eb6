/**
 * Issue 11: limits of an upload (server/projects/importers/limits.ts), on the pure importer. Hostile files
 * are generated here (bench/hostile-files.ts), never committed.
 */
import { describe, expect, it } from 'vitest';
import { hostileXlsx, zipBombXlsx } from '../../../bench/hostile-files.js';
import { ImportBudget, importCampaignFiles, importLimits } from '../../../server/projects/importers/index.js';
import { readXlsx } from '../../../server/projects/importers/xlsx.js';
import { buildTemplateCsv } from '../../../server/projects/importers/template.js';
import { textFile } from './helpers.js';

const file = (name: string, bytes: Buffer) => ({ name, bytes: new Uint8Array(bytes) });

describe('XLSX read with limits', () => {
  it('reads a small workbook written by the hostile-file generator (the control case)', async () => {
    const tables = await readXlsx(await hostileXlsx({ cellChars: 12 }));
    expect(tables).toEqual([{ sheet: 'Кампании', rows: [{ number: 1, cells: ['Кампания', 'Группа'] }, { number: 2, cells: ['Окна', 'A'.repeat(12)] }] }]);
  });

  it('refuses a zip bomb from its central directory, before inflating anything', async () => {
    const bomb = await zipBombXlsx();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const result = await importCampaignFiles([file('bomb.xlsx', bomb)]);
    expect(result.data).toBeNull();
    expect(result.limit).toMatch(/в распакованном виде это 50\d МБ, а за одну загрузку можно разобрать не больше 400 МБ/);
    expect(result.problems).toEqual([{ file: 'bomb.xlsx', severity: 'error', message: result.limit }]);
  });

  it('counts every file of the upload against one expanded-size budget', async () => {
    const budget = new ImportBudget({ ...importLimits, maxExpandedBytes: 3 * 1024 * 1024 });
    const twoMb = await hostileXlsx({ cellChars: 2 * 1024 * 1024 });
    const alone = await importCampaignFiles([file('a.xlsx', twoMb)], { budget: new ImportBudget({ ...importLimits, maxExpandedBytes: 3 * 1024 * 1024, maxCellChars: 10 * 1024 * 1024 }) });
    expect(alone.limit).toBeUndefined();
    const together = await importCampaignFiles([file('a.xlsx', twoMb), file('b.xlsx', twoMb)], { budget });
    expect(together.limit).toMatch(/5 МБ, а за одну загрузку можно разобрать не больше 3 МБ/);
  });

  it('stops inflating at the first byte past the size the zip declared', async () => {
    const lying = await hostileXlsx({ cellChars: 20 * 1024 * 1024, declaredSize: 4096 });
    const result = await importCampaignFiles([file('lying.xlsx', lying)]);
    expect(result.data).toBeNull();
    expect(result.limit).toBe('Файл XLSX повреждён: данных внутри больше, чем указано в его оглавлении. Сохраните файл заново или выгрузите его ещё раз');
  });

  it('refuses a cell longer than Excel allows while inflating, before exceljs builds the string', async () => {
    const result = await importCampaignFiles([file('long-cell.xlsx', await hostileXlsx({ cellChars: 5 * 1024 * 1024 }))]);
    expect(result.data).toBeNull();
    expect(result.limit).toMatch(/ячейка длиннее 32\s767 символов/);
  });

  it('refuses a workbook with more rows than the upload may have', async () => {
    const budget = new ImportBudget({ ...importLimits, maxRows: 1 });
    await expect(readXlsx(await hostileXlsx({ cellChars: 3 }), budget)).rejects.toThrow(/не больше 1\b/);
  });
});

describe('CSV read with limits', () => {
  it('refuses a template with a 40 MB cell at that row and column', async () => {
    const [header, example] = buildTemplateCsv().trimEnd().split('\r\n');
    const cells = example.split(';');
    const phrase = header.split(';').indexOf('Фраза');
    cells[phrase] = 'x'.repeat(40 * 1024 * 1024);
    const result = await importCampaignFiles([textFile('template.csv', `${header}\r\n${cells.join(';')}\r\n`)]);
    expect(result.data).toBeNull();
    const letter = String.fromCharCode(65 + phrase);
    expect(result.problems).toEqual([
      { file: 'template.csv', row: 2, column: letter, severity: 'error', message: `Строка 2, столбец ${letter}: ячейка длиннее 32\u00a0767 символов (предел Excel). Проверьте, что файл сохранён правильно` },
    ]);
  });

  it('refuses a quoted cell that never closes the same way', async () => {
    const budget = new ImportBudget({ ...importLimits, maxCellChars: 100 });
    const result = await importCampaignFiles([textFile('open-quote.csv', `Кампания;Группа;Фраза\nОкна;"${'y'.repeat(500)}`)], { budget });
    expect(result.problems).toMatchObject([{ row: 2, column: 'B', severity: 'error' }]);
  });

  it('counts lines, blank ones too, against the row limit while streaming', async () => {
    const budget = new ImportBudget({ ...importLimits, maxRows: 1000 });
    const result = await importCampaignFiles([textFile('blank-lines.csv', `Кампания;Группа;Фраза\n${'\n'.repeat(5000)}Окна;Окна;окна пвх\n`)], { budget });
    expect(result.limit).toMatch(/не больше 1\s000/);
    expect(result.problems).toMatchObject([{ file: 'blank-lines.csv', row: 1001, severity: 'error' }]);
  });
});
