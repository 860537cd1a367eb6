/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teplodomAccount, type FakeDirect, type FakeDirectAccount } from '../fakes/yandex-direct-fake.js';
import { runAnalysisToCompletion, startDirectProject } from './helpers/flows.js';
import { connectYandexDirect, startYandexFakes, type YandexFakes } from './helpers/yandex-fakes.js';

/**
 * An agency's client read through the API with its settings: the search campaign has no campaign negatives
 * (a finding), the networks campaign has none either but its group uses a shared negative set (no finding:
 * the audit read the set). Both campaigns are on.
 */
function clientWithSettings(): FakeDirectAccount {
  const account = teplodomAccount();
  account.campaigns = account.campaigns.map((campaign) => (campaign.Id === 701 ? { ...campaign, NegativeKeywords: null } : campaign.Id === 702 ? { ...campaign, State: 'ON', EndDate: null } : campaign));
  account.adGroups = account.adGroups.map((group) => (group.Id === 8003 ? { ...group, NegativeKeywordSharedSetIds: { Items: [7001] } } : group));
  return account;
}

describe('an agency picks its clients in Chromium and audits one of them', () => {
  let fakes: YandexFakes;
  let direct: FakeDirect;
  let page: Page;

  beforeAll(async () => {
    fakes = await startYandexFakes(
      'agency-two',
      {
        ...teplodomAccount(),
        agencyClients: [
          { Login: 'teplodom', ClientInfo: 'ООО «Теплодом»' },
          { Login: 'okna-perm', ClientInfo: 'Окна Пермь' },
          { Login: 'third-client', ClientInfo: 'Третий клиент' },
        ],
      },
      { clientAccounts: { teplodom: clientWithSettings(), 'okna-perm': teplodomAccount() } },
    );
    ({ direct, page } = fakes);
  });
  afterAll(async () => {
    await fakes?.close();
  });

  it('connects, makes a project for each of two clients with the points spent, opens one, audits it and sees a settings finding', async () => {
    await startDirectProject(page, { name: 'Клиенты агентства', site: 'agency.example' });
    await connectYandexDirect(page);
    // The app returns to step 2.
    await page.waitForURL('**/projects/create/step2');
    await page.getByRole('tab', { name: 'API Яндекс Директа' }).click();

    const accounts = page.getByRole('region', { name: 'Подключённые аккаунты Яндекс Директа' });
    await accounts.getByText('agency-two', { exact: true }).waitFor();
    // «Выбрать всех», then one left out: two clients picked.
    await accounts.getByRole('checkbox', { name: 'Выбрать всех' }).check();
    await accounts.getByRole('checkbox', { name: 'Третий клиент (third-client)' }).uncheck();
    await accounts.getByRole('button', { name: 'Создать проекты: 2' }).click();

    const progress = accounts.getByRole('region', { name: 'Загрузка клиентов агентства' });
    await progress.getByRole('status').filter({ hasText: 'Готово 2 из 2' }).waitFor({ timeout: 60_000 });
    const rows = await progress.getByRole('listitem').allInnerTexts();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^(ООО «Теплодом»|Окна Пермь) — проект создан, \d[\d\s ]* балл(а|ов)? API · Открыть проект «(ООО «Теплодом»|Окна Пермь)»$/);
    // Each client was read with its own Client-Login; the third was not read at all.
    const readLogins = new Set(direct.requests.filter((request) => request.service === 'campaigns').map((request) => request.headers['client-login']));
    expect([...readLogins].sort()).toEqual(['okna-perm', 'teplodom']);

    await progress.getByRole('link', { name: 'Открыть проект «ООО «Теплодом»»' }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'ООО «Теплодом»' }).waitFor();
    const projectId = new URL(page.url()).pathname.split('/').at(-1)!;
    // The project shows the points its import spent.
    await page.getByText(/баллов API|балла API|балл API/).first().waitFor();

    await runAnalysisToCompletion(page, projectId);
    // The settings finding: the search campaign has no negatives; the networks campaign's group uses a shared set.
    await page.getByRole('combobox', { name: 'Проверка' }).selectOption('campaign.no_negatives');
    await page.waitForURL((url) => url.searchParams.has('check'));
    const findings = page.getByRole('list', { name: 'Список замечаний' });
    await findings.getByTestId('finding').first().waitFor();
    const findingTexts = (await findings.getByTestId('finding').allInnerTexts()).join('\n');
    expect(findingTexts).toContain('У кампании «Тёплый пол — Поиск» нет минус-слов на кампанию.');
    expect(findingTexts).not.toContain('У кампании «Тёплый пол — РСЯ» нет минус-слов на кампанию.');
  });
});
