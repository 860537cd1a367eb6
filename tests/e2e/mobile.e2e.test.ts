/// <reference lib="dom" />
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { newContext } from './helpers/browser.js';
import { createProjectFromFiles } from './helpers/flows.js';

const ADMIN = { email: 'admin@mobile.test', password: 'AdminPass123' };
const PHONE = { width: 360, height: 740 };
const fixtures = path.resolve(new URL('../fixtures/imports', import.meta.url).pathname);

/** How far the page is wider than the phone's screen (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the app on a 360 px wide phone screen', () => {
  let session: AdminSession;
  let page: Page;
  let projectId: string;

  beforeAll(async () => {
    session = await startAdminSession({ admin: ADMIN, viewport: PHONE });
    page = session.page;
    projectId = await createProjectFromFiles(page, {
      name: 'Диваны Комфорт на телефоне',
      site: 'divany-komfort.example',
      platform: 'Яндекс Директ',
      files: [path.join(fixtures, 'direct-export-utf8-bom.csv')],
    });
  });
  afterAll(async () => {
    await session?.close();
  });

  it('shows every main screen without sideways scrolling, with the balance label in the header', async () => {
    const screens = ['/projects', `/projects/${projectId}`, `/projects/${projectId}/analysis/new`, `/projects/${projectId}/analysis/history`, '/projects/create/step1', '/tokens', '/organization', '/admin', '/about'];
    for (const screen of screens) {
      await page.goto(screen);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect({ screen, overflow: await sidewaysOverflow(page) }).toEqual({ screen, overflow: 0 });
      await expect(page.getByRole('link', { name: /Баланс:/ }).isVisible()).resolves.toBe(true);
    }
  });

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
    expect(await sidewaysOverflow(guest)).toBe(0);
    await guest.getByRole('tab', { name: 'Регистрация' }).click();
    await guest.getByRole('form', { name: 'Регистрация' }).waitFor();
    expect(await sidewaysOverflow(guest)).toBe(0);
    await guest.context().close();
  });
});
