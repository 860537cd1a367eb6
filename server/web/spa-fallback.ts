/**
 * Which unknown paths get the app shell (index.html) instead of a 404.
 *
 * Only a browser navigation to a client route does: a GET/HEAD that accepts HTML, outside `/api/`,
 * whose last path segment has no file extension. Anything that looks like a file (`/assets/index-abc.js`,
 * `/favicon.ico`, `/x.webmanifest`) and does not exist is a 404: answering the HTML shell there is what
 * made a deploy break open apps (a stale chunk "loaded" as HTML, and the service worker cached that HTML
 * under script addresses).
 */
export interface FallbackRequest {
  method: string;
  url: string;
  accept: string | undefined;
}

const FILE_EXTENSION = /\.[a-z0-9]+$/i;

export function pathHasFileExtension(pathname: string): boolean {
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return FILE_EXTENSION.test(lastSegment);
}

export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    // `text/html;q=0` means "anything but HTML".
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    return type?.trim() === 'text/html' && !refused;
  });
}

export function isClientRouteNavigation(request: FallbackRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split(/[?#]/, 1)[0] ?? '/';
  if (pathname === '/api' || pathname.startsWith('/api/')) return false;
  if (pathHasFileExtension(pathname)) return false;
  return acceptsHtml(request.accept);
}

/** The PWA's public page of a shared client report (`shareReportPath` in contract/reports.ts). */
export const isSharedReportPage = (url: string) => url.startsWith('/r/');
