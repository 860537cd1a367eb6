/**
 * Reads landing pages over real HTTP, the way a visitor's browser would reach them, with the limits a
 * shared server needs: 10 s per page (redirects included), a 2 MB body cap, at most 5 redirects followed
 * one by one (each hop goes through the SSRF guard again), 4 pages at a time, a User-Agent that says who
 * we are. Built on node:http(s) rather than fetch so the connection goes to the exact address the guard
 * checked. A page that cannot be read is a result with a Russian `error`, never an exception.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { pageCheckMessages as m } from '../../contract/messages.js';
import type { FetchedPage } from '../engines/page-check/engine.js';
import { HostRefusedError, resolvePublicAddress, type ResolvedHost, type Resolver } from './ssrf-guard.js';

export const PAGE_USER_AGENT = 'Mozilla/5.0 (compatible; ReklamaLabBot/1.0; +landing-page relevance check for the site owner)';

export interface FetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  allowPrivateHosts?: boolean;
  userAgent?: string;
  signal?: AbortSignal;
  /** DNS for tests; the system resolver otherwise. */
  resolver?: Resolver;
  /** Which addresses the SSRF guard refuses (tests only; `isPrivateAddress` otherwise). */
  isRefused?: (address: string) => boolean;
}

export const defaultFetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5, concurrency: 4 };

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

class FetchFailure extends Error {
  constructor(
    message: string,
    /** The SSRF guard refused the address. */
    readonly refused = false,
  ) {
    super(message);
  }
}

interface HopResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

const HTMLISH = /\b(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

function decompress(response: http.IncomingMessage): NodeJS.ReadableStream {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib.createInflate());
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

/** One request to one address; redirects are the caller's business. */
function requestOnce(url: URL, target: ResolvedHost, options: Required<Pick<FetchOptions, 'maxBytes' | 'userAgent'>>, signal: AbortSignal): Promise<HopResult> {
  return new Promise((resolve, reject) => {
    // Connect to the checked address only; the Host header and TLS SNI still carry the name.
    const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
      if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        lookup: pinned,
        signal,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
          'accept-language': 'ru-RU,ru;q=0.9,en;q=0.7',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '');
        const isRedirect = status >= 300 && status < 400 && status !== 304;
        // Redirect bodies and non-pages are not needed: stop reading at once.
        if (isRedirect || (contentType && !HTMLISH.test(contentType))) {
          response.destroy();
          resolve({ status, headers: response.headers, body: Buffer.alloc(0), truncated: false });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = (truncated: boolean) => {
          if (done) return;
          done = true;
          resolve({ status, headers: response.headers, body: Buffer.concat(chunks), truncated });
        };
        const stream = decompress(response);
        stream.on('data', (chunk: Buffer) => {
          if (done) return;
          const room = options.maxBytes - size;
          if (chunk.length >= room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            finish(true);
            response.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        stream.on('end', () => finish(false));
        stream.on('error', (error) => (done ? undefined : reject(error)));
        response.on('error', (error) => (done ? undefined : reject(error)));
      },
    );
    request.on('error', reject);
    // Whatever stage the exchange is in (connecting, headers, a body that trickles), the deadline ends it.
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal.removeEventListener('abort', onAbort));
    request.end();
  });
}

const CHARSET_IN_TYPE = /charset\s*=\s*["']?([\w-]+)/i;
const CHARSET_IN_META = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i;

/** The page's text in its own encoding: the header's charset, else the meta tag's, else UTF-8 (cp1251 sites are common). */
export function decodeBody(body: Buffer, contentType: string | null): string {
  const label = CHARSET_IN_TYPE.exec(contentType ?? '')?.[1] ?? CHARSET_IN_META.exec(body.subarray(0, 4096).toString('latin1'))?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label.toLowerCase()).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** A DNS lookup has no signal of its own: the deadline still wins the race. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function networkReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'соединение отклонено',
    ECONNRESET: 'соединение сброшено',
    EHOSTUNREACH: 'сервер недоступен',
    ENETUNREACH: 'сеть недоступна',
    EPROTO: 'ошибка протокола',
    CERT_HAS_EXPIRED: 'истёк срок SSL-сертификата',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'самоподписанный SSL-сертификат',
    ERR_TLS_CERT_ALTNAME_INVALID: 'SSL-сертификат выдан другому домену',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'не удалось проверить SSL-сертификат',
    HPE_INVALID_CONSTANT: 'некорректный ответ сервера',
  };
  return (code && reasons[code]) ?? code ?? (error as Error).message ?? 'неизвестная ошибка';
}

