import { describe, expect, it } from 'vitest';
import { cacheOnlyGoodAssets, isAssetAddress, isCacheableResponse } from '@/features/pwa/asset-cache-policy';

const html = (status = 200) => new Response('<!doctype html><div id="root"></div>', { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
const script = (status = 200) => new Response('export {}', { status, headers: { 'content-type': 'text/javascript; charset=utf-8' } });

describe('what the service worker may cache', () => {
  it('tells asset addresses from pages', () => {
    expect(isAssetAddress('https://app.example/assets/index-abc.js')).toBe(true);
    expect(isAssetAddress('/assets/index-abc.css?v=2')).toBe(true);
    expect(isAssetAddress('/policy.pdf')).toBe(true);
    expect(isAssetAddress('/index.html')).toBe(false);
    expect(isAssetAddress('/projects/1')).toBe(false);
    expect(isAssetAddress('/')).toBe(false);
  });

  it('never caches the HTML shell a server answered for a missing chunk', () => {
    expect(isCacheableResponse('https://app.example/assets/index-gone.js', html())).toBe(false);
    expect(isCacheableResponse('https://app.example/assets/index-gone.css', html())).toBe(false);
  });

  it('never caches a non-2xx answer, for assets or pages', () => {
    for (const status of [404, 500, 503]) {
      expect(isCacheableResponse('/assets/index-abc.js', script(status))).toBe(false);
      expect(isCacheableResponse('/index.html', html(status))).toBe(false);
    }
    expect(isCacheableResponse('/assets/index-abc.js', new Response(null, { status: 304 }))).toBe(false);
  });

  it('caches real scripts and the shell itself', () => {
    expect(isCacheableResponse('/assets/index-abc.js', script())).toBe(true);
    expect(isCacheableResponse('/index.html', html())).toBe(true);
  });

  it('as a workbox plugin, hands back the response to cache or null', async () => {
    const good = script();
    expect(await cacheOnlyGoodAssets.cacheWillUpdate({ request: new Request('http://localhost/assets/a.js'), response: good })).toBe(good);
    expect(await cacheOnlyGoodAssets.cacheWillUpdate({ request: new Request('http://localhost/assets/a.js'), response: html() })).toBeNull();
  });
});
