/// <reference lib="dom" />
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { newContext } from './helpers/browser.js';
import { createProjectFromFiles, runAnalysisToCompletion } from './helpers/flows.js';
import { cutMoneyFigures, layersOverControls, seriousAxeViolations, sidewaysOverflow } from './helpers/screen-checks.js';

const ADMIN = { email: 'admin@mobile.test', password: 'AdminPass123' };
const PHONE = { width: 360, height: 740 };
const fixtures = path.resolve(new URL('../fixtures/imports', import.meta.url).pathname);

/** Everything wrong with the screen as it is now; an empty object when it is fine. */
async function problemsOf(page: Page): Promise<Record<string, unknown>> {
  const problems: Record<string, unknown> = {};
  const overflow = await sidewaysOverflow(page);
  if (overflow > 0) problems.sidewaysOverflowPx = overflow;
  const cut = await cutMoneyFigures(page);
  if (cut.length > 0) problems.cutMoney = cut;
  const covered = await layersOverControls(page);
  if (covered.length > 0) problems.layersOverControls = covered;
  const axe = await seriousAxeViolations(page);
  if (axe.length > 0) problems.axe = axe;
  return problems;
}

describe('the app on a 360 px wide phone screen', () => {
  let session: AdminSession;
  let page: Page;
  let projectId: string;
  let analysisId: string;
  /** What was wrong right after «Сохранить проект»: the «Проект создан» toast over the header, say. */
  let afterCreate: Record<string, unknown>;

  beforeAll(async () => {
    session = await startAdminSession({ admin: ADMIN, viewport: PHONE });
    page = session.page;
    // The cookie banner is up (not accepted), as for a new visitor: toasts and banners must share the screen.
    await page.locator('.cookie-banner').waitFor();
    projectId = await createProjectFromFiles(page, {
      name: 'Диваны Комфорт на телефоне',
      site: 'divany-komfort.example',
      platform: 'Яндекс Директ',
      files: [path.join(fixtures, 'direct-export-utf8-bom.csv')],
    });
    await page.locator('[data-sonner-toast]').first().waitFor();
    afterCreate = await problemsOf(page);
    ({ analysisId } = await runAnalysisToCompletion(page, projectId));
  }, 240_000);
  afterAll(async () => {
    await session?.close();
  });

  it('shows every main screen without sideways scrolling, cut money, layers over controls or serious axe findings, with the balance label in the header', async () => {
    const found: Record<string, Record<string, unknown>> = {};
    if (Object.keys(afterCreate).length > 0) found['«Проект создан» toast with the cookie banner up'] = afterCreate;
    const screens = [
      '/projects',
      `/projects/${projectId}`,
      `/projects/${projectId}/analysis/new`,
      `/projects/${projectId}/analysis/history`,
      `/projects/${projectId}/analysis/${analysisId}/results`,
      `/projects/${projectId}/analysis/${analysisId}/semantic`,
      `/projects/${projectId}/analysis/${analysisId}/ai-plan/${analysisId}`,
      `/projects/${projectId}/page-check/new`,
      '/projects/create/step1',
      '/tokens',
      '/organization',
      '/admin',
      '/about',
    ];
    for (const screen of screens) {
      await page.goto(screen);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The header (loaded on demand) shows the balance label on a phone too.
      await page.getByRole('link', { name: /Баланс:/ }).waitFor();
      // Judge the screen once its data is there: no spinner and nothing busy (the header's balance included).
      // Not «network idle», a 500 ms quiet spell that a loaded machine can leave before a query starts.
      await page.locator('.spinner, [aria-busy="true"]').first().waitFor({ state: 'detached' });
      const problems = await problemsOf(page);
      if (Object.keys(problems).length > 0) found[screen] = problems;
    }
    expect(found).toEqual({});
  }, 180_000);

  it('opens the notifications and the user menu inside the screen', async () => {
    await page.goto('/projects');
    await page.getByRole('button', { name: /Уведомления/ }).click();
    await page.getByText('Нет новых уведомлений').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /меню/i }).click();
    const logout = page.getByRole('menuitem', { name: 'Выйти' });
    await logout.waitFor();
    const box = await logout.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await sidewaysOverflow(page)).toBe(0);
  });

  it('fits the auth screen of a guest', async () => {
    const guest = await (await newContext(session.browser, session.server.url, PHONE)).newPage();
    await guest.goto('/auth');
    await guest.getByRole('form', { name: 'Вход' }).waitFor();
    await guest.locator('.cookie-banner').waitFor();
    expect(await problemsOf(guest)).toEqual({});
    await guest.getByRole('tab', { name: 'Регистрация' }).click();
    await guest.getByRole('form', { name: 'Регистрация' }).waitFor();
    expect(await problemsOf(guest)).toEqual({});
    await guest.context().close();
  });
});
