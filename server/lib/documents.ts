/**
 * Documents (PDFs) are built in the document pool's threads (worker-pool.ts), never in the event loop:
 * pdfkit lays out text and embeds fonts synchronously, tens of milliseconds per document, and twenty
 * invoices at once held `/api/health` for up to 1.3 s. The pool's threads are the limit on builds at
 * once; past its queue a request is refused with 503 and `Retry-After` rather than waiting minutes.
 *
 *   const pdf = await buildDocument(new URL('./invoice-pdf.js', import.meta.url), 'renderInvoicePdf', invoice);
 *
 * The function must take structured-clonable input (plain objects, Dates) and resolve with the bytes.
 */
import { apiMessages } from '../../contract/messages.js';
import { HttpError } from './errors.js';
import { documentPool, PoolBusyError } from './worker-pool.js';

/** Seconds a refused client is told to wait: documents take a fraction of a second each. */
const RETRY_AFTER_SECONDS = 5;

export class DocumentsBusyError extends HttpError {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;

  constructor() {
    super(503, 'DOCUMENTS_BUSY', apiMessages.documentsBusy);
  }
}

export async function buildDocument(moduleUrl: URL, exportName: string, input: unknown): Promise<Buffer> {
  try {
    const bytes = await documentPool().run<Uint8Array>(moduleUrl, exportName, [input]);
    // A Buffer arrives from the thread as a plain Uint8Array (structured clone); same bytes, no copy.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (error instanceof PoolBusyError) throw new DocumentsBusyError();
    throw error;
  }
}