/** Reads one page, following redirects by hand. Always resolves. */
export async function fetchPage(address: string, options: FetchOptions = {}): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? defaultFetchLimits.timeoutMs;
  const maxBytes = options.maxBytes ?? defaultFetchLimits.maxBytes;
  const maxRedirects = options.maxRedirects ?? defaultFetchLimits.maxRedirects;
  const started = performance.now();
  const redirects: string[] = [];
  const page: FetchedPage = { url: address, finalUrl: null, status: null, contentType: null, html: '', redirects, timingMs: null, truncated: false, error: null, xRobotsTag: null };

  // One deadline for the whole chain; the caller's cancellation stops it too.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new FetchFailure(fill(m.fetchTimeout, { seconds: Math.round(timeoutMs / 100) / 10 }))), timeoutMs);
  const onCancel = () => deadline.abort(new FetchFailure(m.fetchCancelled));
  if (options.signal?.aborted) onCancel();
  options.signal?.addEventListener('abort', onCancel, { once: true });

  try {
    let current: URL;
    try {
      current = new URL(address);
    } catch {
      throw new FetchFailure(m.fetchBadUrl);
    }
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new FetchFailure(m.fetchBadScheme);
      if (deadline.signal.aborted) throw deadline.signal.reason;
      let target: ResolvedHost;
      try {
        target = await untilAborted(resolvePublicAddress(current.hostname, { allowPrivateHosts: options.allowPrivateHosts ?? false, resolver: options.resolver, isRefused: options.isRefused }), deadline.signal);
      } catch (error) {
        if (error instanceof HostRefusedError) throw new FetchFailure(fill(m.fetchPrivateHost, { address: error.address }), true);
        throw new FetchFailure(fill(m.fetchDns, { host: current.hostname }));
      }
      const result = await requestOnce(current, target, { maxBytes, userAgent: options.userAgent ?? PAGE_USER_AGENT }, deadline.signal);
      page.status = result.status;
      page.finalUrl = current.toString();
      const location = result.headers.location;
      if (result.status >= 300 && result.status < 400 && result.status !== 304) {
        if (!location) throw new FetchFailure(m.fetchRedirectNoLocation);
        if (hop >= maxRedirects) throw new FetchFailure(fill(m.fetchTooManyRedirects, { count: maxRedirects }));
        redirects.push(current.toString());
        try {
          current = new URL(location, current);
        } catch {
          throw new FetchFailure(m.fetchBadUrl);
        }
        continue;
      }
      page.contentType = result.headers['content-type'] ? String(result.headers['content-type']) : null;
      page.xRobotsTag = result.headers['x-robots-tag'] ? String(result.headers['x-robots-tag']) : null;
      page.truncated = result.truncated;
      page.html = result.body.length ? decodeBody(result.body, page.contentType) : '';
      break;
    }
  } catch (error) {
    const reason = deadline.signal.aborted && deadline.signal.reason instanceof FetchFailure ? deadline.signal.reason : error;
    page.error = reason instanceof FetchFailure ? reason.message : fill(m.fetchNetwork, { reason: networkReason(reason) });
    if (reason instanceof FetchFailure && reason.refused) page.refused = true;
    // An answer that came before the failure (e.g. a redirect) is no longer the page's status.
    page.status = null;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
    page.timingMs = Math.round(performance.now() - started);
  }
  return page;
}

/**
 * Reads pages `concurrency` at a time, in the order given; `onPage` is called as each one finishes
 * (for progress). Stops starting new pages once `signal` is aborted.
 *
 * The reports run one after another, in the order the pages finished: pages of one site often finish
 * together, and reports written to the database side by side could land out of order (the row would say
 * «2 of 4» after «3 of 4» and stay so while the last page loads). A lane does not wait for its report
 * to be written before it reads its next page; the reports are all written before this returns (a failed
 * one skips those after it and is thrown).
 */
export async function fetchPages(
  urls: readonly string[],
  options: FetchOptions & { concurrency?: number; onPage?: (done: number, total: number, page: FetchedPage) => void | Promise<void> } = {},
): Promise<FetchedPage[]> {
  const results: FetchedPage[] = new Array(urls.length);
  let next = 0;
  let done = 0;
  let reports: Promise<void> = Promise.resolve();
  const worker = async () => {
    while (next < urls.length) {
      const index = next++;
      results[index] = await fetchPage(urls[index], options);
      done += 1;
      const report = [done, urls.length, results[index]] as const;
      reports = reports.then(() => options.onPage?.(...report));
      // A failed report is thrown once the lanes are done, not as an unhandled rejection meanwhile.
      reports.catch(() => undefined);
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? defaultFetchLimits.concurrency, urls.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  await reports;
  return results;
}
