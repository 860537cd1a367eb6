import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'ru-RU', viewport: { width: 1280, height: 800 }, serviceWorkers: 'allow' });
}
