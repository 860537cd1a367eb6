import type { Requisites } from '../../contract/payments.js';
import { amountInWords, formatRoubles } from './amount-in-words.js';
import type { SellerRequisites } from '../config/payments.js';
import { formatCountOf } from '../../contract/format.js';
import { openPdfDocument } from '../lib/pdf-document.js';

// The font ships in an npm package (nothing is downloaded at run time); DejaVu covers Cyrillic.

export interface InvoiceDocument {
  number: number;
  createdAt: Date;
  buyer: Requisites;
  seller: SellerRequisites;
  /** The package's Russian name (null: the package is no longer sold; the line names the tokens alone). */
  packageName: string | null;
  tokens: number;
  amountKopecks: number;
}

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Moscow' });

/**
 * «Счёт на оплату» in the usual Russian layout: the seller's bank details, the parties, one line for
 * the package, the total and the total in words. The document info carries the number and the sum in
 * plain ASCII (`Subject`), which lets a client or a test read them without a PDF text extractor.
 */
export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const { doc, bytes } = openPdfDocument({
    size: 'A4',
    margin: 40,
    info: {
      Title: `Invoice ${invoice.number}`,
      Subject: `Invoice ${invoice.number}: ${(invoice.amountKopecks / 100).toFixed(2)} RUB for ${invoice.tokens} tokens`,
      Author: 'Reklama Lab',
    },
  });
  const { seller, buyer } = invoice;
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const page: Page = { doc, left, width };
  const total = formatRoubles(invoice.amountKopecks);

  bankDetails(page, seller);

  doc.moveDown(1.5);
  doc.font('bold').fontSize(15).text(`Счёт на оплату № ${invoice.number} от ${dateFormat.format(invoice.createdAt)}`, left, doc.y, { width });
  doc.moveTo(left, doc.y + 4).lineTo(left + width, doc.y + 4).lineWidth(1.5).stroke();
  doc.moveDown(1);

  const party = (label: string, text: string) => {
    const y = doc.y;
    doc.font('regular').fontSize(10).text(label, left, y, { width: 100 });
    doc.font('bold').text(text, left + 105, y, { width: width - 105 });
    doc.moveDown(0.6);
  };
  party('Поставщик:', `${seller.name}, ИНН ${seller.inn}, КПП ${seller.kpp}, ОГРН ${seller.ogrn}, ${seller.address}`);
  party('Покупатель:', [buyer.name, `ИНН ${buyer.inn}`, buyer.kpp ? `КПП ${buyer.kpp}` : '', buyer.address].filter(Boolean).join(', '));
  party('Основание:', 'Оферта сервиса Reklama Lab');

  itemTable(page, invoice, total);

  totalLines(page, seller, total);
  doc.moveDown(0.8);
  doc.font('regular').fontSize(10).text(`Всего наименований 1, на сумму ${total} руб.`, left, doc.y, { width });
  doc.font('bold').text(amountInWords(invoice.amountKopecks), { width });
  doc.font('regular').fontSize(9).moveDown(0.5).text(seller.vatNote, { width });
  doc.moveDown(0.5).text(
    `Оплатить не позднее ${seller.payWithinDays} банковских дней с даты счёта. В назначении платежа укажите «Оплата по счёту № ${invoice.number}». Токены зачисляются на баланс после поступления оплаты.`,
    { width },
  );
  doc.moveTo(left, doc.y + 6).lineTo(left + width, doc.y + 6).lineWidth(1.5).stroke();
  doc.moveDown(2.5);
  doc.font('regular').fontSize(10).text(`${seller.signer} ____________________`, left, doc.y, { width });
  doc.moveDown(1).text('Бухгалтер ____________________', { width });
  doc.end();
  return bytes;
}

/** The document and its text area. */
interface Page {
  doc: PDFKit.PDFDocument;
  left: number;
  width: number;
}

/** The box of the seller's bank details at the top. */
function bankDetails({ doc, left, width }: Page, seller: SellerRequisites): void {
  doc.font('regular').fontSize(9);
  const boxTop = doc.y;
  const rows: [string, string][] = [
    ['Банк получателя', seller.bank],
    ['БИК', seller.bik],
    ['Корр. счёт', seller.correspondentAccount],
    ['Получатель', `${seller.name}, ИНН ${seller.inn}, КПП ${seller.kpp}`],
    ['Расчётный счёт', seller.account],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.text(label, left + 4, y + 3, { width: 120 });
    doc.text(value, left + 130, y + 3, { width: width - 134 });
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(0.5).stroke();
    doc.y += 2;
  }
  doc.rect(left, boxTop, width, doc.y - boxTop).lineWidth(0.8).stroke();
  doc.moveTo(left + 126, boxTop).lineTo(left + 126, doc.y).stroke();
}

/** The one line: package of tokens, under its column titles. */
function itemTable({ doc, left, width }: Page, invoice: InvoiceDocument, total: string): void {
  doc.moveDown(0.5);
  const columns = [
    { title: '№', width: 24 },
    { title: 'Товары (работы, услуги)', width: width - 24 - 50 - 40 - 90 - 90 },
    { title: 'Кол-во', width: 50 },
    { title: 'Ед.', width: 40 },
    { title: 'Цена, ₽', width: 90 },
    { title: 'Сумма, ₽', width: 90 },
  ];
  const cells = ['1', `Токены сервиса Reklama Lab${invoice.packageName ? `: пакет «${invoice.packageName}»` : ''}, ${formatCountOf(invoice.tokens, ['токен', 'токена', 'токенов'])}`, '1', 'шт', total, total];
  const drawRow = (values: string[], font: 'regular' | 'bold') => {
    const top = doc.y;
    doc.font(font).fontSize(9);
    const heights = values.map((value, index) => doc.heightOfString(value, { width: columns[index]!.width - 8 }));
    const height = Math.max(...heights) + 8;
    let x = left;
    values.forEach((value, index) => {
      doc.text(value, x + 4, top + 4, { width: columns[index]!.width - 8, align: index >= 2 ? 'right' : 'left' });
      doc.rect(x, top, columns[index]!.width, height).lineWidth(0.6).stroke();
      x += columns[index]!.width;
    });
    doc.x = left;
    doc.y = top + height;
  };
  drawRow(columns.map((column) => column.title), 'bold');
  drawRow(cells, 'regular');
}

/** «Итого», the VAT line and «Всего к оплате», right-aligned. */
function totalLines({ doc, left, width }: Page, seller: SellerRequisites, total: string): void {
  doc.moveDown(0.8);
  const totals: [string, string][] = [
    ['Итого:', total],
    [seller.vatNote.startsWith('Без') ? 'Без налога (НДС):' : 'В том числе НДС:', seller.vatNote.startsWith('Без') ? '—' : seller.vatNote],
    ['Всего к оплате:', total],
  ];
  for (const [label, value] of totals) {
    const y = doc.y;
    doc.font('bold').fontSize(10).text(label, left, y, { width: width - 100, align: 'right' });
    doc.text(value, left + width - 95, y, { width: 95, align: 'right' });
  }
}
