/// <reference lib="dom" />
/**
 * The screens as a new user meets them, at a 360 px phone and a 1366 px desktop: the audit ends on its
 * results with the bar drawn full, stacked tables keep their column names, no word is cut in two, the
 * banners share one low dock, the admin area speaks Russian, and offline every screen either reads from
 * what the device kept or says it waits for the network (never a spinner for ever).
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { newContext } from './helpers/browser.js';
import { createProjectFromFiles, login, openNewAnalysis, startAnalysis, waitForAnalysisToFinish } from './helpers/flows.js';
import { sidewaysOverflow, unlabelledTableCells, wordsBrokenMidWord } from './helpers/screen-checks.js';

const ADMIN = { email: 'admin@screens.test', password: 'AdminPass123' };
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };
const fixtures = path.resolve(new URL('../fixtures/imports', import.meta.url).pathname);
const projectFile = path.join(fixtures, 'direct-export-utf8-bom.csv');

/** A signed-in page of a fresh context at this size, the cookie question answered unless `cookieBanner`. */
async function signedIn(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await newContext(browser, url, viewport);
  await context.addInitScript(() => window.localStorage.setItem('cookie_consent_given', 'true'));
  const page = await context.newPage();
  await login(page, ADMIN);
  return page;
}

/** Opens a screen and waits until its data is there (no spinner, nothing busy). */
async function open(page: Page, route: string): Promise<void> {
  await page.goto(route);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.locator('.spinner, [aria-busy="true"]').first().waitFor({ state: 'detached' });
}

