import type { Page } from 'playwright-core';
import { startFakeDirect, type FakeDirect, type FakeDirectAccount, type FakeDirectOptions } from '../../fakes/yandex-direct-fake.js';
import { startFakeYandexId, type FakeYandexId } from '../../fakes/yandex-id-fake.js';
import { startAdminSession, type AdminSession } from './admin-session.js';

export interface YandexFakes {
  yandexId: FakeYandexId;
  direct: FakeDirect;
  session: AdminSession;
  /** The admin's page (the session's). */
  page: Page;
  /** Closes the browser, stops the server, then the fakes. */
  close: () => Promise<void>;
}

/** The app's settings for Yandex ID and the Direct API, pointed at the fakes on 127.0.0.1. */
function yandexFakesEnv(yandexId: FakeYandexId, direct: FakeDirect): Record<string, string> {
  return {
    YANDEX_OAUTH_CLIENT_ID: yandexId.clientId,
    YANDEX_OAUTH_CLIENT_SECRET: yandexId.clientSecret,
    YANDEX_OAUTH_URL: yandexId.url,
    YANDEX_LOGIN_URL: yandexId.url,
    YANDEX_DIRECT_API_URL: direct.url,
  };
}

/**
 * Yandex ID signing in as `login`, the Direct API answering with `account` to the tokens that Yandex ID
 * issued, and an admin session of the app pointed at both. When a step fails, what was already started is
 * stopped.
 */
export async function startYandexFakes(login: string, account: FakeDirectAccount, directOptions: Omit<FakeDirectOptions, 'acceptsToken'> = {}): Promise<YandexFakes> {
  const yandexId = await startFakeYandexId({ login });
  let direct: FakeDirect | undefined;
  let session: AdminSession | undefined;
  const close = async () => {
    try {
      await session?.close();
      await direct?.close();
    } finally {
      await yandexId.close();
    }
  };
  try {
    direct = await startFakeDirect(account, { ...directOptions, acceptsToken: (token) => yandexId.issued.some((issued) => issued.accessToken === token) });
    session = await startAdminSession({ env: yandexFakesEnv(yandexId, direct) });
    return { yandexId, direct, session, page: session.page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** On step 2 of a new project: «Подключить Яндекс Директ»; Yandex ID's consent (the fake consents at once) sends the browser back to the app. */
export async function connectYandexDirect(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'API Яндекс Директа' }).click();
  await page.getByRole('button', { name: 'Подключить Яндекс Директ' }).click();
  await page.waitForURL('**/connections/yandex/callback?**');
}
