/**
 * The client report as an A4 PDF (issue 24, item 3), drawn in the document pool's threads
 * (server/lib/documents.ts) from the same `ClientReport` the share page shows:
 *
 *   const pdf = await buildDocument(new URL('./report-pdf.js', import.meta.url), 'renderClientReportPdf', report);
 *
 * White-label: the organization's name, logo and accent colour, never the product's. DejaVu Sans (Cyrillic,
 * «₽», «≈») is embedded, subset to the glyphs used. Charts are vector paths, sharp in print. Every block is
 * measured before it is drawn and moved whole to the next page when it does not fit, so nothing is cut by
 * a page edge; 18 mm margins leave room for a printer's own.
 */
import { severityLabels } from '../../contract/analysis-results.js';
import { formatDate, formatRub, formatRubPerMonth } from '../../contract/format.js';
import { reportCausesOf, reportChangeLine, reportMoneyLines, reportSubtitle, reportWording as w, type ClientReport } from '../../contract/reports.js';
import { openPdfDocument } from '../lib/pdf-document.js';


const MARGIN = 51; // 18 mm
const FOOTER = 24;
const INK = '#1d2430';
const MUTED = '#5b6472';
const LOSS = '#b3261e';
const TRACK = '#e6e9ee';

type Doc = PDFKit.PDFDocument;

interface Layout {
  doc: Doc;
  left: number;
  width: number;
  accent: string;
}

export function renderClientReportPdf(report: ClientReport): Promise<Buffer> {
  const { doc, bytes } = openPdfDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `${w.title}: ${report.projectName}`, Author: report.brand.name, Subject: w.title },
    lang: 'ru-RU',
    displayTitle: true,
  });
  const layout: Layout = { doc, left: doc.page.margins.left, width: doc.page.width - doc.page.margins.left - doc.page.margins.right, accent: report.brand.accentColor };

  drawHeader(layout, report);
  drawMoney(layout, report);
  drawScore(layout, report);
  if (report.changes) drawChanges(layout, report.changes);
  if (report.trend.length >= 2) drawTrend(layout, report.trend);
  drawFindings(layout, report);
  drawPlan(layout, report);
  drawFooters(layout, report);
  doc.end();
  return bytes;
}

