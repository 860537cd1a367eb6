/**
 * Files behind the session (exports, invoices): a plain link cannot carry the bearer header, so the
 * file is fetched, turned into a blob and saved through an object URL. One refresh on 401, as the
 * API client does; errors arrive as ApiError in the user's words.
 */
import { ApiError, errorMessageFrom, NETWORK_ERROR_MESSAGE, refreshSession } from './api-client';
import { tokenStorage } from './storage';

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` wins over `filename=`). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : null;
}

async function fetchWithToken(url: string, token: string | null): Promise<Response> {
  try {
    return await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, null);
  }
}

/** Fetches `url` with the session and saves it; answers the file name used. */
export async function downloadWithSession(url: string, fallbackName: string): Promise<string> {
  let response = await fetchWithToken(url, tokenStorage.getAccessToken());
  if (response.status === 401 && tokenStorage.getRefreshToken()) {
    response = await fetchWithToken(url, await refreshSession());
  }
  if (!response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await response.json().catch(() => null) : null;
    throw new ApiError(errorMessageFrom(body, response.status), response.status, body);
  }
  const blob = await response.blob();
  const fileName = fileNameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
  return fileName;
}
