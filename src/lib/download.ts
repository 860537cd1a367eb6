/**
 * Saving a file behind the session (an analysis export, an invoice PDF): a plain link cannot carry the
 * bearer header, so the file comes through the client's download mode (`callApi(route, { mode:
 * 'download' })`, the 401 → refresh → retry rule included) and is saved through
 * an object URL.
 */
import type { DownloadedFile } from './call-api';

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

/** Saves a downloaded file (`callApi(route, { mode: 'download' })`); answers the name used (the server's, else `fallbackName`). */
export function saveDownloadedFile({ blob, headers }: DownloadedFile, fallbackName: string): string {
  const fileName = fileNameFromDisposition(headers.get('content-disposition')) ?? fallbackName;
  saveBlob(blob, fileName);
  return fileName;
}

/** Saves a file made or fetched in the page under `fileName`, through a clicked link to an object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
}
