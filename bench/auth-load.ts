/**
 * How long a first visit to /auth takes on a slow phone: the production build served by the real
 * server, Chromium with a fresh profile (no HTTP cache, no service worker), the network throttled
 * through CDP to 1.6 Mbit/s down, 750 kbit/s up and 150 ms round trip, the CPU slowed 4×
 * (Lighthouse's "slow 4G" mobile profile). Baseline in the same run: the same page unthrottled.
 *
 * "Usable" is the moment the login form is on screen with its fields and button: React renders it
 * only after the JavaScript has run, so that is when typing and submitting work. The target of
 * issue 13 is under 2.5 s.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startBenchApp } from './bench-app.js';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const webRoot = path.join(root, 'build/web');
const RUNS = Number(process.env.BENCH_AUTH_RUNS ?? 5);
const TARGET_MS = 2500;

export const SLOW_PHONE = {
  /** 1.6 Mbit/s in bytes per second. */
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  latencyMs: 150,
  cpuSlowdown: 4,
} as const;

interface Visit {
  /** First contentful paint, ms after navigation start. */
  firstPaintMs: number;
  /** The login form's fields and button are on screen, ms after navigation start. */
  usableMs: number;
  /** Bytes received by the page (compressed, as on the wire). */
  transferredBytes: number;
  requests: number;
}

async function visitAuth(browser: Browser, baseUrl: string, throttled: boolean): Promise<Visit> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let transferredBytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (event) => {
      transferredBytes += event.encodedDataLength;
      requests += 1;
    });
    if (throttled) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: SLOW_PHONE.latencyMs,
        downloadThroughput: SLOW_PHONE.downloadBytesPerSecond,
        uploadThroughput: SLOW_PHONE.uploadBytesPerSecond,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });
    }
    await page.goto(`${baseUrl}/auth`, { waitUntil: 'commit' });
    await page.getByRole('form', { name: 'Вход' }).getByRole('button', { name: 'Войти' }).waitFor({ state: 'visible', timeout: 60_000 });
    // Measured in the page's own clock (the CPU slowdown applies to it as to the app).
    const usableMs = await page.evaluate(() => performance.now());
    const firstPaintMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    await page.waitForLoadState('networkidle');
    return { firstPaintMs, usableMs, transferredBytes, requests };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function run(): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.log(`Chromium not found at ${executablePath}: /auth load not measured.`);
    return;
  }
  if (!existsSync(path.join(webRoot, 'index.html'))) throw new Error('build/web is missing: run `npm run build` first');
  const bench = await startBenchApp({ webRoot });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    // One visit to warm the server (file reads), not counted.
    await visitAuth(browser, bench.url, false);
    const rows: [string, Visit[]][] = [];
    for (const throttled of [false, true]) {
      const visits: Visit[] = [];
      for (let i = 0; i < RUNS; i++) visits.push(await visitAuth(browser, bench.url, throttled));
      rows.push([throttled ? 'slow phone: 1.6 Mbit/s, 150 ms RTT, CPU ×4' : 'unthrottled (baseline)', visits]);
    }
    console.log(`First visit to /auth, fresh profile, 360×740, median of ${RUNS} (min–max):`);
    console.log('| conditions | first paint | login form usable | transferred | requests |');
    console.log('|:--|--:|--:|--:|--:|');
    const usable: number[] = [];
    for (const [name, visits] of rows) {
      const usableValues = visits.map((visit) => visit.usableMs);
      usable.push(median(usableValues));
      const range = `${Math.min(...usableValues).toFixed(0)}–${Math.max(...usableValues).toFixed(0)}`;
      console.log(
        `| ${name} | ${median(visits.map((visit) => visit.firstPaintMs)).toFixed(0)} ms | ${median(usableValues).toFixed(0)} ms (${range}) | ${(median(visits.map((visit) => visit.transferredBytes)) / 1024).toFixed(1)} KB | ${median(visits.map((visit) => visit.requests))} |`,
      );
    }
    const slow = usable[1]!;
    console.log(`Slow phone vs baseline: ×${(slow / usable[0]!).toFixed(1)}; target < ${TARGET_MS} ms: ${slow < TARGET_MS ? 'met' : 'MISSED'}`);
  } finally {
    await browser.close();
    await bench.close();
  }
}
