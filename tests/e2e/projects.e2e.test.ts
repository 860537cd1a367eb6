/// <reference lib="dom" />
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { createProjectFromFiles } from './helpers/flows.js';

const fixtures = path.resolve(new URL('../fixtures/imports', import.meta.url).pathname);

describe('creating projects from platform exports in Chromium', () => {
  let session: AdminSession;
  let page: Page;

  beforeAll(async () => {
    session = await startAdminSession();
    page = session.page;
  });
  afterAll(async () => {
    await session?.close();
  });

  const createProject = (name: string, site: string, platform: string, files: string[]) =>
    createProjectFromFiles(page, { name, site, platform, files: files.map((file) => path.join(fixtures, file)) });

  it('imports a Yandex Direct export in two steps and keeps the campaign tree after a reload', async () => {
    await createProject('Диваны Комфорт — Директ', 'divany-komfort.example', 'Яндекс Директ', ['direct-export-utf8-bom.csv']);
    const tree = page.getByRole('list', { name: 'Кампании' });
    await tree.waitFor();
    const before = await tree.innerText();
    expect(before).toMatch(/Диваны/);

    await page.reload();
    await page.getByRole('list', { name: 'Кампании' }).waitFor();
    expect(await page.getByRole('list', { name: 'Кампании' }).innerText()).toBe(before);
  });

  it('imports a Google Ads Editor export (UTF-16, tab-separated) into a second project', async () => {
    await createProject('Диваны Комфорт — Google', 'https://divany-komfort.example/spb', 'Google Ads', ['google-editor-utf16.csv']);
    const tree = page.getByRole('list', { name: 'Кампании' });
    await tree.waitFor();
    expect(await tree.innerText()).toMatch(/Google/);
    await page.reload();
    await page.getByRole('list', { name: 'Кампании' }).waitFor();

    await page.goto('/projects');
    await page.getByText('Диваны Комфорт — Директ').waitFor();
    await page.getByText('Диваны Комфорт — Google').waitFor();
  });
});