/** Moves to a new page unless `height` points fit below the cursor. */
function keepTogether({ doc }: Layout, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function textHeight(layout: Layout, value: string, font: 'regular' | 'bold', size: number, width = layout.width): number {
  return layout.doc.font(font).fontSize(size).heightOfString(value, { width });
}

function heading(layout: Layout, title: string, keepWith = 60): void {
  const { doc, left, width } = layout;
  doc.moveDown(0.8);
  keepTogether(layout, textHeight(layout, title, 'bold', 14) + 8 + keepWith);
  doc.font('bold').fontSize(14).fillColor(INK).text(title, left, doc.y, { width });
  doc.moveTo(left, doc.y + 2).lineTo(left + 48, doc.y + 2).lineWidth(2).strokeColor(layout.accent).stroke();
  doc.y += 8;
}

function paragraph(layout: Layout, value: string, options: { font?: 'regular' | 'bold'; size?: number; color?: string; indent?: number } = {}): void {
  const { doc, left, width } = layout;
  const font = options.font ?? 'regular';
  const size = options.size ?? 10;
  const indent = options.indent ?? 0;
  keepTogether(layout, Math.min(textHeight(layout, value, font, size, width - indent), 120));
  doc.font(font).fontSize(size).fillColor(options.color ?? INK).text(value, left + indent, doc.y, { width: width - indent });
}

function drawHeader(layout: Layout, report: ClientReport): void {
  const { doc, left, width, accent } = layout;
  const top = doc.y;
  let nameLeft = left;
  if (report.brand.logo) {
    const bytes = Buffer.from(report.brand.logo.slice(report.brand.logo.indexOf(',') + 1), 'base64');
    try {
      doc.image(bytes, left, top, { fit: [120, 44], valign: 'center' });
      nameLeft = left + 132;
    } catch {
      // Logos are checked when uploaded (logo.ts); one pdfkit still cannot read leaves the report without it, not unsent.
    }
  }
  doc.font('bold').fontSize(13).fillColor(accent).text(report.brand.name, nameLeft, top + 12, { width: left + width - nameLeft, align: nameLeft > left ? 'right' : 'left' });
  doc.y = Math.max(doc.y, top + 48);
  doc.rect(left, doc.y, width, 3).fill(accent);
  doc.y += 18;
  doc.font('bold').fontSize(22).fillColor(INK).text(w.title, left, doc.y, { width });
  doc.font('bold').fontSize(13).text(report.projectName, { width });
  doc.moveDown(0.2);
  doc.font('regular').fontSize(9.5).fillColor(MUTED).text(`${reportSubtitle(report)} · аудит от ${formatDate(report.auditedAt)}`, { width });
  doc.fillColor(INK);
}

function drawMoney(layout: Layout, report: ClientReport): void {
  const lines = reportMoneyLines(report);
  heading(layout, w.money, 80);
  const lost = report.money ? Math.round(report.money.perMonth) > 0 : report.wastedPerMonth > 0;
  paragraph(layout, lines.headline, { font: 'bold', size: 20, color: lost ? LOSS : INK });
  if (lines.note) paragraph(layout, lines.note, { size: 9.5, color: MUTED });
  if (!report.money) return;
  const lostCauses = reportCausesOf(report.money, 'lost');
  if (lostCauses.length > 0) {
    layout.doc.moveDown(0.6);
    paragraph(layout, w.causes, { font: 'bold', size: 10.5 });
    barChart(layout, lostCauses, LOSS);
  }
  if (lines.saving) {
    layout.doc.moveDown(0.6);
    paragraph(layout, lines.saving, { size: 10 });
    const savingCauses = reportCausesOf(report.money, 'saving');
    if (savingCauses.length > 0) barChart(layout, savingCauses, layout.accent);
  }
}

/** Horizontal bars, one per cause, as long as its share of the largest; the label above, the sum at the right. */
function barChart(layout: Layout, rows: { label: string; perMonth: number; count: number }[], color: string): void {
  const { doc, left, width } = layout;
  const max = Math.max(...rows.map((row) => row.perMonth), 1);
  const valueWidth = 130;
  for (const row of rows) {
    const labelHeight = textHeight(layout, row.label, 'regular', 9.5, width - valueWidth);
    keepTogether(layout, labelHeight + 16);
    const y = doc.y + 4;
    doc.font('regular').fontSize(9.5).fillColor(INK).text(row.label, left, y, { width: width - valueWidth });
    doc.font('bold').text(formatRubPerMonth(row.perMonth), left + width - valueWidth, y, { width: valueWidth, align: 'right' });
    const barTop = y + labelHeight + 2;
    doc.roundedRect(left, barTop, width, 7, 3.5).fill(TRACK);
    doc.roundedRect(left, barTop, Math.max(7, (width * row.perMonth) / max), 7, 3.5).fill(color);
    doc.fillColor(INK);
    doc.x = left;
    doc.y = barTop + 11;
  }
}

function drawScore(layout: Layout, report: ClientReport): void {
  const { doc, left, width } = layout;
  heading(layout, w.score, 50);
  const top = doc.y;
  const tone = report.score >= 80 ? '#1e7d32' : report.score >= 50 ? '#b26a00' : LOSS;
  doc.font('bold').fontSize(28).fillColor(tone).text(String(report.score), left, top, { width: 70, continued: false });
  doc.font('regular').fontSize(11).fillColor(MUTED).text('из 100', left + 62, top + 14, { width: 60 });
  const gaugeLeft = left + 130;
  const gaugeWidth = width - 130;
  doc.roundedRect(gaugeLeft, top + 12, gaugeWidth, 10, 5).fill(TRACK);
  doc.roundedRect(gaugeLeft, top + 12, Math.max(10, (gaugeWidth * report.score) / 100), 10, 5).fill(tone);
  doc.font('regular').fontSize(9.5).fillColor(MUTED).text(`Замечаний: ${report.findingsTotal.toLocaleString('ru-RU')}. 100 — аудит ничего не нашёл.`, gaugeLeft, top + 28, { width: gaugeWidth });
  doc.fillColor(INK);
  doc.x = left;
  doc.y = Math.max(doc.y, top + 44);
}

function drawChanges(layout: Layout, changes: NonNullable<ClientReport['changes']>): void {
  heading(layout, `${w.changes} (${formatDate(changes.previousDate)})`);
  const line = (item: { title: string; count: number; moneyPerMonth: number | null }) => reportChangeLine(item);
  if (changes.fixed.length === 0) paragraph(layout, w.nothingFixed, { color: MUTED });
  for (const item of changes.fixed) paragraph(layout, `✓ ${line(item)}`);
  if (changes.appeared.length > 0) {
    layout.doc.moveDown(0.4);
    paragraph(layout, 'Появилось нового:', { font: 'bold' });
    for (const item of changes.appeared) paragraph(layout, `• ${line(item)}`);
  }
}

/** Money lost per month on each audit as vector columns, the score under each. */
function drawTrend(layout: Layout, trend: ClientReport['trend']): void {
  const { doc, left, width, accent } = layout;
  const chartHeight = 90;
  heading(layout, w.trend, chartHeight + 50);
  const max = Math.max(...trend.map((point) => point.moneyPerMonth ?? 0), 1);
  const slot = width / trend.length;
  const barWidth = Math.min(36, slot * 0.6);
  const base = doc.y + 14 + chartHeight;
  doc.moveTo(left, base).lineTo(left + width, base).lineWidth(0.5).strokeColor(MUTED).stroke();
  trend.forEach((point, index) => {
    const x = left + slot * index + (slot - barWidth) / 2;
    const money = point.moneyPerMonth ?? 0;
    const height = (chartHeight * money) / max;
    if (height > 0) doc.rect(x, base - height, barWidth, height).fill(index === trend.length - 1 ? accent : '#9aa6b8');
    doc.font('regular').fontSize(7).fillColor(INK).text(point.moneyPerMonth === null ? '—' : formatRub(money), x - 12, base - height - 10, { width: barWidth + 24, align: 'center' });
    doc.fontSize(7.5).fillColor(MUTED).text(formatDate(point.date), left + slot * index, base + 4, { width: slot, align: 'center' });
    doc.text(point.score === null ? '' : `оценка ${point.score}`, left + slot * index, base + 14, { width: slot, align: 'center' });
  });
  doc.fillColor(INK);
  doc.x = left;
  doc.y = base + 28;
  paragraph(layout, 'Столбцы — потери в месяц по каждому аудиту, под ними — оценка аккаунта.', { size: 8.5, color: MUTED });
}

interface FindingBlock {
  title: string;
  meta: string;
  fix: string;
  height: number;
}

function findingBlock(layout: Layout, finding: ClientReport['findings'][number], index: number): FindingBlock {
  const meta = [severityLabels[finding.severity], finding.place, finding.count ? `мест: ${finding.count.toLocaleString('ru-RU')}` : null, finding.moneyPerMonth ? formatRubPerMonth(finding.moneyPerMonth) : null].filter(Boolean).join(' · ');
  const title = `${index + 1}. ${finding.title}`;
  const fix = `${w.fix}: ${finding.fix}`;
  const height = textHeight(layout, title, 'bold', 10.5) + textHeight(layout, meta, 'regular', 9) + textHeight(layout, fix, 'regular', 9.5, layout.width - 10) + 14;
  return { title, meta, fix, height };
}

function drawFindings(layout: Layout, report: ClientReport): void {
  const { doc, left, width } = layout;
  const blocks = report.findings.map((finding, index) => findingBlock(layout, finding, index));
  // The heading goes with its first finding (a long one: with its first lines at least).
  heading(layout, w.findings, Math.min(blocks[0]?.height ?? 20, 200));
  if (blocks.length === 0) return paragraph(layout, w.noFindings, { color: MUTED });
  for (const block of blocks) {
    keepTogether(layout, Math.min(block.height, 200));
    doc.moveDown(0.4);
    doc.font('bold').fontSize(10.5).fillColor(INK).text(block.title, left, doc.y, { width });
    doc.font('regular').fontSize(9).fillColor(MUTED).text(block.meta, { width });
    const fixTop = doc.y + 3;
    doc.font('regular').fontSize(9.5).fillColor(INK).text(block.fix, left + 10, fixTop, { width: width - 10 });
    // The rule beside the fix, on the page where the fix ended (a fix longer than a page starts its rule at the top).
    const ruleTop = doc.y < fixTop ? doc.page.margins.top : fixTop;
    doc.moveTo(left + 2, ruleTop).lineTo(left + 2, doc.y).lineWidth(2).strokeColor(layout.accent).stroke();
    doc.x = left;
  }
}

function drawPlan(layout: Layout, report: ClientReport): void {
  const { doc, left, width } = layout;
  const steps = report.plan.steps.map((step, index) => {
    const title = `${index + 1}. ${step.title}${step.moneyPerMonth ? ` — ${formatRubPerMonth(step.moneyPerMonth)}` : ''}`;
    return { title, detail: step.detail, height: textHeight(layout, title, 'bold', 10.5) + (step.detail ? textHeight(layout, step.detail, 'regular', 9.5, width - 14) : 0) + 8 };
  });
  const summaryHeight = report.plan.summary ? textHeight(layout, report.plan.summary, 'regular', 10) : 0;
  heading(layout, report.plan.source === 'ai' ? w.aiPlan : w.plan, Math.min(summaryHeight + (steps[0]?.height ?? 20), 200));
  if (report.plan.summary) paragraph(layout, report.plan.summary);
  if (steps.length === 0) return paragraph(layout, 'Действовать не нужно: аудит не нашёл замечаний.', { color: MUTED });
  for (const step of steps) {
    keepTogether(layout, Math.min(step.height, 200));
    doc.moveDown(0.4);
    doc.font('bold').fontSize(10.5).fillColor(INK).text(step.title, left, doc.y, { width });
    if (step.detail) doc.font('regular').fontSize(9.5).text(step.detail, left + 14, doc.y + 1, { width: width - 14 });
    doc.x = left;
  }
}

/** «Name · page N of M» on every page, inside the bottom margin (drawn last, when the page count is known). */
function drawFooters(layout: Layout, report: ClientReport): void {
  const { doc, left, width } = layout;
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    doc.moveTo(left, y - 6).lineTo(left + width, y - 6).lineWidth(0.5).strokeColor(TRACK).stroke();
    doc.font('regular').fontSize(7.5).fillColor(MUTED).text(`${report.brand.name} · ${w.footer}`, left, y, { width: width - 70, lineBreak: false, ellipsis: true, height: 10 });
    doc.text(`${index - range.start + 1} из ${range.count}`, left + width - 70, y, { width: 70, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}
