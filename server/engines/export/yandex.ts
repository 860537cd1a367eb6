/**
 * Yandex Direct bulk-upload files (the campaign file of the Direct web interface / Commander) for the
 * campaigns the accepted changes touch, written whole after the changes, with the platform's ids so an
 * upload updates the objects instead of creating new ones.
 *
 * Layout (see /work/shared/reference/ad-platforms.md): Russian titles; one row per keyword and/or ad of a
 * group (row i carries the group's keyword i and ad i), «Доп. объявление группы» `-` on a group's first
 * row and `+` after; several values in a cell joined with `||`; minus-words as ` -слово` in
 * «Фраза (с минус-словами)», and group/campaign negatives as `-слово -фраза из слов`.
 * CSV: UTF-8 with a BOM, tab separated. XLSX: one sheet, header on the first row.
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { AdGroup, Campaign, CampaignData } from '../../../contract/campaigns.js';
import { csvPieces } from '../../lib/csv.js';
import { withMinusWords } from '../semantic/phrase.js';
import { changedCampaigns, type ChangeSet } from './changes.js';

export const yandexColumns = [
  'Доп. объявление группы',
  'Тип объявления',
  'Мобильное объявление',
  'ID кампании',
  'Название кампании',
  'Минус-слова на кампанию',
  'ID группы',
  'Название группы',
  'Номер группы',
  'Минус-фразы на группу',
  'Регион',
  'ID фразы',
  'Фраза (с минус-словами)',
  'Ставка',
  'Ставка в сетях',
  'ID объявления',
  'Заголовок 1',
  'Заголовок 2',
  'Текст',
  'Ссылка',
  'Отображаемая ссылка',
  'Заголовки быстрых ссылок',
  'Описания быстрых ссылок',
  'Адреса быстрых ссылок',
  'Уточнения',
  'Изображение',
] as const;

type Row = Record<(typeof yandexColumns)[number], string>;

export const negativesCell = (negatives: string[]) => negatives.map((text) => `-${text.replace(/^-/, '')}`).join(' ');

const number = (value: number | undefined) => (value === undefined ? '' : String(value).replace('.', ','));

function groupRows(campaign: Campaign, group: AdGroup, groupNumber: number): Row[] {
  const rows: Row[] = [];
  const count = Math.max(1, group.keywords.length, group.ads.length);
  for (let i = 0; i < count; i++) {
    const keyword = group.keywords[i];
    const ad = group.ads[i];
    rows.push({
      'Доп. объявление группы': i === 0 ? '-' : '+',
      'Тип объявления': ad ? (ad.kind === 'image' ? 'Графическое' : 'Текстово-графическое') : '',
      'Мобильное объявление': ad ? (ad.isMobile ? 'да' : 'нет') : '',
      'ID кампании': campaign.externalId ?? '',
      'Название кампании': campaign.name,
      'Минус-слова на кампанию': i === 0 && groupNumber === 1 ? negativesCell(campaign.negativeKeywords) : '',
      'ID группы': group.externalId ?? '',
      'Название группы': group.name,
      'Номер группы': String(groupNumber),
      'Минус-фразы на группу': i === 0 ? negativesCell(group.negativeKeywords) : '',
      'Регион': i === 0 ? (group.region ?? '') : '',
      'ID фразы': keyword?.externalId ?? '',
      'Фраза (с минус-словами)': keyword ? (keyword.isAutotargeting ? '---autotargeting' : withMinusWords(keyword.phrase, keyword.negativeWords)) : '',
      'Ставка': number(keyword?.bid),
      'Ставка в сетях': number(keyword?.networkBid),
      'ID объявления': ad?.externalId ?? '',
      'Заголовок 1': ad?.headlines[0] ?? '',
      'Заголовок 2': ad?.headlines[1] ?? '',
      'Текст': ad?.texts[0] ?? '',
      'Ссылка': ad?.finalUrl ?? '',
      'Отображаемая ссылка': ad?.displayUrl ?? '',
      'Заголовки быстрых ссылок': ad ? ad.sitelinks.map((link) => link.title).join('||') : '',
      'Описания быстрых ссылок': ad ? ad.sitelinks.map((link) => link.description ?? '').join('||') : '',
      'Адреса быстрых ссылок': ad ? ad.sitelinks.map((link) => link.url ?? '').join('||') : '',
      'Уточнения': ad ? ad.callouts.join('||') : '',
      'Изображение': ad?.image ?? '',
    });
  }
  return rows;
}

/** Rows of a campaign (already changed), one at a time. */
function* yandexRows(campaign: Campaign): Generator<Row> {
  for (let groupIndex = 0; groupIndex < campaign.groups.length; groupIndex++) yield* groupRows(campaign, campaign.groups[groupIndex], groupIndex + 1);
}

/**
 * The Direct CSV of these (changed) campaigns in pieces; the campaigns may come one by one from the
 * database. Cells a spreadsheet would run as formulas get a leading `'` (server/lib/csv.ts); the XLSX needs none.
 */
export function yandexCsvPieces(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>): AsyncGenerator<string> {
  const lines = (async function* () {
    for await (const campaign of campaigns) for (const row of yandexRows(campaign)) yield yandexColumns.map((column) => row[column]);
  })();
  return csvPieces(yandexColumns, lines, '\t');
}

/** The whole CSV of the changes in memory (tests). */
export async function exportYandexCsv(data: CampaignData, changes: ChangeSet): Promise<string> {
  let text = '';
  for await (const piece of yandexCsvPieces(changedCampaigns(data, changes))) text += piece;
  return text;
}

/**
 * The Direct XLSX of these (changed) campaigns written to `output` row by row (exceljs's streaming
 * writer: each row is committed and leaves memory, inline strings instead of a shared-strings table that
 * would hold every text).
 */
export async function writeYandexXlsx(campaigns: Iterable<Campaign> | AsyncIterable<Campaign>, output: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Тексты');
  const header = sheet.addRow([...yandexColumns]);
  header.font = { bold: true };
  header.commit();
  for await (const campaign of campaigns) for (const row of yandexRows(campaign)) sheet.addRow(yandexColumns.map((column) => row[column])).commit();
  sheet.commit();
  await workbook.commit();
}

/** The whole XLSX of the changes in memory (tests). */
export async function exportYandexXlsx(data: CampaignData, changes: ChangeSet): Promise<Buffer> {
  const pieces: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pieces.push(chunk);
      done();
    },
  });
  await writeYandexXlsx(changedCampaigns(data, changes), output);
  return Buffer.concat(pieces);
}
