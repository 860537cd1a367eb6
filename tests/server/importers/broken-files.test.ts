import { describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { fixture, importFixtures, textFile } from './helpers.js';

const nothing = { campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 };

describe('broken and wrong files', () => {
  it('a truncated XLSX', async () => {
    const result = await importFixtures(['truncated.xlsx']);
    expect(result).toMatchObject({ data: null, counts: nothing });
    expect(result.problems).toEqual([
      {
        file: 'truncated.xlsx',
        severity: 'error',
        message: 'Файл XLSX повреждён или обрезан: не удалось его прочитать. Сохраните его заново или выгрузите ещё раз',
      },
    ]);
  });

  it('random bytes', async () => {
    const result = await importFixtures(['random.csv']);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([{ file: 'random.csv', severity: 'error', message: 'Файл не похож на таблицу: загрузите выгрузку в формате CSV или XLSX' }]);
  });

  it('an empty file, and one of only blank lines', async () => {
    const result = await importCampaignFiles([fixture('empty.csv'), textFile('blank.csv', '\r\n\r\n  \r\n')]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([
      { file: 'empty.csv', severity: 'error', message: 'Файл пустой' },
      { file: 'blank.csv', severity: 'error', message: 'Файл пустой' },
    ]);
  });

  it('an old binary XLS', async () => {
    const bytes = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const result = await importCampaignFiles([{ name: 'kampanii.xls', bytes }]);
    expect(result.problems).toEqual([
      { file: 'kampanii.xls', severity: 'error', message: 'Формат XLS (Excel 97–2003) не поддерживается: сохраните файл как XLSX или CSV' },
    ]);
  });

  it('a table that is not an export', async () => {
    const result = await importCampaignFiles([textFile('contacts.csv', 'Имя;Телефон\nИван;+7 900 000-00-00\n')]);
    expect(result.data).toBeNull();
    expect(result.detected).toEqual([{ file: 'contacts.csv', kind: 'unknown', encoding: 'utf-8', delimiter: ';' }]);
    expect(result.problems[0]).toMatchObject({ file: 'contacts.csv', severity: 'error' });
    expect(result.problems[0].message).toMatch(/^Не удалось распознать файл/);
  });

  it('a statistics report without the campaign column', async () => {
    const csv = 'Фраза;Показы;Клики;Расход (руб.)\nкупить диван;10;1;30\n';
    const result = await importCampaignFiles([textFile('stats.csv', csv)]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([{ file: 'stats.csv', row: 1, severity: 'error', message: 'Не найден обязательный столбец «Кампания» (или «№ Кампании»)' }]);
  });

  it('a header with no rows below it', async () => {
    const result = await importCampaignFiles([textFile('direct.csv', 'Доп. объявление группы;Название группы;Фраза (с минус-словами);ID фразы\n')]);
    expect(result.data).toBeNull();
    expect(result.problems).toEqual([{ file: 'direct.csv', severity: 'error', message: 'В файле нет строк с данными под заголовком' }]);
  });

  it('imports nothing when one of several files is broken, and still reports the others’ problems', async () => {
    const result = await importFixtures(['direct-bad-number.csv', 'truncated.xlsx', 'google-editor-utf16.csv']);
    expect(result.data).toBeNull();
    expect(result.counts).toEqual(nothing);
    expect(result.problems.map((problem) => [problem.file, problem.severity, problem.row])).toEqual([
      ['direct-bad-number.csv', 'warning', 3],
      ['direct-bad-number.csv', 'warning', 4],
      ['truncated.xlsx', 'error', undefined],
    ]);
    expect(result.detected.map((entry) => [entry.file, entry.kind])).toEqual([
      ['direct-bad-number.csv', 'yandex_direct'],
      ['truncated.xlsx', 'unknown'],
      ['google-editor-utf16.csv', 'google_ads_editor'],
    ]);
  });

  it('keeps two uploads of the same name apart in problems', async () => {
    const result = await importCampaignFiles([fixture('empty.csv'), fixture('empty.csv')]);
    expect(result.problems.map((problem) => problem.file)).toEqual(['empty.csv', 'empty.csv (2)']);
  });

  it('caps the warnings of one file and says how many were left out', async () => {
    const rows = ['Доп. объявление группы;Название группы;Фраза (с минус-словами);Ставка;ID фразы'];
    for (let i = 0; i < 250; i++) rows.push(`-;Диваны;диван ${i};дорого;${i}`);
    const result = await importCampaignFiles([textFile('direct.csv', rows.join('\n'))]);
    expect(result.data?.campaigns[0].groups[0].keywords).toHaveLength(250);
    expect(result.problems).toHaveLength(201);
    expect(result.problems[0]).toEqual({ file: 'direct.csv', row: 2, column: 'Ставка', severity: 'warning', message: 'Не число: «дорого». Значение пропущено' });
    expect(result.problems[200]).toEqual({ file: 'direct.csv', severity: 'warning', message: 'И ещё 50 замечаний по этому файлу: показаны первые 200' });
  });
});
