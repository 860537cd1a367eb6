/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teplodomAccount, type FakeDirect } from '../fakes/yandex-direct-fake.js';
import type { FakeYandexId } from '../fakes/yandex-id-fake.js';
import { startDirectProject } from './helpers/flows.js';
import { connectYandexDirect, startYandexFakes, type YandexFakes } from './helpers/yandex-fakes.js';

describe('connecting Yandex Direct through Yandex ID in Chromium', () => {
  let fakes: YandexFakes;
  let yandexId: FakeYandexId;
  let direct: FakeDirect;
  let page: Page;

  beforeAll(async () => {
    fakes = await startYandexFakes('agency-one', { ...teplodomAccount(), agencyClients: [{ Login: 'teplodom', ClientInfo: 'ООО «Теплодом»' }, { Login: 'okna-perm', ClientInfo: 'Окна Пермь' }] });
    ({ yandexId, direct, page } = fakes);
  });
  afterAll(async () => {
    await fakes?.close();
  });

  it('connects on step 2 of a new project, comes back, picks a client of the agency, reads it and saves the project', async () => {
    await startDirectProject(page, { name: 'Теплодом', site: 'teplodom.example' });

    await connectYandexDirect(page);
    await page.getByText(/Аккаунт agency-one подключён|Аккаунт не подключён/).waitFor();
    expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
    await page.waitForURL('**/projects/create/step2');
    await page.getByRole('tab', { name: 'API Яндекс Директа' }).click();
    const accounts = page.getByRole('region', { name: 'Подключённые аккаунты Яндекс Директа' });
    await accounts.getByText('agency-one', { exact: true }).waitFor();
    expect(yandexId.tokenRequests.map((form) => form.grant_type)).toEqual(['authorization_code']);

    await accounts.getByRole('checkbox', { name: 'ООО «Теплодом» (teplodom)' }).check();
    await accounts.getByRole('button', { name: 'Загрузить выбранного клиента в этот проект' }).click();
    await page.getByRole('region', { name: 'Что будет импортировано' }).waitFor();
    expect(direct.requests.at(-1)!.headers['client-login']).toBe('teplodom');
    await page.getByRole('button', { name: 'Сохранить проект' }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Теплодом' }).waitFor();
    // The browser never held the tokens.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    for (const issued of yandexId.issued) expect(stored).not.toContain(issued.accessToken);
  });
});
