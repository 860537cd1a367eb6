/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../fakes/yandex-direct-fake.js';
import { startFakeYandexId, type FakeYandexId } from '../fakes/yandex-id-fake.js';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { startDirectProject, yandexFakesEnv } from './helpers/flows.js';

describe('connecting Yandex Direct through Yandex ID in Chromium', () => {
  let yandexId: FakeYandexId;
  let direct: FakeDirect;
  let session: AdminSession;
  let page: Page;

  beforeAll(async () => {
    yandexId = await startFakeYandexId({ login: 'agency-one' });
    direct = await startFakeDirect({ ...teplodomAccount(), agencyClients: [{ Login: 'teplodom', ClientInfo: 'ООО «Теплодом»' }, { Login: 'okna-perm', ClientInfo: 'Окна Пермь' }] }, { acceptsToken: (token) => yandexId.issued.some((issued) => issued.accessToken === token) });
    session = await startAdminSession({
      env: yandexFakesEnv(yandexId, direct),
    });
    page = session.page;
  });
  afterAll(async () => {
    await session?.close();
    await direct?.close();
    await yandexId?.close();
  });

  it('connects on step 2 of a new project, comes back, picks a client of the agency, reads it and saves the project', async () => {
    await startDirectProject(page, { name: 'Теплодом', site: 'teplodom.example' });

    await page.getByRole('tab', { name: 'API Яндекс Директа' }).click();
    await page.getByRole('button', { name: 'Подключить Яндекс Директ' }).click();
    // Yandex ID's consent (the fake consents at once) sends the browser back to the app, which returns to step 2.
    await page.waitForURL('**/connections/yandex/callback?**');
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
