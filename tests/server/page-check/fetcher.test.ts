import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, fetchPages, PAGE_USER_AGENT } from '../../../server/page-check/fetcher.js';
import { isPrivateAddress } from '../../../server/page-check/ssrf-guard.js';

let server: Server;
let base: string;
const seenAgents: string[] = [];
/** Called with each `?n=` of /counted as the server receives it. */
let onCountedRequest: (n: string | null) => void = () => undefined;
let active = 0;
let maxActive = 0;

const page = (title: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

beforeAll(async () => {
  server = createServer((request, response) => {
    seenAgents.push(String(request.headers['user-agent']));
    const url = new URL(request.url ?? '/', 'http://x');
    const html = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(body);
    };
    switch (url.pathname) {
      case '/ok':
        return html(200, page('Пластиковые окна'), { 'x-robots-tag': 'noindex' });
      case '/cp1251':
        return html(200, Buffer.from([0x3c, 0x68, 0x31, 0x3e, 0xce, 0xea, 0xed, 0xe0, 0x3c, 0x2f, 0x68, 0x31, 0x3e]), { 'content-type': 'text/html; charset=windows-1251' });
      case '/gzip':
        return html(200, gzipSync(page('Сжатая страница')), { 'content-encoding': 'gzip' });
      case '/r1':
        response.writeHead(301, { location: `/r2${url.search}` });
        return response.end();
      case '/r2':
        response.writeHead(302, { location: `${base}/ok?from=r2` });
        return response.end();
      case '/loop':
        response.writeHead(302, { location: '/loop' });
        return response.end();
      case '/missing':
        return html(404, page('Не найдено'));
      case '/pdf':
        response.writeHead(200, { 'content-type': 'application/pdf' });
        return response.end('%PDF-1.4');
      case '/slow': {
        const timer = setTimeout(() => html(200, page('Поздно')), 2000);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      case '/huge': {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.write('<html><body><h1>Огромная</h1>');
        const chunk = `<p>${'окна '.repeat(2000)}</p>`;
        // Far more than the cap; the client stops reading long before the end.
        let sent = 0;
        const push = () => {
          while (sent < 200) {
            sent++;
            if (!response.write(chunk)) return void response.once('drain', push);
          }
          response.end('</body></html>');
        };
        response.on('error', () => undefined);
        return push();
      }
      case '/counted': {
        onCountedRequest(url.searchParams.get('n'));
        active++;
        maxActive = Math.max(maxActive, active);
        setTimeout(() => {
          active--;
          html(200, page(`Страница ${url.searchParams.get('n')}`));
        }, 50);
        return;
      }
      default:
        return html(500, 'oops');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allow = { allowPrivateHosts: true };

describe('landing-page fetcher (real HTTP on 127.0.0.1)', () => {
  it('reads a 200 page with its content type, timing, robots header and our User-Agent', async () => {
    const result = await fetchPage(`${base}/ok`, allow);
    expect(result).toMatchObject({ status: 200, finalUrl: `${base}/ok`, contentType: 'text/html; charset=utf-8', error: null, redirects: [], truncated: false, xRobotsTag: 'noindex' });
    expect(result.html).toContain('<title>Пластиковые окна</title>');
    expect(result.timingMs).toBeGreaterThanOrEqual(0);
    expect(seenAgents).toContain(PAGE_USER_AGENT);
  });

  it('decodes windows-1251 and gzip bodies', async () => {
    expect((await fetchPage(`${base}/cp1251`, allow)).html).toBe('<h1>Окна</h1>');
    expect((await fetchPage(`${base}/gzip`, allow)).html).toContain('Сжатая страница');
  });

  it('follows a redirect chain by hand, keeping every hop', async () => {
    const result = await fetchPage(`${base}/r1?utm_source=yandex`, allow);
    expect(result.status).toBe(200);
    expect(result.redirects).toEqual([`${base}/r1?utm_source=yandex`, `${base}/r2?utm_source=yandex`]);
    expect(result.finalUrl).toBe(`${base}/ok?from=r2`);
  });

  it('gives up after 5 redirects with a Russian reason', async () => {
    const result = await fetchPage(`${base}/loop`, allow);
    expect(result.status).toBeNull();
    expect(result.error).toBe('Слишком много перенаправлений (больше 5)');
    expect(result.redirects).toHaveLength(5);
  });

  it('reports 404 as a status and does not read a PDF body', async () => {
    const missing = await fetchPage(`${base}/missing`, allow);
    expect(missing).toMatchObject({ status: 404, error: null });
    const pdf = await fetchPage(`${base}/pdf`, allow);
    expect(pdf).toMatchObject({ status: 200, contentType: 'application/pdf', html: '' });
  });

  it('stops a slow page at the timeout', async () => {
    const result = await fetchPage(`${base}/slow`, { ...allow, timeoutMs: 200 });
    expect(result.status).toBeNull();
    expect(result.error).toBe('Страница не ответила за 0.2 с');
    expect(result.timingMs).toBeLessThan(1500);
  });

  it('cuts an oversized body at the cap and marks it truncated', async () => {
    const result = await fetchPage(`${base}/huge`, { ...allow, maxBytes: 64 * 1024 });
    expect(result.status).toBe(200);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.html)).toBeLessThanOrEqual(64 * 1024);
    expect(result.html).toContain('Огромная');
  });

  it('refuses loopback and private addresses unless allowed, as a per-page error', async () => {
    const refused = await fetchPage(`${base}/ok`);
    expect(refused.status).toBeNull();
    expect(refused.error).toBe('Адрес ведёт во внутреннюю сеть (127.0.0.1): такие страницы не проверяются');
    // A public name whose DNS answer is private is refused the same way (no rebinding to localhost).
    const rebound = await fetchPage('http://shop.example.com/', { resolver: async () => [{ address: '10.0.0.5', family: 4 }] });
    expect(rebound.error).toContain('(10.0.0.5)');
    // The cloud metadata service is refused as a literal address too (every hop goes through the same check).
    const metadata = await fetchPage('http://169.254.169.254/latest/meta-data/');
    expect(metadata.error).toContain('169.254.169.254');
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
  });

  it('reports bad schemes and unknown domains without throwing', async () => {
    expect((await fetchPage('ftp://example.com/file')).error).toBe('Поддерживаются только адреса http:// и https://');
    const unknown = await fetchPage('http://nope.invalid/', { resolver: async () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })) });
    expect(unknown.error).toBe('Домен не найден (nope.invalid)');
  });

  it('fetches many pages at most 4 at a time, in the order given, reporting progress', async () => {
    const urls = Array.from({ length: 10 }, (_, n) => `${base}/counted?n=${n}`);
    const progress: number[] = [];
    const results = await fetchPages(urls, { ...allow, onPage: (done) => void progress.push(done) });
    expect(results.map((result) => result.html.match(/<title>(.*)<\/title>/)?.[1])).toEqual(urls.map((_, n) => `Страница ${n}`));
    expect(maxActive).toBeLessThanOrEqual(4);
    expect(maxActive).toBeGreaterThan(1);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('writes progress reports one after another, so a slow report is never overtaken by a later one', async () => {
    // Pages of one site finish together; their progress writes side by side could land out of order and
    // leave the row at «2 of 4» after «3 of 4». Here the first report is held until the next page is being
    // read: a second report started meanwhile would be one written beside it.
    const urls = Array.from({ length: 3 }, (_, n) => `${base}/counted?n=${n}`);
    let releaseFirstReport!: () => void;
    const firstReportReleased = new Promise<void>((resolve) => (releaseFirstReport = resolve));
    onCountedRequest = (n) => n === '2' && releaseFirstReport();
    const events: string[] = [];
    try {
      await fetchPages(urls, {
        ...allow,
        concurrency: 2,
        onPage: async (done) => {
          events.push(`start ${done}`);
          if (done === 1) await firstReportReleased;
          events.push(`end ${done}`);
        },
      });
    } finally {
      onCountedRequest = () => undefined;
    }
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});
