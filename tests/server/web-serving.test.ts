import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { precompressDirectory } from '../../server/web/precompress.js';
import { acceptsHtml, isClientRouteNavigation } from '../../server/web/spa-fallback.js';
import { createTestApp, memoryMailer, type TestApp } from './helpers/app.js';

/**
 * How the one port serves the built PWA: the SPA fallback only for navigations, a 404 for a missing
 * file, precompressed assets by Accept-Encoding, and compressed API answers.
 */

const BROWSER_NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const SCRIPT_ACCEPT = '*/*';

describe('the SPA fallback rule', () => {
  it.each([
    ['/projects', BROWSER_NAVIGATION_ACCEPT, true],
    ['/auth/verify-email?token=a.b.c', BROWSER_NAVIGATION_ACCEPT, true],
    ['/', 'text/html', true],
    ['/projects', SCRIPT_ACCEPT, false],
    ['/projects', 'application/json', false],
    ['/projects', 'text/html;q=0, */*', false],
    ['/assets/index-abc123.js', BROWSER_NAVIGATION_ACCEPT, false],
    ['/favicon.ico', BROWSER_NAVIGATION_ACCEPT, false],
    ['/api/v1/nothing', BROWSER_NAVIGATION_ACCEPT, false],
  ] as const)('GET %s with Accept %s → shell: %s', (url, accept, expected) => {
    expect(isClientRouteNavigation({ method: 'GET', url, accept })).toBe(expected);
  });

  it('is for reads only', () => {
    expect(isClientRouteNavigation({ method: 'POST', url: '/projects', accept: 'text/html' })).toBe(false);
    expect(acceptsHtml(undefined)).toBe(false);
  });
});

describe('serving the built PWA', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let webRoot: string;
  const shell = '<!doctype html><html lang="ru"><head></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
  // Big and repetitive enough to compress, as a real chunk is.
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `слово-${i % 37}`))};\n`.repeat(4);
  const styles = `.card{padding:8px;margin:0 auto;color:#1d4ed8}\n`.repeat(100);

  beforeAll(async () => {
    t = await createTestApp();
    webRoot = await mkdtemp(path.join(os.tmpdir(), 'reklama-web-serving-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'index.html'), shell);
    await writeFile(path.join(webRoot, 'assets', 'index-abc123.js'), script);
    await writeFile(path.join(webRoot, 'assets', 'index-abc123.css'), styles);
    await writeFile(path.join(webRoot, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
    await precompressDirectory(webRoot);
    app = await buildApp({ config: { ...t.config, webRoot }, db: t.database.db, mailer: memoryMailer([]) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
  });

  it('the build step wrote .br and .gz beside the scripts and styles, not beside images', async () => {
    const files = (await readdir(path.join(webRoot, 'assets'))).sort();
    expect(files).toEqual([
      'index-abc123.css',
      'index-abc123.css.br',
      'index-abc123.css.gz',
      'index-abc123.js',
      'index-abc123.js.br',
      'index-abc123.js.gz',
      'logo-abc123.png',
    ]);
  });

  it('answers a browser navigation to a client route with the shell', async () => {
    const res = await app.inject({ method: 'GET', url: '/projects/0b7c/analysis/1/results', headers: { accept: BROWSER_NAVIGATION_ACCEPT } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(shell);
  });

  it('keeps a shared report page (/r/<token>) out of search engines, and only that page', async () => {
    const shared = await app.inject({ method: 'GET', url: `/r/${'a'.repeat(43)}`, headers: { accept: BROWSER_NAVIGATION_ACCEPT } });
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toBe(shell);
    expect(shared.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(shared.headers['referrer-policy']).toBe('no-referrer');
    const other = await app.inject({ method: 'GET', url: '/about', headers: { accept: BROWSER_NAVIGATION_ACCEPT } });
    expect(other.headers['x-robots-tag']).toBeUndefined();
  });

  it('answers a missing hashed chunk with 404, never with the HTML shell', async () => {
    for (const accept of [SCRIPT_ACCEPT, BROWSER_NAVIGATION_ACCEPT, 'text/css,*/*;q=0.1']) {
      for (const url of ['/assets/index-gone99.js', '/assets/index-gone99.css', '/assets/route-gone.js?v=1', '/icons/none.png']) {
        const res = await app.inject({ method: 'GET', url, headers: { accept, 'accept-encoding': 'br, gzip' } });
        expect(res.statusCode, `${url} ${accept}`).toBe(404);
        expect(res.headers['content-type'], url).toContain('application/json');
        expect(res.json()).toEqual({ error: 'Не найдено', code: 'NOT_FOUND' });
      }
    }
  });

  it('answers a path without extension that is not a navigation (a script, fetch) with 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/projects', headers: { accept: SCRIPT_ACCEPT } });
    expect(res.statusCode).toBe(404);
  });

  it('sends the brotli copy of an asset to a client that accepts br, gzip to one that accepts only gzip, the file itself otherwise', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 5);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);

    const gzip = await app.inject({ method: 'GET', url: '/assets/index-abc123.css', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toContain('text/css');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(styles);

    const identity = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(identity.statusCode).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(script);
  });

  it('compresses API JSON answers for clients that accept it, and leaves small ones and other clients alone', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const document = plain.json();

    const br = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(document);

    const gzip = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(document);

    // Under the threshold: not worth compressing.
    const small = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok', database: 'up' });
  });
});
