/// <reference lib="dom" />
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { createProjectFromFiles, runAnalysisToCompletion } from './helpers/flows.js';
import { writeGeneratedAccount, type GeneratedAccount } from './helpers/generated-account.js';

/** 3 campaigns × 20 groups × 50 keywords: 3 000 keywords with statistics and a search-query report. */
const SIZE = { campaigns: 3, groupsPerCampaign: 20, keywordsPerGroup: 50 };
const HEADLINE = /^Теряете ≈ [\d\s\u00a0]+ ₽ в месяц$/;
/** How far the page is wider than the screen (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const JOBS_BULK = 'Принять все минус-слова категории „Работа и вакансии“';

describe('results of a few-thousand-keyword account in Chromium', () => {
  let session: AdminSession;
  let page: Page;
  let folder: string;
  let account: GeneratedAccount;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'reklama-e2e-account-'));
    account = await writeGeneratedAccount(folder, SIZE);
    // The audit of 3 000 keywords costs more than the default welcome credit.
    session = await startAdminSession({ env: { WELCOME_CREDIT: '1000' } });
    page = session.page;
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('shows the header and the money breakdown, opens a cause’s list, accepts by filter, exports, and opens offline', async () => {
    expect(account.keywords).toBe(3000);
    const projectId = await createProjectFromFiles(page, { name: 'Окна Лаб — 3 000 фраз', site: 'okna-lab.example', platform: 'Яндекс Директ', files: account.files, targetCpa: 1500 });
    const { analysisId } = await runAnalysisToCompletion(page, projectId);
    const resultsUrl = `/projects/${projectId}/analysis/${analysisId}/results`;

    // The results header: the one money figure and what it is made of.
    await page.goto(resultsUrl);
    const headline = page.getByTestId('money-headline');
    await headline.waitFor();
    const headlineText = (await headline.innerText()).trim();
    expect(headlineText).toMatch(HEADLINE);
    const causes = page.getByRole('list', { name: 'Из чего складываются потери' });
    await causes.getByRole('link', { name: 'Фразы без конверсий' }).waitFor();
    await causes.getByRole('link', { name: 'Нецелевые запросы' }).waitFor();
    // No competing red figures beside it.
    expect(await page.getByTestId('wasted-per-month').count()).toBe(0);

    // A cause opens its filtered list: the findings of its checks.
    await causes.getByRole('link', { name: 'Фразы без конверсий' }).click();
    await page.waitForURL((url) => url.pathname === resultsUrl && url.searchParams.has('check'));
    const findings = page.getByRole('list', { name: 'Список замечаний' });
    await findings.getByTestId('finding').first().waitFor();
    const checkSelect = page.getByRole('combobox', { name: 'Проверка' });
    const checks = JSON.parse(new URL(page.url()).searchParams.get('check')!) as string[];
    expect(checks.length).toBeGreaterThan(0);
    if (checks.length === 1) expect(await checkSelect.inputValue()).toBe(checks[0]);
    // Its findings are read a page at a time (300 keywords to stop: 50 at first), drawn virtualised.
    const shown = page.getByText(/^Показано 50 из \d+$/);
    await shown.waitFor();
    expect(Number((await shown.innerText()).replace(/\s/g, '').split('из')[1])).toBeGreaterThanOrEqual(300);
    expect(await findings.getByTestId('finding').count()).toBeLessThan(50);

    // The non-target queries cause opens the negatives on the suggestions screen; accept one category at once.
    await page.goto(resultsUrl);
    await page.getByRole('list', { name: 'Из чего складываются потери' }).getByRole('link', { name: 'Нецелевые запросы' }).click();
    await page.waitForURL((url) => url.pathname === `/projects/${projectId}/analysis/${analysisId}/semantic` && url.searchParams.has('kind'));
    const suggestions = page.getByRole('list', { name: 'Список предложений' });
    await suggestions.getByTestId('suggestion').first().waitFor();
    await page.getByRole('combobox', { name: 'Категория минус-слов' }).selectOption({ label: 'Работа и вакансии' });
    await page.waitForURL((url) => url.searchParams.get('category') === '["jobs"]');
    await suggestions.getByText(/-вакансии/).first().waitFor();
    expect(await page.getByTestId('accepted-count').innerText()).toBe('0');
    await page.getByRole('button', { name: JOBS_BULK }).click();
    await page.getByText(/^Принято: \d+ предложени/).waitFor();
    await page.getByTestId('accepted-count').filter({ hasNotText: /^0$/ }).waitFor();
    const accepted = Number((await page.getByTestId('accepted-count').innerText()).replace(/\D/g, ''));
    expect(accepted).toBeGreaterThan(0);
    // The list shows the decision it now has.
    await suggestions.getByRole('button', { name: 'Принять', pressed: true }).first().waitFor();

    // Export: the accepted negatives are in the file.
    await page.getByRole('button', { name: 'К результатам' }).click();
    await page.waitForURL(`**${resultsUrl}`);
    const exportCard = page.getByRole('region', { name: 'Выгрузка изменений' });
    await exportCard.getByTestId('accepted-summary').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), exportCard.getByRole('button', { name: 'Яндекс Директ, CSV' }).click()]);
    const exported = await readFile((await download.path())!, 'utf8');
    expect(exported).toContain('вакансии');

    // On a 360 px phone both screens fit without sideways scrolling.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const screen of [resultsUrl, `/projects/${projectId}/analysis/${analysisId}/semantic?kind=%5B%22negative_keyword%22%5D`]) {
      await page.goto(screen);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByTestId(screen === resultsUrl ? 'finding' : 'suggestion').first().waitFor();
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: path.join(process.env.E2E_SCREENSHOTS, `${screen === resultsUrl ? 'results' : 'semantic'}-360.png`), fullPage: true, clip: { x: 0, y: 0, width: 360, height: 2200 } });
      expect({ screen, overflow: await sidewaysOverflow(page) }).toEqual({ screen, overflow: 0 });
    }
    await page.goto(resultsUrl);
    await page.getByTestId('money-headline').waitFor();

    // Offline: the same results screen opens from the saved cache, with its header and first findings.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByTestId('money-headline').waitFor();
      expect((await page.getByTestId('money-headline').innerText()).trim()).toBe(headlineText);
      await page.getByRole('list', { name: 'Список замечаний' }).getByTestId('finding').first().waitFor();
    } finally {
      await page.context().setOffline(false);
    }
  }, 300_000);
});
