/**
 * What the service worker may store. A deploy removes the old hashed chunks; a server (or a proxy)
 * that answers a missing `/assets/x.js` with the HTML shell, or any error page, must not end up in the
 * cache under a script's address, where it would blank the app until the cache is cleared.
 */

const FILE_EXTENSION = /\.([a-z0-9]+)$/i;

/** True when the address names a file other than an HTML page (a script, a style, an image, a PDF). */
export function isAssetAddress(url: string): boolean {
  const { pathname } = new URL(url, 'http://localhost');
  const extension = pathname.slice(pathname.lastIndexOf('/') + 1).match(FILE_EXTENSION)?.[1]?.toLowerCase();
  return extension !== undefined && extension !== 'html' && extension !== 'htm';
}

export function isCacheableResponse(url: string, response: Pick<Response, 'status' | 'headers'>): boolean {
  if (response.status < 200 || response.status > 299) return false;
  const contentType = response.headers.get('content-type') ?? '';
  if (isAssetAddress(url) && contentType.toLowerCase().includes('text/html')) return false;
  return true;
}

/** A workbox plugin: answers that fail `isCacheableResponse` are not cached (a precache install then fails and is retried later). */
export const cacheOnlyGoodAssets = {
  cacheWillUpdate: async ({ request, response }: { request: Request; response: Response }): Promise<Response | null> =>
    isCacheableResponse(request.url, response) ? response : null,
};
