/// <reference lib="dom" />
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { createProjectFromFiles, runAnalysisToCompletion } from './helpers/flows.js';
import { writeGeneratedAccount } from './helpers/generated-account.js';
import { seriousAxeViolations, sidewaysOverflow } from './helpers/screen-checks.js';

const ADMIN = { email: 'admin@board.test', password: 'AdminPass123' };
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 360, height: 740 };
const PROJECT = 'Окна Лаб — сводка';

/**
 * The same account a month later: in every group the keyword «цена …» (the third) now spends 3 600 ₽ over
 * 40 clicks without a conversion, so the money lost grows. Rewrites the statistics report in place.
 */
async function moreWaste(statsFile: string): Promise<void> {
  const lines = (await readFile(statsFile, 'utf8')).split('\n').map((line) => {
    const cells = line.split(';');
    if (cells.length < 13 || !cells[5]!.startsWith('цена ')) return line;
    cells[7] = '600';
    cells[8] = '40';
    cells[9] = '6,67';
    cells[10] = '3600,00';
    cells[11] = '90,00';
    cells[12] = '0';
    return cells.join(';');
  });
  await writeFile(statsFile, lines.join('\n'), 'utf8');
}

/** The board's line of the project, once the board has its data. */
async function boardRow(page: Page) {
  await page.goto('/board');
  await page.getByRole('heading', { level: 1, name: 'Сводка по проектам' }).waitFor();
  const row = page.getByTestId('board-row').filter({ hasText: PROJECT });
  await row.waitFor();
  return row;
}

describe('the agency board', () => {
  let session: AdminSession;
  let page: Page;
  let folder: string;
  let projectId: string;

  beforeAll(async () => {
    session = await startAdminSession({ admin: ADMIN, viewport: DESKTOP });
    page = session.page;
    folder = await mkdtemp(path.join(os.tmpdir(), 'reklama-board-'));
    const account = await writeGeneratedAccount(folder, { campaigns: 1, groupsPerCampaign: 3, keywordsPerGroup: 10 });
    projectId = await createProjectFromFiles(page, { name: PROJECT, site: 'okna-lab.example', platform: 'Яндекс Директ', files: account.files, targetCpa: 1500 });
    await runAnalysisToCompletion(page, projectId);

    // A month later: the same files, the statistics with more waste, imported again and audited again.
    await moreWaste(account.files[1]!);
    await page.goto(`/projects/${projectId}`);
    await page.getByRole('button', { name: 'Обновить кампании' }).click();
    await page.getByLabel('Файлы выгрузки').setInputFiles(account.files);
    await page.getByRole('button', { name: 'Проверить файлы' }).click();
    await page.getByRole('button', { name: 'Сохранить импорт' }).click();
    await page.getByText('Кампании обновлены').waitFor();
    await runAnalysisToCompletion(page, projectId);
  }, 300_000);
  afterAll(async () => {
    await session?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('shows at desktop width the project whose money at risk grew: the figure, its rise, the trend and the new findings', async () => {
    const row = await boardRow(page);
    await expect.poll(() => row.locator('.money-change--worse').count()).toBe(1);
    expect(await row.locator('.money-change--worse').innerText()).toMatch(/^\+\d[\d\s]* ₽\/мес$/);
    expect(await row.locator('.sparkline--grew').count()).toBe(1);
    expect(await row.locator('td[data-label="Новые находки"]').innerText()).toMatch(/^[1-9]\d* наход/);
    expect(await row.locator('td[data-label="Последний запуск"] .badge').innerText()).toBe('Завершён');
    // A table with its header at this width.
    expect(await page.getByRole('columnheader', { name: 'Потери в месяц' }).isVisible()).toBe(true);

    // The filter «Потери выросли» keeps it, the search for another name hides it.
    await page.getByRole('combobox', { name: 'Показать' }).selectOption({ label: 'Потери выросли' });
    expect(await page.getByTestId('board-row').filter({ hasText: PROJECT }).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Поиск по названию' }).fill('Диваны');
    await page.getByText('Нет проектов, подходящих под условия.').waitFor();

    // Its project page says what changed: the new findings with their money, and the trend.
    await page.goto(`/projects/${projectId}`);
    const changes = page.getByRole('region', { name: 'Что изменилось' });
    await changes.getByRole('region', { name: 'Новые' }).waitFor();
    expect(await changes.getByRole('img', { name: /^Потери, ₽ в месяц:/ }).count()).toBe(1);
    expect(await changes.getByRole('region', { name: 'Новые' }).locator('.money-change--worse').first().innerText()).toMatch(/^\+\d[\d\s]* ₽\/мес$/);
  }, 120_000);

  it('at 360 px the board is cards and «Что изменилось» fits, without sideways scrolling; the board opens offline from the saved copy', async () => {
    await page.setViewportSize(PHONE);
    const row = await boardRow(page);
    await row.locator('.money-change--worse').waitFor();
    expect(await page.getByRole('columnheader', { name: 'Потери в месяц' }).isVisible()).toBe(false);
    // Each cell says its column's name on a card.
    const cell = await row.locator('td[data-label="Потери в месяц"]').evaluate((element) => getComputedStyle(element, '::before').content);
    expect(cell).toBe('"Потери в месяц"');
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // «Что изменилось» on the project page fits the phone too.
    await page.goto(`/projects/${projectId}`);
    await page.getByRole('region', { name: 'Что изменилось' }).getByRole('region', { name: 'Новые' }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.context().setOffline(true);
    try {
      const offlineRow = await boardRow(page);
      expect(await offlineRow.locator('.money-change--worse').count()).toBe(1);
    } finally {
      await page.context().setOffline(false);
    }
  }, 120_000);
});
