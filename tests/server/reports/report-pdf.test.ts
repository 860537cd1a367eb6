/**
 * The client report PDF on paper: a long report (long names, long fixes, a twelve-audit trend, an AI
 * plan) breaks into A4 pages with every line inside the margins and nothing cut: each finding's whole
 * fix is in the text read back. Drawn straight by the renderer (no database): the layout is what is tested.
 */
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { MoneyStory } from '../../../contract/analysis-results.js';
import type { ClientReport } from '../../../contract/reports.js';
import { renderClientReportPdf } from '../../../server/reports/report-pdf.js';
import { dataUrl, pdfText, pngLogo } from './helpers.js';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 51;

const longFix = (n: number) =>
  `Исправление ${n}: ${'добавьте минус-слова «бесплатно», «своими руками», «вакансии» и проверьте посадочную страницу кампании, '.repeat(5)}конец ${n}.`;

function longReport(): ClientReport {
  const money: MoneyStory = {
    perMonth: 1_234_567.4,
    period: 1_190_000,
    saving: { perMonth: 98_765, period: 95_000, reference: 'target' },
    spendPerMonth: 5_000_000,
    causes: [
      { cause: 'wasted_keywords', perMonth: 800_000, period: 770_000, count: 12_000, list: { kind: 'findings' } },
      { cause: 'non_target_queries', perMonth: 334_567.4, period: 320_000, count: 5_400, list: { kind: 'suggestions' } },
      { cause: 'network_placements', perMonth: 100_000, period: 100_000, count: 310, list: { kind: 'findings' } },
      { cause: 'overpaid_clicks', perMonth: 98_765, period: 95_000, count: 420, list: { kind: 'findings' } },
    ],
  };
  return {
    brand: { name: 'Агентство контекстной рекламы «Северное сияние» — отдел аналитики и аудита', accentColor: '#0a7f5c', logo: dataUrl(pngLogo(300, 100)) },
    projectName: 'Интернет-магазин мебели «Комфорт» — Москва и Московская область, все кампании поиска и сетей',
    platform: 'yandex_direct',
    auditedAt: '2026-11-30T10:00:00.000Z',
    period: { from: '2026-10-01', to: '2026-10-31' },
    counts: { campaigns: 48, keywords: 100_000 },
    score: 37,
    findingsTotal: 2_345,
    money,
    wastedPerMonth: 800_000,
    findings: Array.from({ length: 8 }, (_, index) => ({
      title: `Замечание номер ${index + 1}: фразы без конверсий с расходом выше порога в кампании с очень длинным названием`,
      severity: (['high', 'medium', 'low'] as const)[index % 3],
      place: `Кампания «Диваны и кресла — поиск — Москва ${index}» → Группа «Угловые диваны с механизмом еврокнижка ${index}»`,
      count: index % 2 ? 1_250 + index : null,
      moneyPerMonth: 50_000 - index * 1000,
      fix: longFix(index + 1),
    })),
    plan: {
      source: 'ai',
      summary: 'Главная утечка — фразы без конверсий и нецелевые запросы; начните с минус-слов, затем пересоберите группы.',
      steps: Array.from({ length: 8 }, (_, index) => ({ title: `Шаг ${index + 1}: сократить расход на неэффективные фразы`, detail: longFix(100 + index), moneyPerMonth: index % 2 ? null : 20_000 })),
    },
    trend: Array.from({ length: 12 }, (_, index) => ({ date: new Date(Date.UTC(2025, 11 + index, 28)).toISOString(), score: 20 + index, moneyPerMonth: index === 3 ? null : 2_000_000 - index * 60_000 })),
    changes: null,
  };
}

describe('the client report PDF on A4', () => {
  it('breaks a long report into pages with every line inside the margins and no text cut', async () => {
    const report = longReport();
    const pdf = await renderClientReportPdf(report);
    const document = await getDocumentProxy(new Uint8Array(pdf));
    expect(document.numPages).toBeGreaterThan(2);
    const outside: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const [, , width, height] = page.view;
      expect(width).toBeCloseTo(A4.width, 1);
      expect(height).toBeCloseTo(A4.height, 1);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [, , , , x, y] = item.transform as number[];
        // pdf.js measures from the bottom-left corner; a line's baseline is inside the printable area.
        const inside = x >= MARGIN - 1 && x + item.width <= width - MARGIN + 1 && y >= MARGIN - 12 && y <= height - MARGIN + 1;
        if (!inside) outside.push(`page ${number}: «${item.str}» at ${x.toFixed(0)},${y.toFixed(0)} width ${item.width.toFixed(0)}`);
      }
    }
    expect(outside).toEqual([]);

    const text = await pdfText(pdf);
    expect(text).toContain('Теряете ≈ 1 234 567 ₽ в месяц');
    expect(text).toContain('за 01.10.2026 — 31.10.2026');
    expect(text).toContain('25 % расхода');
    expect(text).toContain('Можно сэкономить ≈ 98 765 ₽ в месяц');
    expect(text).toContain('Конверсии дороже целевой цены');
    expect(text).toContain('План действий (составлен ИИ по результатам аудита)');
    // Every fix and every plan step whole, to its last words.
    for (let n = 1; n <= 8; n++) expect(text).toContain(`конец ${n}.`);
    for (let n = 100; n < 108; n++) expect(text).toContain(`конец ${n}.`);
    expect(text).toContain(`1 из ${document.numPages}`);
    expect(text).toContain(`${document.numPages} из ${document.numPages}`);
  });

  it('draws the bar chart of the causes as vector paths, not as an image', async () => {
    const report = { ...longReport(), brand: { name: 'Север', accentColor: '#0a7f5c', logo: null } };
    const raw = (await renderClientReportPdf(report)).toString('latin1');
    expect(raw).not.toContain('/Subtype /Image');
    expect(raw).toContain('/FontFile2');
  });
});
