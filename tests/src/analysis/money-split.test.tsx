/**
 * Issue 28, «the headline mixes kinds of money», on the screens: the flower shop account
 * (tests/fixtures/analysis/flower-shop.ts) run through the real engine, its summary served as the results
 * API would. Before the fix the header said «Теряете ≈ 21 200 ₽ в месяц» (lost and dearer conversions
 * together, the latter «Переплата за клик») and the plan's steps added up to 33 800 ₽.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditResult } from '@contract/analysis.js';
import { buildResultsSummary } from '../../../server/analysis/result-rows.js';
import { runCampaignAnalysis } from '../../../server/engines/scoring/run-analysis.js';
import { flowerShop, flowerShopSettings } from '../../fixtures/analysis/flower-shop.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, fakePagedApi, projectId } from './fixtures';

useTestServer();

const audit: AuditResult = await runCampaignAnalysis(flowerShop(), { settings: flowerShopSettings });
const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;
const text = (element: Element) => element.textContent?.replace(/\s/g, ' ');

beforeEach(() => {
  signInOwner(...fakePagedApi({ findings: audit.scoring.findings, summary: buildResultsSummary(audit) }).handlers);
});

describe('money lost apart from money that could be saved', () => {
  it('the header: spend that brought nothing as the headline, conversions dearer than the target apart, no 0 ₽ rows', async () => {
    await renderAt(resultsPath);
    expect(await screen.findByTestId('money-headline')).toHaveTextContent('Теряете ≈ 7 200 ₽ в месяц');
    // 7 200 of the 32 100 ₽ spent a month.
    expect(screen.getByTestId('money-lost-note')).toHaveTextContent('— 22 % расхода: расход, который не принёс ни одной конверсии');
    const lost = within(screen.getByRole('list', { name: 'Из чего складываются потери' })).getAllByRole('listitem');
    expect(lost.map(text)).toEqual(['Фразы без конверсий6 500 ₽ в месяц2 места', 'Нецелевые запросы700 ₽ в месяц1 место']);
    expect(screen.getByTestId('money-saving')).toHaveTextContent('Можно сэкономить ≈ 13 300 ₽ в месяц: эти клики принесли конверсии, но дороже целевой цены конверсии. Это не потери');
    const saving = within(screen.getByRole('list', { name: 'Где можно сэкономить' })).getAllByRole('listitem');
    expect(saving.map(text)).toEqual(['Конверсии дороже целевой цены13 300 ₽ в месяц2 места']);
    expect(screen.queryByText(/Переплата за клик/)).not.toBeInTheDocument();
    for (const row of screen.getAllByTestId(/^money-cause-/)) expect(row).not.toHaveTextContent(/(^|\D)0 ₽/);
  });

  it('the plan: the steps that make up the headline add up to it, the saving step apart, the rest named as outside the total', async () => {
    server.use(http.get(`/api/v1/analyses/${analysisId}/ai-plans`, () => HttpResponse.json({ available: false, unavailable_reason: 'не настроена', price: 10, balance: 100, items: [] })));
    const user = userEvent.setup();
    await renderAt(resultsPath);
    await user.click(await screen.findByRole('link', { name: 'План действий' }));
    const steps = await screen.findAllByTestId('plan-step');
    expect(steps.slice(0, 6).map((step) => within(step).getByRole('heading').textContent)).toEqual([
      '1. Снизить ставку',
      '2. Остановить фразу',
      '3. Расход без конверсий',
      '4. Нецелевые запросы: добавьте минус-слова',
      '5. Подозрительно высокий CTR в сетях',
      '6. Нецелевая ключевая фраза',
    ]);
    expect(steps[0]).toHaveTextContent('можно сэкономить 13 300 ₽ в месяц');
    expect(steps[1]).toHaveTextContent('потери 5 000 ₽ в месяц');
    expect(steps[2]).toHaveTextContent('потери 1 500 ₽ в месяц');
    expect(steps[3]).toHaveTextContent('потери 700 ₽ в месяц');
    expect(steps[4]).toHaveTextContent('12 000 ₽ в месяц под вопросом, не входит в итог');
    expect(steps[5]).toHaveTextContent('600 ₽ в месяц под вопросом, не входит в итог');
    // 5 000 + 1 500 + 700 = 7 200: the plan's total is the header's.
    expect(screen.getByTestId('plan-total')).toHaveTextContent('Теряете ≈ 7 200 ₽ в месяц: расход без единой конверсии — шаги 2, 3 и 4 вместе.');
    expect(screen.getByTestId('plan-saving')).toHaveTextContent('Можно сэкономить ≈ 13 300 ₽ в месяц на конверсиях дороже целевой цены — шаг 1. Это не потери: к сумме выше не прибавляется.');
    expect(screen.getByTestId('plan-uncounted')).toHaveTextContent('Суммы шагов 5, 6 в итог не входят');
  });
});
