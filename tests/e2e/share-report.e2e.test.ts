/// <reference lib="dom" />
/**
 * Issue 24, items 3 and 4 in Chromium: the owner sets the report's name and logo on /organization,
 * downloads the audit's PDF from the results screen, makes a share link, and a guest without an account
 * opens it on a 360 px phone: the white-label report, not indexed, nothing of the product's chrome; once
 * revoked it no longer opens.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { newContext } from './helpers/browser.js';
import { createProjectFromFiles, login, runAnalysisToCompletion } from './helpers/flows.js';
import { cutMoneyFigures, layersOverControls, seriousAxeViolations, sidewaysOverflow } from './helpers/screen-checks.js';
import { pngLogo } from '../server/reports/helpers.js';

const ADMIN = { email: 'admin@share-report.test', password: 'AdminPass123' };
const PHONE = { width: 360, height: 740 };
const BRAND = 'Агентство «Север»';
const fixtures = path.resolve(new URL('../fixtures/imports', import.meta.url).pathname);

describe('the client report: PDF and a share link opened on a phone', () => {
  let session: AdminSession;
  let page: Page;
  let shareUrl: string;
  let resultsPath: string;

  beforeAll(async () => {
    session = await startAdminSession({ admin: ADMIN });
    page = session.page;
    await page.goto('/organization');
    const form = page.getByRole('form', { name: 'Оформление отчётов' });
    await form.getByLabel('Название в отчёте').fill(BRAND);
    await form.getByLabel(/Логотип/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngLogo(120, 40) });
    await form.getByRole('img', { name: 'Логотип в отчёте' }).waitFor();
    await form.getByRole('button', { name: 'Сохранить оформление' }).click();
    await page.getByText('Оформление отчётов сохранено').waitFor();
    const projectId = await createProjectFromFiles(page, {
      name: 'Диваны Комфорт',
      site: 'divany-komfort.example',
      platform: 'Яндекс Директ',
      files: [path.join(fixtures, 'direct-export-utf8-bom.csv')],
    });
    await runAnalysisToCompletion(page, projectId);
    resultsPath = new URL(page.url()).pathname;
  }, 240_000);
  afterAll(async () => {
    await session?.close();
  });

  it('downloads the PDF from the results screen', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByTestId('download-report').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-report-\d{4}-\d{2}-\d{2}\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 60_000);

  it('makes a link that a guest opens at 360 px: the branded report, noindex, no product header, nothing cut or sideways', async () => {
    await page.getByTestId('create-share-link').click();
    shareUrl = await page.getByTestId('share-link-url').innerText();
    expect(shareUrl).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);

    const guest = await (await newContext(session.browser, session.server.url, PHONE)).newPage();
    const response = await guest.goto(shareUrl);
    expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    await guest.getByRole('heading', { level: 1, name: 'Аудит рекламного аккаунта' }).waitFor();
    await expect.poll(() => guest.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await guest.getByTestId('report-brand').innerText()).toBe(BRAND);
    expect(await guest.getByText('Диваны Комфорт').count()).toBeGreaterThan(0);
    await guest.getByTestId('report-money').waitFor();
    expect(await guest.getByRole('link', { name: /Баланс:/ }).count()).toBe(0);
    expect(await guest.getByText('Чат поддержки').count()).toBe(0);
    const naturalWidth = await guest.locator('.shared-report__logo').evaluate((image) => (image as HTMLImageElement).naturalWidth);
    expect(naturalWidth).toBe(120);

    expect(await sidewaysOverflow(guest)).toBe(0);
    expect(await cutMoneyFigures(guest)).toEqual([]);
    expect(await layersOverControls(guest)).toEqual([]);
    expect(await seriousAxeViolations(guest)).toEqual([]);
    await guest.context().close();
  }, 90_000);

  it("fits the owner's new cards on a phone: branding on /organization, «Отчёт для клиента» on the results", async () => {
    const phone = await (await newContext(session.browser, session.server.url, PHONE)).newPage();
    await login(phone, ADMIN);
    for (const screen of ['/organization', resultsPath]) {
      await phone.goto(screen);
      await phone.getByRole('heading', { level: 2, name: screen === '/organization' ? 'Оформление отчётов для клиентов' : 'Отчёт для клиента' }).waitFor();
      await phone.locator('.spinner, [aria-busy="true"]').first().waitFor({ state: 'detached' });
      expect(await sidewaysOverflow(phone), screen).toBe(0);
      expect(await seriousAxeViolations(phone), screen).toEqual([]);
    }
    await phone.context().close();
  }, 90_000);

  it('no longer opens once revoked', async () => {
    await page.getByRole('list', { name: 'Ссылки на отчёт' }).getByRole('button', { name: 'Отозвать' }).first().click();
    await page.getByText('Ссылка отозвана').first().waitFor();
    const guest = await (await newContext(session.browser, session.server.url, PHONE)).newPage();
    await guest.goto(shareUrl);
    await guest.getByRole('heading', { level: 1, name: 'Отчёт недоступен' }).waitFor();
    await guest.getByText('Ссылка на отчёт отозвана').waitFor();
    await guest.context().close();
  }, 60_000);
});
