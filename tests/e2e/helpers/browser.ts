import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium, with the flags this machine's closed network needs. */
const launchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

const contextOptions = { locale: 'ru-RU', viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' } as const;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions);
}

/**
 * A fresh context of the browser: Chromium treats it as incognito (own storage, never installable).
 * A desktop window unless another viewport (a phone's) is given.
 */
export async function newContext(browser: Browser, baseURL: string, viewport: { width: number; height: number } = contextOptions.viewport): Promise<BrowserContext> {
  return browser.newContext({ baseURL, ...contextOptions, viewport });
}

/**
 * Chromium on an ordinary (throw-away) profile, for what an incognito context cannot do, such as
 * installing the PWA. `close` ends the browser and removes the profile.
 */
export async function launchWithProfile(baseURL: string): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'reklama-e2e-profile-'));
  const removeProfile = () => rm(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, ...contextOptions });
  } catch (error) {
    await removeProfile();
    throw error;
  }
  return {
    context,
    close: async () => {
      try {
        await context.close();
      } finally {
        await removeProfile();
      }
    },
  };
}
