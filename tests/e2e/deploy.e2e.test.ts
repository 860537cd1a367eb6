/// <reference lib="dom" />
import { cp, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './helpers/browser.js';
import { startServer, type RunningServer } from './helpers/server.js';

/**
 * A deploy while the app is open. The server serves `current`, a symlink to a build folder; a deploy
 * points it at another build whose hashed file names all differ (as after any code change), so every
 * chunk the open page has not loaded yet is gone. The page is not controlled by a service worker here
 * (a first visit, before the worker installs): the case where the browser must fetch the old chunk.
 */

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const builtWeb = path.join(root, 'build/web');

/** The file names under assets/ of a build (originals only; compressed copies and maps follow them). */
async function assetNames(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, 'assets'))).filter((name) => !/\.(br|gz|map)$/.test(name));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Copies a build into `target` as the next version: every asset renamed (`name-HASH.js` → `name-HASHv2.js`)
 * and every reference to it rewritten, a marker in index.html, compressed copies dropped (the server
 * compresses on the fly what has none).
 */
async function makeNextBuild(source: string, target: string, marker: string): Promise<void> {
  await cp(source, target, { recursive: true });
  const names = await assetNames(target);
  const renamed = new Map(names.map((name) => [name, name.replace(/(\.[a-z]+)$/, `${marker}$1`)]));
  const pattern = new RegExp(`(?<![\\w-])(${names.map(escapeRegExp).join('|')})`, 'g');
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(target);
  for (const file of files) {
    if (/\.(br|gz|map)$/.test(file)) {
      await rm(file);
      continue;
    }
    if (!/\.(js|css|html|webmanifest)$/.test(file)) continue;
    let text = await readFile(file, 'utf8');
    text = text.replace(pattern, (name) => renamed.get(name) ?? name);
    // The worker's precache list keys un-hashed files (index.html) by a revision of their content: a new
    // build has new ones, else the worker would keep the old shell.
    if (path.basename(file) === 'sw.js') text = text.replace(/"revision":"([0-9a-f]+)"/g, (_, revision: string) => `"revision":"${revision}${marker}"`);
    if (path.basename(file) === 'index.html' && path.dirname(file) === target) {
      text = text.replace(/<meta name="x-build"[^>]*>/, '').replace('<head>', `<head><meta name="x-build" content="${marker}">`);
    }
    await writeFile(file, text);
  }
  for (const [from, to] of renamed) await rename(path.join(target, 'assets', from), path.join(target, 'assets', to));
}

describe('a deploy while the app is open in Chromium', () => {
  let workDir: string;
  let current: string;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  /** Points the served folder at another build at once (rename over the symlink is atomic). */
  async function deploy(folder: string): Promise<void> {
    const next = path.join(workDir, 'current.next');
    await symlink(folder, next);
    await rename(next, current);
  }

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-deploy-'));
    await cp(builtWeb, path.join(workDir, 'v1'), { recursive: true });
    await makeNextBuild(builtWeb, path.join(workDir, 'v2'), 'v2');
    current = path.join(workDir, 'current');
    await symlink(path.join(workDir, 'v1'), current);
    server = await startServer({ WEB_ROOT: current });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  async function openFreshPage(serviceWorkers: 'allow' | 'block' = 'block'): Promise<Page> {
    await context?.close();
    context = await browser.newContext({ baseURL: server.url, locale: 'ru-RU', viewport: { width: 1280, height: 800 }, serviceWorkers });
    return context.newPage();
  }

  it('a lazy route of the old build reloads into the new version and renders, not a blank page or an English error', async () => {
    await deploy(path.join(workDir, 'v1'));
    page = await openFreshPage();
    await page.goto('/auth');
    const forgot = page.getByRole('link', { name: 'Забыли пароль?' });
    await forgot.waitFor();
    expect(await page.locator('meta[name="x-build"]').count()).toBe(0);
    const oldChunks = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.includes('/assets/')));
    expect(oldChunks.length).toBeGreaterThan(0);

    await deploy(path.join(workDir, 'v2'));
    // The old build's chunks are gone: 404, never the HTML shell.
    const gone = await page.request.get(oldChunks[0]!, { headers: { accept: '*/*' } });
    expect(gone.status()).toBe(404);
    expect(gone.headers()['content-type']).not.toContain('text/html');

    // A click without hovering first, so the route's chunk is fetched on navigation (not on intent).
    await forgot.dispatchEvent('click');
    await page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/reset-password');
    // The page reloaded into the new build.
    expect(await page.locator('meta[name="x-build"]').getAttribute('content')).toBe('v2');
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/Failed to fetch|dynamically imported module/i);
  });

  it('when the new version fails as well, it stops after one reload and says so in Russian with «Обновить»', async () => {
    // v3: a new build whose reset-password screen is missing on the server (a broken deploy).
    const v3 = path.join(workDir, 'v3');
    await makeNextBuild(path.join(workDir, 'v2'), v3, 'v3');
    const broken: string[] = [];
    for (const name of await assetNames(v3)) {
      const content = await readFile(path.join(v3, 'assets', name), 'utf8');
      if (name.endsWith('.js') && content.includes('Восстановление пароля')) broken.push(name);
    }
    expect(broken.length).toBeGreaterThan(0);
    for (const name of broken) await unlink(path.join(v3, 'assets', name));

    await deploy(path.join(workDir, 'v2'));
    page = await openFreshPage();
    await page.goto('/auth');
    const forgot = page.getByRole('link', { name: 'Забыли пароль?' });
    await forgot.waitFor();
    await deploy(v3);
    let loads = 0;
    page.on('load', () => (loads += 1));

    await forgot.dispatchEvent('click');
    const notice = page.getByRole('alert').filter({ hasText: 'Вышла новая версия приложения' });
    await notice.waitFor();
    expect(await page.locator('meta[name="x-build"]').getAttribute('content')).toBe('v3');
    expect(loads).toBe(1);
    expect(await notice.getByRole('button', { name: 'Обновить' }).isVisible()).toBe(true);
    expect(await page.locator('body').innerText()).not.toMatch(/Failed to fetch|dynamically imported module/i);
  });

  it('with the service worker: the open app keeps working from its cache, then the update prompt leads to the new version', async () => {
    await deploy(path.join(workDir, 'v1'));
    page = await openFreshPage('allow');
    await page.goto('/auth');
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 30_000 });

    await deploy(path.join(workDir, 'v2'));
    // The hourly update check (or the next full navigation) finds the new worker, which precaches the new build.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByRole('alert').filter({ hasText: 'Доступна новая версия' });
    await prompt.waitFor({ timeout: 30_000 });

    // Meanwhile the old build still works: its lazy chunks come from the worker's cache.
    await page.getByRole('link', { name: 'Забыли пароль?' }).dispatchEvent('click');
    await page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor();
    expect(await page.locator('meta[name="x-build"]').count()).toBe(0);

    // Nothing cached under an asset address is HTML or an error.
    const cached = await page.evaluate(async () => {
      const found: { url: string; status: number; type: string }[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!new URL(request.url).pathname.startsWith('/assets/')) continue;
          const response = await cache.match(request);
          found.push({ url: request.url, status: response?.status ?? 0, type: response?.headers.get('content-type') ?? '' });
        }
      }
      return found;
    });
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.filter((entry) => entry.status !== 200 || entry.type.includes('text/html'))).toEqual([]);

    await prompt.getByRole('button', { name: 'Обновить' }).click();
    await page.waitForFunction(() => document.querySelector('meta[name="x-build"]')?.getAttribute('content') === 'v2', undefined, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Восстановление пароля' }).waitFor();
  });
});
