/**
 * The one HTTP client of the PWA (spec sections 7 and 8).
 *
 * - Base address from `VITE_API_URL`; same origin when it is not set.
 * - Bearer access token from local storage on every request that has one.
 * - Query parameters only when non-null; JSON bodies; form data (FormData, URLSearchParams, Blob) passed as is.
 * - JSON responses parsed, anything else read as text.
 * - A 401 on a request that carried a token triggers ONE refresh (shared by every request that
 *   fails at the same time, and by every tab of the browser through a Web Lock) and one retry. When the refresh fails the tokens are cleared, the
 *   browser goes to /auth and the error 'Unauthorized' is raised.
 * - Aborted requests are re-raised as they are, without logging or redirects.
 * - Downloads (`apiClient.download`) and event streams (`apiClient.stream`) go through the same rule
 *   and answer the raw `Response`, so no call of the PWA fetches with the token on its own.
 */
import { tokenStorage } from './storage';

export class ApiError extends Error {
  status: number;
  body: unknown;

  constructor(message: string, status: number, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export interface RequestOptions {
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** For the calls that must never trigger the refresh dance (login, register, refresh itself). */
  skipAuthRefresh?: boolean;
  /** The fetch cache mode (event streams ask `no-store`). */
  cache?: RequestCache;
}

export const UNAUTHORIZED_MESSAGE = 'Unauthorized';
export const REFRESH_TOKEN_NOT_FOUND = 'Refresh token not found';
export const NETWORK_ERROR_MESSAGE = 'Нет подключения к сети';
const REFRESH_PATH = '/api/v1/auth/refresh';

function apiBase(): string {
  const configured = (import.meta.env.VITE_API_URL as string | undefined) ?? '';
  return configured.replace(/\/+$/, '');
}

export function buildUrl(path: string, params?: Record<string, unknown>): string {
  const base = apiBase();
  const url = /^https?:\/\//.test(path) ? path : `${base}${path.startsWith('/') ? '' : '/'}${path}`;
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === null || item === undefined) continue;
      query.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = query.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** Section 8: error, then message, else 'HTTP {status}'; a detail array or string wins when present. */
export function errorMessageFrom(body: unknown, status: number): string {
  let message = `HTTP ${status}`;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.error === 'string' && record.error) message = record.error;
    else if (typeof record.message === 'string' && record.message) message = record.message;
    const detail = record.detail;
    if (Array.isArray(detail) && detail.length > 0) {
      message = detail.map(describeDetailItem).join(', ');
    } else if (typeof detail === 'string' && detail) {
      message = detail;
    }
  }
  return message;
}

function describeDetailItem(item: unknown): string {
  if (item && typeof item === 'object') {
    const record = item as Record<string, unknown>;
    if (typeof record.msg === 'string') return record.msg;
    if (typeof record.message === 'string') return record.message;
  }
  return typeof item === 'string' ? item : JSON.stringify(item);
}

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof DOMException && error.name === 'AbortError') ||
    (error instanceof Error && error.name === 'AbortError')
  );
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('json')) {
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  }
  return response.text();
}

type UnauthorizedHandler = () => void;

function defaultUnauthorizedHandler(): void {
  if (typeof window !== 'undefined' && window.location.pathname !== '/auth') window.location.assign('/auth');
}

let unauthorizedHandler: UnauthorizedHandler = defaultUnauthorizedHandler;

/**
 * What happens after a failed refresh, besides clearing the tokens: by default a full navigation
 * to /auth; the app replaces it with a router navigation that also clears the session state.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler ?? defaultUnauthorizedHandler;
}

let refreshInFlight: Promise<string> | null = null;

/** The Web Lock every tab of this origin takes around a refresh, so the browser refreshes once. */
export const REFRESH_LOCK_NAME = 'reklama-lab:auth-refresh';

/**
 * Exchanges the stored refresh token for a new pair and stores it. Every caller of this tab that
 * arrives while a refresh is running gets the same promise, and across tabs a Web Lock makes the
 * refreshes take turns: a tab that waited for the lock finds the pair another tab stored meanwhile in
 * the shared local storage (its refresh token differs from the one this tab started with) and uses it
 * without calling the server. Where Web Locks do not exist the tab refreshes on its own, and the
 * server's reuse grace window answers two tabs refreshing at once with the same pair.
 */
