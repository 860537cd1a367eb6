import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsvRows } from '../../../server/projects/importers/csv.js';
import { decodeText, detectEncoding } from '../../../server/projects/importers/text.js';
import { findDates, parseDate, parseNumber } from '../../../server/projects/importers/values.js';
import { fixture } from './helpers.js';

describe('encoding detection', () => {
  const sample = 'Фраза\tСтавка\nкупить диван\t12,5\n';

  it('reads UTF-8, UTF-8 with BOM, UTF-16LE with and without BOM, and Windows-1251', () => {
    const utf8 = new TextEncoder().encode(sample);
    expect(decodeText(utf8)).toEqual({ encoding: 'utf-8', text: sample });
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toEqual({ encoding: 'utf-8-bom', text: sample });
    const utf16 = Buffer.from(sample, 'utf16le');
    expect(decodeText(new Uint8Array([0xff, 0xfe, ...utf16]))).toEqual({ encoding: 'utf-16le', text: sample });
    expect(decodeText(new Uint8Array(utf16))).toEqual({ encoding: 'utf-16le', text: sample });
    const cp1251 = fixture('direct-export-cp1251.csv').bytes;
    expect(detectEncoding(cp1251)).toBe('windows-1251');
    expect(decodeText(cp1251).text).toContain('Диваны Комфорт — Поиск — Москва');
  });

  it('detects the encodings of the fixtures', () => {
    expect(detectEncoding(fixture('direct-export-utf16.tsv').bytes)).toBe('utf-16le');
    expect(detectEncoding(fixture('direct-export-utf16-nobom.tsv').bytes)).toBe('utf-16le');
    expect(detectEncoding(fixture('direct-export-utf8-bom.csv').bytes)).toBe('utf-8-bom');
    expect(detectEncoding(fixture('direct-export-utf8.tsv').bytes)).toBe('utf-8');
  });
});

describe('CSV reading', () => {
  it('detects tab, semicolon and comma, ignoring title lines and commas inside texts', () => {
    expect(detectDelimiter('a\tb\tc\n1\t2,5\t3\n')).toBe('\t');
    expect(detectDelimiter('Отчёт, октябрь\nДата;Клики;Расход\n01.10.2026;5;1 234,56\n02.10.2026;7;99,10\n')).toBe(';');
    expect(detectDelimiter('Search keyword report\nCampaign,Clicks,Cost\n"Диваны, Москва",5,"1,234.50"\nB,2,3\n')).toBe(',');
  });

  it('keeps quoted delimiters, doubled quotes and line breaks inside a field, and numbers rows as a spreadsheet does', () => {
    const text = 'Фраза;Текст\r\n"купить; диван";"Скажите ""да""\r\nкомфорту"\r\n\r\nкресло;простой\n';
    const rows = [...parseCsvRows(text, ';')];
    expect(rows).toEqual([
      { number: 1, cells: ['Фраза', 'Текст'] },
      { number: 2, cells: ['купить; диван', 'Скажите "да"\r\nкомфорту'] },
      { number: 4, cells: ['кресло', 'простой'] },
    ]);
  });

  it('takes the rest of the file into an unterminated quoted field instead of failing', () => {
    expect([...parseCsvRows('a,b\n"x,y', ',')]).toEqual([
      { number: 1, cells: ['a', 'b'] },
      { number: 2, cells: ['x,y'] },
    ]);
  });
});

describe('cell values', () => {
  it('reads numbers with spaces, NBSP, comma decimals, English thousands and currency marks', () => {
    expect(parseNumber('1 234,56')).toEqual({ ok: true, value: 1234.56 });
    expect(parseNumber('1\u00a0234,56 руб.')).toEqual({ ok: true, value: 1234.56 });
    expect(parseNumber('12.5')).toEqual({ ok: true, value: 12.5 });
    expect(parseNumber('1,234.50', 'en')).toEqual({ ok: true, value: 1234.5 });
    expect(parseNumber('2,450', 'en')).toEqual({ ok: true, value: 2450 });
    expect(parseNumber('6,94 %')).toEqual({ ok: true, value: 6.94 });
    expect(parseNumber('--')).toBeNull();
    expect(parseNumber('')).toBeNull();
    expect(parseNumber('12о')).toEqual({ ok: false });
  });

  it('reads plain digits (the quick path) as the full rules do, and refuses a number too long to be one', () => {
    expect(parseNumber('1500')).toEqual({ ok: true, value: 1500 });
    expect(parseNumber('-3.25')).toEqual({ ok: true, value: -3.25 });
    expect(parseNumber('007')).toEqual({ ok: true, value: 7 });
    expect(parseNumber('9'.repeat(400))).toEqual({ ok: false });
    expect(parseNumber('1.234.567')).toEqual({ ok: true, value: 1234567 });
  });

  it('reads dates in Russian, ISO and English forms', () => {
    expect(parseDate('31.10.2026')).toBe('2026-10-31');
    expect(parseDate('2026-10-01')).toBe('2026-10-01');
    expect(parseDate('Oct 5, 2026')).toBe('2026-10-05');
    expect(findDates('Период: 01.10.2026 – 31.10.2026')).toEqual(['2026-10-01', '2026-10-31']);
    expect(findDates('October 1, 2026 - October 31, 2026')).toEqual(['2026-10-01', '2026-10-31']);
  });
});
