/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithProfile } from './helpers/browser.js';
import { startServer, type RunningServer } from './helpers/server.js';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23), or null when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (bytes.length < 24 || bytes.subarray(0, 8).toString('hex') !== signature) return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the production build is an installable PWA in Chromium', () => {
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchWithProfile>>;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    // An ordinary profile: Chromium never offers to install from an incognito context.
    browser = await launchWithProfile(server.url);
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('registers a service worker that activates and controls the page', async () => {
    await page.goto('/auth');
    const activeScript = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
    expect(activeScript).toBe(`${server.url}/sw.js`);
    // The worker claims open pages when it activates (clientsClaim), so no reload is needed.
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${server.url}/sw.js`);
  });

  it('has no installability errors and a manifest with the Russian name, start URL, icons and theme colour', async () => {
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);

    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    // Chromium's own reading of the manifest (colours as rgba, display as its enum).
    expect(manifest.manifest).toMatchObject({
      name: 'Reklama Lab — аудит рекламных кампаний',
      startUrl: `${server.url}/projects`,
      scope: `${server.url}/`,
      display: 'kStandalone',
      themeColor: 'rgba(29,78,216,1)',
    });
    expect(manifest.manifest.icons?.map((icon) => [new URL(icon.url).pathname, icon.sizes])).toEqual([
      ['/icons/icon-192.png', '192x192'],
      ['/icons/icon-512.png', '512x512'],
      ['/icons/icon-maskable-512.png', '512x512'],
    ]);
    // What it leaves out (short name, language, the icons' purpose), read from the file as served.
    const raw = JSON.parse(manifest.data!) as { short_name: string; lang: string; theme_color: string; icons: ManifestIcon[] };
    expect(raw).toMatchObject({ short_name: 'Reklama Lab', lang: 'ru', theme_color: '#1d4ed8' });
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(raw.theme_color);
    expect(raw.icons.map((icon) => [icon.sizes, icon.type, icon.purpose ?? 'any'])).toEqual([
      ['192x192', 'image/png', 'any'],
      ['512x512', 'image/png', 'any'],
      ['512x512', 'image/png', 'maskable'],
    ]);

    // Every icon is served as a PNG of the size the manifest declares.
    for (const icon of raw.icons) {
      const response = await page.request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()['content-type'], icon.src).toBe('image/png');
      const size = pngSize(await response.body());
      expect(size && `${size.width}x${size.height}`, icon.src).toBe(icon.sizes);
    }
  });
});