export function refreshSession(): Promise<string> {
  if (!refreshInFlight) {
    refreshInFlight = refreshOncePerBrowser().finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

function webLocks(): LockManager | null {
  if (typeof navigator === 'undefined') return null;
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

async function refreshOncePerBrowser(): Promise<string> {
  const locks = webLocks();
  if (!locks) return doRefresh();
  const startedWith = tokenStorage.getRefreshToken();
  return locks.request(REFRESH_LOCK_NAME, { mode: 'exclusive' }, async () => {
    const stored = tokenStorage.getRefreshToken();
    const access = tokenStorage.getAccessToken();
    // Another tab refreshed while this one waited: its new pair is already in the shared storage.
    if (stored && access && stored !== startedWith) return access;
    return doRefresh();
  });
}

async function doRefresh(): Promise<string> {
  const refreshToken = tokenStorage.getRefreshToken();
  if (!refreshToken) throw new ApiError(REFRESH_TOKEN_NOT_FOUND, 401);
  const response = await fetch(buildUrl(REFRESH_PATH), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  const body = await readBody(response).catch(() => undefined);
  if (!response.ok) throw new ApiError(errorMessageFrom(body, response.status), response.status, body);
  const tokens = body as { access_token?: string; refresh_token?: string } | undefined;
  if (!tokens?.access_token || !tokens.refresh_token) throw new ApiError(UNAUTHORIZED_MESSAGE, 401, body);
  tokenStorage.setTokens({ access_token: tokens.access_token, refresh_token: tokens.refresh_token });
  return tokens.access_token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send(method: Method, path: string, body: unknown, opts: RequestOptions, accessToken: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob) {
    // Form data goes as it is: the browser sets the multipart boundary or the urlencoded type itself.
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    payload = JSON.stringify(body);
  }
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  try {
    return await fetch(buildUrl(path, opts.params), { method, headers, body: payload, signal: opts.signal, cache: opts.cache });
  } catch (error) {
    if (isAbortError(error)) throw error;
    // fetch only rejects on network failure: say it in the user's words.
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, null);
  }
}

/** Sends the request; a 401 on a request that carried a token refreshes once and retries (see the header). */
async function sendAuthorized(method: Method, path: string, body: unknown, opts: RequestOptions): Promise<Response> {
  const accessToken = tokenStorage.getAccessToken();
  const response = await send(method, path, body, opts, accessToken);
  if (response.status !== 401 || !accessToken || opts.skipAuthRefresh) return response;

  let freshToken: string;
  try {
    const stored = tokenStorage.getAccessToken();
    // Another request already refreshed while this one was in flight: just use its token.
    freshToken = stored && stored !== accessToken ? stored : await refreshSession();
  } catch (error) {
    if (isAbortError(error)) throw error;
    tokenStorage.clear();
    unauthorizedHandler();
    throw new ApiError(UNAUTHORIZED_MESSAGE, 401, null);
  }
  return send(method, path, body, opts, freshToken);
}

async function readBodyQuietly(response: Response): Promise<unknown> {
  try {
    return await readBody(response);
  } catch (error) {
    if (isAbortError(error)) throw error;
    return undefined;
  }
}

async function request<T>(method: Method, path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
  const response = await sendAuthorized(method, path, body, opts);
  const data = await readBodyQuietly(response);
  if (!response.ok) throw new ApiError(errorMessageFrom(data, response.status), response.status, data ?? null);
  return data as T;
}

/** A successful answer left unread (a file, an event stream); an error answer raises `ApiError` as any call. */
async function requestResponse(path: string, opts: RequestOptions): Promise<Response> {
  const response = await sendAuthorized('GET', path, undefined, opts);
  if (!response.ok) {
    const data = await readBodyQuietly(response);
    throw new ApiError(errorMessageFrom(data, response.status), response.status, data ?? null);
  }
  return response;
}

export const apiClient = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body, opts),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts),
  /** A file: its bytes and the answer's headers (the file name is in `content-disposition`). */
  download: async (path: string, opts: RequestOptions = {}) => {
    const response = await requestResponse(path, { ...opts, headers: { Accept: '*/*', ...opts.headers } });
    return { blob: await response.blob(), headers: response.headers };
  },
  /** An event stream, its body still to read. */
  stream: (path: string, opts: RequestOptions = {}) =>
    requestResponse(path, { cache: 'no-store', ...opts, headers: { Accept: 'text/event-stream', ...opts.headers } }),
};
