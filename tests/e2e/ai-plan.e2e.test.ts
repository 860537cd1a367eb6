/// <reference lib="dom" />
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingsPage } from '../../contract/analysis-pages.js';
import { readMoneyStory, type Finding, type MoneyStory, type StoredMoneyStory } from '../../contract/analysis-results.js';
import { rankFindings } from '../../server/ai-plan/prompt.js';
import { defaultPricingTable } from '../../server/config/pricing-table.js';
import { startFakeOpenAi, type FakeChatRequest, type FakeOpenAi, type FakeReply } from '../fakes/openai-fake.js';
import { promptCodes } from '../server/ai-plan/helpers.js';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { createProjectFromFiles, exactNumber, headerBalance, ruNumberPattern, runAnalysisToCompletion } from './helpers/flows.js';

const fixturesRoot = path.resolve(new URL('../fixtures', import.meta.url).pathname);
/** A Direct campaign export with its keyword statistics. */
const projectFiles = ['imports/direct-export-utf8-bom.csv', 'imports/yandex-stats.csv'].map((file) => path.join(fixturesRoot, file));
/**
 * The advertiser's target CPA, well under what the busiest phrases' conversions cost in the statistics
 * (about 820–870 ₽): the audit prices their overpay, so the costliest findings have roubles per month.
 */
const TARGET_CPA = 400;

/**
 * The "model's" fixed plan: its steps and which of the prompt's findings each cites, by position in the
 * prompt's list (0 → F1). The prompt lists the costliest findings first, so step 1 rests on the two costliest.
 */
const PLAN = [
  { title: 'Снизьте ставки на фразы с дорогой конверсией', why: 'Конверсия по ним дороже целевой', expected_effect: 'Цена конверсии приблизится к целевой', cites: [0, 1] },
  { title: 'Исправьте объявления', why: 'Аудит нашёл ещё замечания', expected_effect: null, cites: [2] },
];

/** Answers PLAN with the codes (F1, F2…) this very prompt gave. */
function planReply(request: FakeChatRequest): FakeReply {
  const codes = promptCodes(request);
  const steps = PLAN.map(({ cites, ...step }) => ({ ...step, findings: cites.map((index) => codes[index]) }));
  return { content: JSON.stringify({ summary: 'Главная переплата — фразы с дорогой конверсией.', steps }) };
}

/** A pattern of «3 290 ₽ в месяц»: whole roubles, as the screen writes money. */
const rubPerMonth = (value: number) => `${ruNumberPattern(Math.round(value))}\\s₽ в месяц`;

/** Roubles per month of the priced findings among these, as the audit gave them (null when none is priced). */
function moneyOf(findings: Finding[]): number | null {
  const priced = findings.filter((finding) => (finding.moneyPerMonth ?? 0) > 0);
  return priced.length === 0 ? null : priced.reduce((sum, finding) => sum + finding.moneyPerMonth!, 0);
}

/** A pattern of a rouble amount as the screen writes it («29 100 ₽», any space between the thousands). */
const rubText = (value: number) => `${ruNumberPattern(Math.round(value))}\\s₽`;