describe('screens at 360 px and on a desktop', () => {
  let session: AdminSession;
  let projectId: string;
  let analysisId: string;
  let drawnAtHundred: number;

  beforeAll(async () => {
    session = await startAdminSession({ admin: ADMIN, viewport: DESKTOP });
    const page = session.page;
    await page.evaluate(() => window.localStorage.setItem('cookie_consent_given', 'true'));
    projectId = await createProjectFromFiles(page, { name: 'Диваны Комфорт', site: 'divany-komfort.example', platform: 'Яндекс Директ', files: [projectFile], targetCpa: 1500 });
    await openNewAnalysis(page, projectId);
    ({ analysisId } = await startAnalysis(page));
    drawnAtHundred = await waitForAnalysisToFinish(page, projectId, analysisId);
  }, 240_000);
  afterAll(async () => {
    await session?.close();
  });

  it('ends the audit on the results it announced, the bar drawn full beside «100 %»', async () => {
    expect(drawnAtHundred).toBeGreaterThan(0.995);
    expect(new URL(session.page.url()).pathname).toBe(`/projects/${projectId}/analysis/${analysisId}/results`);
    await session.page.getByRole('heading', { level: 1, name: 'Результаты аудита' }).waitFor();
  });

  const screens = () => [
    '/projects',
    `/projects/${projectId}`,
    `/projects/${projectId}/analysis/new`,
    `/projects/${projectId}/analysis/history`,
    `/projects/${projectId}/analysis/${analysisId}/results`,
    `/projects/${projectId}/analysis/${analysisId}/semantic`,
    `/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`,
    '/tokens',
    '/organization',
    '/admin',
    '/admin/users',
    '/admin/organizations',
    '/admin/runs',
    '/admin/audit',
  ];

  for (const [size, viewport] of [
    ['360 px', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`cuts no word in two and names the column of every stacked table cell (${size})`, async () => {
      const page = await signedIn(session.browser, session.server.url, viewport);
      const found: Record<string, unknown> = {};
      for (const screen of screens()) {
        await open(page, screen);
        const broken = await wordsBrokenMidWord(page);
        const unlabelled = await unlabelledTableCells(page);
        if (broken.length > 0) found[`${screen}: broken words`] = broken;
        if (viewport === PHONE && unlabelled.length > 0) found[`${screen}: cells without a column name`] = unlabelled;
      }
      expect(found).toEqual({});
      await page.context().close();
    }, 180_000);
  }

  it('labels the columns of the import preview and the import history on a phone («Кампании: 1», not «1»)', async () => {
    const page = await signedIn(session.browser, session.server.url, PHONE);
    await open(page, `/projects/${projectId}`);
    const history = page.locator('table.table').first();
    const labels = await history.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    expect(labels).toEqual(expect.arrayContaining(['"Когда"', '"Кампании"', '"Фразы"', '"Объявления"', '"Замечания"', '"Кто"']));

    await page.goto('/projects/create/step1');
    const step1 = page.getByRole('form', { name: 'Новый проект: шаг 1' });
    await step1.getByLabel('Название проекта').fill('Предпросмотр на телефоне');
    await step1.getByLabel('Сайт').fill('divany-komfort.example');
    await step1.getByRole('radio', { name: 'Яндекс Директ' }).check();
    await step1.getByRole('button', { name: 'Далее' }).click();
    await page.getByLabel('Файлы выгрузки').setInputFiles([projectFile]);
    await page.getByRole('button', { name: 'Проверить файлы' }).click();
    const preview = page.getByRole('region', { name: 'Что будет импортировано' });
    await preview.locator('table.table td').first().waitFor();
    expect(await unlabelledTableCells(page)).toEqual([]);
    expect(await wordsBrokenMidWord(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.context().close();
  });

  it('docks the cookie banner and the offline-ready notice together, low enough to leave the registration form readable (360 px)', async () => {
    const context = await newContext(session.browser, session.server.url, PHONE);
    const guest = await context.newPage();
    await guest.goto('/auth');
    await guest.getByRole('tab', { name: 'Регистрация' }).click();
    await guest.getByRole('form', { name: 'Регистрация' }).waitFor();
    const dock = guest.locator('.bottom-dock');
    await dock.locator('.cookie-banner').waitFor();
    await dock.getByText('Приложение готово к работе без сети').waitFor();
    const box = (await dock.boundingBox())!;
    // Both in the one dock, and the dock at most a sixth of the screen (they covered a third).
    expect(box.height).toBeLessThanOrEqual(PHONE.height / 6);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    expect(await guest.locator('.cookie-banner, .update-prompt').count()).toBe(await dock.locator('.cookie-banner, .update-prompt').count());
    expect(await wordsBrokenMidWord(guest)).toEqual([]);
    await context.close();
  });

  it('speaks Russian everywhere in the admin area: actions, queues, plans, kinds of runs', async () => {
    const page = session.page;
    // An audited action: a plan changed.
    await open(page, '/admin/organizations');
    await page.getByRole('table', { name: 'Организации' }).getByRole('link').first().click();
    const plan = page.getByRole('combobox', { name: 'Тариф организации' });
    await plan.selectOption({ label: 'Бизнес' });
    await page.getByRole('button', { name: 'Сменить тариф' }).click();
    await page.getByText(/^Тариф организации «.+»: Бизнес$/).waitFor();

    const latin: Record<string, string[]> = {};
    for (const screen of ['/admin', '/admin/users', '/admin/organizations', '/admin/runs', '/admin/audit', '/admin/invoices']) {
      await open(page, screen);
      if (screen === '/admin/runs') await page.getByRole('table', { name: 'Очереди задач' }).waitFor();
      if (screen === '/admin/audit') await page.getByRole('table', { name: 'Журнал действий' }).getByText('Смена тарифа').first().waitFor();
      const text = (await page.locator('main').innerText()).replace(/[\w.+-]+@[\w.-]+/g, ' ');
      // Product and platform names are names; every other Latin word on these screens is a machine value shown raw.
      const words = [...new Set(text.match(/[A-Za-z_][A-Za-z0-9_.-]*/g) ?? [])].filter((word) => !['Reklama', 'Lab', 'Google', 'Ads', 'VK', 'API', 'Email', 'email', 'CSV', 'XLSX', 'PDF'].includes(word));
      if (words.length > 0) latin[screen] = words;
    }
    expect(latin).toEqual({});
  }, 120_000);

  it('offline: the screens opened before read from the device, the others say they wait for the network', async () => {
    const page = await signedIn(session.browser, session.server.url, DESKTOP);
    const context: BrowserContext = page.context();
    const plan = `/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`;
    // Opened once online: the tokens screen (packages, payments), the project and the plan.
    await open(page, `/projects/${projectId}`);
    await open(page, '/tokens');
    await page.getByRole('list', { name: 'Пакеты токенов' }).waitFor();
    await open(page, plan);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await context.setOffline(true);
    try {
      await page.goto('/tokens');
      await page.getByRole('list', { name: 'Пакеты токенов' }).waitFor();
      expect(await page.getByText('Загрузка пакетов…').count()).toBe(0);

      await page.goto(plan);
      await page.getByRole('heading', { level: 1, name: 'План действий по результатам аудита' }).waitFor();

      // Never opened on this device: said, not spun.
      await page.goto(`/projects/${projectId}/page-check/new`);
      await page.getByTestId('needs-network').first().waitFor();
      await page.goto(`/projects/${projectId}/analysis/new`);
      await page.getByRole('region', { name: 'Стоимость' }).getByTestId('needs-network').waitFor();
      expect(await page.getByText('Считаем стоимость…').count()).toBe(0);
    } finally {
      await context.setOffline(false);
      await context.close();
    }
  }, 120_000);
});
