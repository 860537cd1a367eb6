/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDirect, teplodomApplyAccount, type FakeDirect } from '../fakes/yandex-direct-fake.js';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { runAnalysisToCompletion, startDirectProject } from './helpers/flows.js';
import { sidewaysOverflow } from './helpers/screen-checks.js';

const DIRECT_TOKEN = 'y0_e2e-apply';
const LONG_TITLE = 'Тёплый пол в квартиру и частный дом с монтажом под ключ недорого';
const SHORT_TITLE = 'Тёплый пол в квартиру и частный дом с монтажом под ключ';
const ORIGINAL_NEGATIVES = ['бесплатно', 'своими руками', 'вакансии'];

describe('applying accepted suggestions through the Direct API in Chromium', () => {
  let direct: FakeDirect;
  let session: AdminSession;
  let page: Page;

  beforeAll(async () => {
    direct = await startFakeDirect(teplodomApplyAccount(), { token: DIRECT_TOKEN });
    session = await startAdminSession({ env: { YANDEX_DIRECT_API_URL: direct.url } });
    page = session.page;
  });
  afterAll(async () => {
    await session?.close();
    await direct?.close();
  });

  /** The list of suggestions is virtualised: scroll until the suggestion is drawn, as a user would. */
  async function scrollTo(suggestion: Locator): Promise<void> {
    for (let step = 0; step < 80 && (await suggestion.count()) === 0; step++) {
      const atBottom = await page.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2);
      await page.mouse.wheel(0, atBottom ? -1_000_000 : 300);
    }
    await suggestion.waitFor();
  }

  async function accept(text: string): Promise<void> {
    const buttons = page.getByRole('group', { name: `Решение: ${text}`, exact: true });
    await scrollTo(buttons);
    await buttons.getByRole('button', { name: 'Принять' }).click();
    await buttons.getByRole('button', { name: 'Принять', pressed: true }).waitFor();
  }

  it('accepts suggestions, previews (with the keywords to stop), applies against the fake API, shows the journal and undoes', async () => {
    // A project read through the API (a pasted token).
    await startDirectProject(page, { name: 'Теплодом', site: 'teplodom.example' });
    await page.getByRole('tab', { name: 'API Яндекс Директа' }).click();
    const form = page.getByRole('form', { name: 'Подключение API Яндекс Директа' });
    await form.getByLabel('OAuth-токен').fill(DIRECT_TOKEN);
    await form.getByLabel('Client-Login (для агентских аккаунтов)').fill('teplodom');
    await form.getByRole('button', { name: 'Загрузить кампании' }).click();
    await page.getByRole('region', { name: 'Что будет импортировано' }).waitFor();
    await page.getByRole('button', { name: 'Сохранить проект' }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    const projectId = new URL(page.url()).pathname.split('/').at(-1)!;

    // The audit, then two decisions: a campaign negative and the shortened headline.
    const { analysisId } = await runAnalysisToCompletion(page, projectId);
    await page.goto(`/projects/${projectId}/analysis/${analysisId}/semantic`);
    await page.getByRole('list', { name: 'Список предложений' }).getByTestId('suggestion').first().waitFor();
    await accept('-скачать');
    await accept(`${LONG_TITLE} → ${SHORT_TITLE}`);
    await page.getByText('Решения сохранены').waitFor();
    await page.getByRole('button', { name: 'К результатам' }).click();
    await page.waitForURL(`**/projects/${projectId}/analysis/${analysisId}/results`);

    // The preview: every change, before → after, and the API points; nothing written yet.
    const exportCard = page.getByRole('region', { name: 'Выгрузка изменений' });
    await exportCard.getByLabel('Остановить и фразы, которые аудит советует остановить').check();
    await exportCard.getByRole('button', { name: 'Применить через API Директа' }).click();
    await page.waitForURL(/\/changes\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Изменения в Яндекс Директе' }).waitFor();
    const items = page.getByTestId('change-item');
    await items.first().waitFor();
    expect(await items.count()).toBe(3);
    const negatives = items.filter({ hasText: 'Минус-фразы кампании: Тёплый пол — Поиск' });
    expect(await negatives.innerText()).toContain('+ скачать');
    expect(await negatives.innerText()).toContain('(было 3, станет 4)');
    const pause = items.filter({ hasText: 'Остановить фразу: тёплый пол' });
    expect(await pause.locator('del').innerText()).toBe('идут');
    expect(await pause.locator('ins').innerText()).toBe('остановлены');
    const adItem = items.filter({ hasText: 'Объявление:' });
    expect(await adItem.locator('del').innerText()).toBe(LONG_TITLE);
    expect(await adItem.locator('ins').innerText()).toBe(SHORT_TITLE);
    await adItem.getByText('Объявление снова уйдёт на модерацию').waitFor();
    expect(await page.getByTestId('units-estimate').innerText()).toMatch(/^Потратит около \d+ баллов API Директа\.$/);
    expect(direct.writes()).toEqual([]);
    // Each change can be left out of the preview (here the pause: its points go too) and taken back in.
    const estimate = await page.getByTestId('units-estimate').innerText();
    await pause.getByRole('checkbox', { name: 'Применить: Остановить фразу: тёплый пол' }).click();
    await pause.getByText('Не применяется').waitFor();
    await page.getByTestId('units-estimate').filter({ hasNotText: estimate }).waitFor();
    await pause.getByRole('checkbox', { name: 'Применить: Остановить фразу: тёплый пол' }).click();
    await pause.getByText('Ждёт применения').waitFor();
    await page.getByTestId('units-estimate').filter({ hasText: estimate }).waitFor();
    // On a 360 px phone the preview with its checkboxes fits without sideways scrolling.
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await sidewaysOverflow(page)).toBe(0);
    if (desktop) await page.setViewportSize(desktop);

    // Apply: the job writes the whole merged list and the ad; the journal says who and when.
    await page.getByRole('button', { name: 'Применить в Директе' }).click();
    await page.getByTestId('change-set-status').filter({ hasText: /^Применено$/ }).waitFor();
    expect(direct.writes().map((write) => `${write.service}.${write.method}`)).toEqual(['campaigns.update', 'keywords.suspend', 'ads.update']);
    expect(direct.account.keywords.find((keyword) => keyword.Id === 10011)!.State).toBe('SUSPENDED');
    expect(direct.account.campaigns.find((campaign) => campaign.Id === 701)!.NegativeKeywords).toEqual({ Items: [...ORIGINAL_NEGATIVES, 'скачать'] });
    const journal = page.getByTestId('journal');
    await journal.getByText(/применение «Тёплый пол — Поиск»: выполнено/).waitFor();
    expect(await journal.innerText()).toContain('Администратор');

    // Undo everything: the old values are back in the account and in the journal.
    await page.getByRole('button', { name: 'Отменить все изменения' }).click();
    await page.getByTestId('change-item').filter({ hasText: 'Отменено' }).nth(2).waitFor();
    await journal.getByText(/отмена «Тёплый пол — Поиск»: выполнено/).waitFor();
    expect(direct.account.campaigns.find((campaign) => campaign.Id === 701)!.NegativeKeywords).toEqual({ Items: ORIGINAL_NEGATIVES });
    expect((direct.account.ads.find((ad) => ad.Id === 9002)!.TextAd as Record<string, unknown>).Title).toBe(LONG_TITLE);
    expect(direct.account.keywords.find((keyword) => keyword.Id === 10011)!.State).toBe('ON');
    expect(await page.getByRole('button', { name: 'Отменить все изменения' }).count()).toBe(0);

    // The project page leads back to it: the project's change sets.
    await page.goto(`/projects/${projectId}`);
    await page.getByRole('link', { name: 'Изменения в Директе' }).click();
    await page.waitForURL(`**/projects/${projectId}/changes`);
    const sets = page.getByRole('list', { name: 'Наборы изменений' }).getByRole('listitem');
    await sets.first().waitFor();
    expect(await sets.count()).toBe(1);
    expect(await sets.first().innerText()).toContain('Объектов: 3; применено сейчас 0, отменено 3, ошибок 0');
  });
});