/** The audit's money story (the headline and the money to save apart) as the results API gives it. */
async function moneyStoryOf(page: Page, baseUrl: string, analysisId: string): Promise<MoneyStory> {
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const response = await fetch(`${baseUrl}/api/v1/analyses/${analysisId}/results`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const { summary } = (await response.json()) as { summary: { money: StoredMoneyStory; settings: { targetCpa: number | null } } };
  return readMoneyStory(summary.money, summary.settings.targetCpa);
}

/** Every finding of the audit as the paged API gives them to the page's signed-in user. */
async function findingsOf(page: Page, baseUrl: string, analysisId: string): Promise<Finding[]> {
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  const findings: Finding[] = [];
  for (let number = 1; ; number += 1) {
    const response = await fetch(`${baseUrl}/api/v1/analyses/${analysisId}/findings?page=${number}&page_size=500`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as FindingsPage;
    findings.push(...answer.items);
    if (answer.page * answer.page_size >= answer.total) return findings;
  }
}

describe('an AI plan of a finished audit in Chromium, written by a language model (a fake OpenAI-compatible server)', () => {
  let fake: FakeOpenAi;
  let session: AdminSession;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.respond(planReply);
    session = await startAdminSession({ env: { LLM_API_URL: fake.url, LLM_API_KEY: fake.apiKey, LLM_MODEL: fake.model } });
    page = session.page;
  });
  afterAll(async () => {
    await session?.close();
    await fake?.close();
  });

  it('opens from the results, shows the price, charges it, waits for the model and shows the steps with the audit’s roubles per month', async () => {
    const projectId = await createProjectFromFiles(page, { name: 'Диваны Комфорт — ИИ-план', site: 'divany-komfort.example', platform: 'Яндекс Директ', files: projectFiles, targetCpa: TARGET_CPA });
    const { analysisId } = await runAnalysisToCompletion(page, projectId);

    // The results screen's button leads to the AI analysis of this audit.
    await page.getByRole('link', { name: 'ИИ-анализ' }).click();
    await page.waitForURL(`**/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`);
    await page.getByRole('heading', { level: 1, name: 'ИИ-анализ' }).waitFor();

    // The price is on the button, next to the balance it will come out of.
    const balanceBefore = await headerBalance(page);
    const requestButton = page.getByRole('button', { name: /^Запросить ИИ-план · \d+ токен/ });
    const price = Number((await requestButton.innerText()).split('·')[1]!.replace(/\D/g, ''));
    expect(price).toBe(defaultPricingTable.aiPlan);
    expect(price).toBeGreaterThan(0);
    await page.getByText(new RegExp(`^На балансе ${ruNumberPattern(balanceBefore)} токен`)).waitFor();

    // While the model thinks (its answer held back) the plan is running, and already paid for.
    const held = fake.hold();
    await requestButton.click();
    await page.waitForURL(new RegExp(`/projects/${projectId}/analysis/${analysisId}/ai-plan/(?!${analysisId})[0-9a-f-]{36}$`));
    await page.getByRole('heading', { level: 1, name: 'ИИ-план действий' }).waitFor();
    const prompt = await held.arrived;
    await page.getByRole('status', { name: 'Языковая модель составляет план' }).waitFor();
    await page.getByTestId('balance-value').filter({ hasText: exactNumber(balanceBefore - price) }).waitFor();
    expect(await page.getByTestId('ai-plan-step').count()).toBe(0);

    // The model answers; the screen picks up the finished plan by itself.
    held.release();
    const facts = page.getByTestId('ai-plan-facts');
    await facts.getByText('Готово', { exact: true }).waitFor();
    expect(await facts.innerText()).toContain(`модель ${fake.model}`);
    expect(await facts.innerText()).toMatch(new RegExp(`стоимость ${price} токен`));
    expect(fake.requests).toHaveLength(1);
    await page.getByText('Главная переплата — фразы с дорогой конверсией.').waitFor();

    // Each step's roubles per month are the audit's money of the findings it cites.
    const codes = promptCodes(prompt);
    expect(codes.length).toBeGreaterThanOrEqual(3);
    const ranked = rankFindings(await findingsOf(page, session.server.url, analysisId));
    const steps = page.getByTestId('ai-plan-step');
    expect(await steps.count()).toBe(PLAN.length);
    const citedByStep = PLAN.map((step) => step.cites.map((index) => ranked[index]!));
    for (const [index, cited] of citedByStep.entries()) {
      const step = steps.nth(index);
      expect(await step.getByRole('heading', { level: 2 }).innerText()).toBe(`${index + 1}. ${PLAN[index]!.title}`);
      await step.getByText(`Замечания аудита (${cited.length})`).waitFor();
      const money = moneyOf(cited);
      if (money === null) expect(await step.innerText()).not.toContain('₽ в месяц');
      else expect(await step.getByText('по оценке аудита').innerText()).toMatch(new RegExp(`^${rubPerMonth(money)} по оценке аудита$`));
    }
    // The overpay priced the two costliest findings, so the first step has roubles; the plan's total is measured
    // against the audit's headline (money lost), the money to save named apart.
    expect(moneyOf(citedByStep[0]!)).toBeGreaterThan(0);
    const story = await moneyStoryOf(page, session.server.url, analysisId);
    const total = await page.getByTestId('ai-plan-total').innerText();
    // This account's money is all to save (conversions dearer than the target): no loss for the plan to cover.
    const lost = story.perMonth >= 1 ? `План охватывает (все потери, которые нашёл аудит: ${rubText(story.perMonth)}|[\\d\\s]+₽ из ${rubText(story.perMonth)} потерь)` : 'Потерь — расхода без конверсий — аудит не нашёл\\.';
    expect(total).toMatch(new RegExp(`^${lost}`));
    if (story.saving.perMonth >= 1) expect(total).toMatch(new RegExp(`Отдельно от потерь можно сэкономить ${rubText(story.saving.perMonth)} в месяц`));

    // The balance stays down by exactly the plan's price (charged once, not refunded).
    await page.reload();
    await page.getByTestId('ai-plan-step').first().waitFor();
    await page.getByTestId('balance-value').filter({ hasText: exactNumber(balanceBefore - price) }).waitFor();
  });
});
