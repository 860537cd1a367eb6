/**
 * Bytes on the wire with and without compression, measured through the real server in one run:
 * - the first load of /auth (the JS and CSS a browser fetches for it, found by loading the page in
 *   Chromium; from index.html's own tags when Chromium is not there), identity vs brotli vs gzip, as the
 *   server sends them (the build's precompressed `.br`/`.gz` copies);
 * - large API answers (a project of 100 000 keywords: its campaign tree and one campaign's document),
 *   identity vs brotli vs gzip compressed per request by @fastify/compress, with the median time per answer.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchApp } from './bench-app.js';
import { generateDirectCsv } from './import.js';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const webRoot = path.join(root, 'build/web');
const ENCODINGS = [
  { name: 'identity', header: undefined },
  { name: 'brotli', header: 'br' },
  { name: 'gzip', header: 'gzip' },
] as const;
const TIMED_REQUESTS = 10;

interface WireAnswer {
  status: number;
  bytes: number;
  encoding: string;
  ms: number;
}

/** One GET with the given Accept-Encoding, counting the body bytes as they arrive (not decoded). */
function getRaw(url: string, acceptEncoding: string | undefined, headers: Record<string, string> = {}): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers: { ...headers, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, encoding: String(response.headers['content-encoding'] ?? 'identity'), ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The /auth page's JS and CSS as Chromium fetches them (no service worker, a fresh profile). */
async function authFirstLoadInChromium(baseUrl: string): Promise<string[] | null> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const urls = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/assets/') && /\.(js|css)$/.test(url.pathname)) urls.add(url.pathname);
    });
    await page.goto(`${baseUrl}/auth`, { waitUntil: 'networkidle' });
    return [...urls];
  } finally {
    await browser.close();
  }
}

/** Without Chromium: the entry script, its modulepreloads and the stylesheets that index.html names. */
async function authFirstLoadFromHtml(): Promise<string[]> {
  const html = await readFile(path.join(webRoot, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  console.log(format(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? ':' : '') + '-'.repeat(width + 1) + (i === 0 ? '' : ':')).join('|')}|`);
  for (const row of rows) console.log(format(row));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  if (!existsSync(path.join(webRoot, 'index.html'))) throw new Error('compression bench: build/web is missing (npm run bench builds it)');
  const bench = await startBenchApp({ webRoot });
  try {
    // 1. The first load of /auth.
    const fromChromium = await authFirstLoadInChromium(bench.url).catch((error: unknown) => {
      console.log(`note: Chromium could not load /auth (${String(error)}); using index.html's tags`);
      return null;
    });
    const assets = fromChromium ?? (await authFirstLoadFromHtml());
    const totals = { identity: 0, brotli: 0, gzip: 0 };
    for (const asset of assets) {
      for (const encoding of ENCODINGS) {
        const answer = await getRaw(`${bench.url}${asset}`, encoding.header);
        if (answer.status !== 200) throw new Error(`${asset}: HTTP ${answer.status}`);
        if (encoding.header && answer.encoding !== encoding.header) throw new Error(`${asset}: asked for ${encoding.header}, got ${answer.encoding}`);
        totals[encoding.name] += answer.bytes;
      }
    }
    const jsFiles = assets.filter((asset) => asset.endsWith('.js')).length;
    console.log(`first load of /auth (${fromChromium ? 'as Chromium fetched it' : "index.html's tags"}): ${jsFiles} JS + ${assets.length - jsFiles} CSS files, precompressed by the build`);
    printTable(
      ['encoding', 'bytes', 'vs identity'],
      ENCODINGS.map((encoding) => [encoding.name, kb(totals[encoding.name]), share(totals[encoding.name], totals.identity)]),
    );

    // 2. Large API answers of a project of 100 000 keywords.
    const auth = { authorization: `Bearer ${bench.accessToken}` };
    const generated = generateDirectCsv();
    const form = new FormData();
    form.append('platform', 'yandex_direct');
    form.append('files', new Blob([generated.text], { type: 'text/tab-separated-values' }), 'bench-direct.tsv');
    const preview = await fetch(`${bench.url}/api/v1/projects/import-preview`, { method: 'POST', headers: auth, body: form });
    const draft = (await preview.json()) as { draft_id: string };
    if (!preview.ok) throw new Error(`import-preview: HTTP ${preview.status}`);
    const created = await fetch(`${bench.url}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Диваны Комфорт', site_url: 'divany-komfort.example', platform: 'yandex_direct', draft_id: draft.draft_id }),
    });
    const project = (await created.json()) as { id: string; campaigns: { id: string }[] };
    if (created.status !== 201) throw new Error(`create project: HTTP ${created.status}`);
    const targets = [
      { name: `GET /projects/:id/campaigns (${project.campaigns.length} campaigns)`, url: `${bench.url}/api/v1/projects/${project.id}/campaigns` },
      { name: 'GET /projects/:id/campaigns/:cid (1 000 keywords)', url: `${bench.url}/api/v1/projects/${project.id}/campaigns/${project.campaigns[0]!.id}` },
    ];
    console.log(`\nlarge API answers (a project of ${generated.keywords} keywords, ${generated.ads} ads), compressed per request; median of ${TIMED_REQUESTS} requests`);
    const rows: string[][] = [];
    for (const target of targets) {
      let identityBytes = 0;
      for (const encoding of ENCODINGS) {
        const answers: WireAnswer[] = [];
        for (let i = 0; i < TIMED_REQUESTS; i++) answers.push(await getRaw(target.url, encoding.header, auth));
        const last = answers.at(-1)!;
        if (last.status !== 200) throw new Error(`${target.name}: HTTP ${last.status}`);
        if (encoding.name === 'identity') identityBytes = last.bytes;
        rows.push([`${target.name}, ${encoding.name}`, kb(last.bytes), share(last.bytes, identityBytes), `${median(answers.map((a) => a.ms)).toFixed(1)} ms`]);
      }
    }
    printTable(['answer', 'bytes', 'vs identity', 'time'], rows);
  } finally {
    await bench.close();
  }
}
