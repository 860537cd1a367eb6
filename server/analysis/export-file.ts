/**
 * Export of the accepted changes, run in a thread of the export pool (`exportPool()`): it parses the analysed
 * campaigns and the accepted suggestions (from the rows) and writes the platform's bulk-upload file with the export engine
 * (`export/`), none of which belongs on the API's event loop for a big account.
 *
 * The file is streamed: its pieces are posted over a MessagePort as they are written and the route
 * passes them on to the reply; the thread stays at most a few pieces ahead of what the reply has taken
 * (each piece is acknowledged), so neither side ever holds the whole file.
 */
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MessagePort } from 'node:worker_threads';
import type { Suggestion } from '../../src/contract/analysis-results.js';
import type { AdPlatform } from '../../src/contract/campaigns.js';
import { exportFileOf } from './export/export-changes.js';
import { campaignDataOf } from './run-audit.js';

export interface ExportFileInput {
  platform: AdPlatform;
  /** JSON texts of the analysed campaigns, in the analysed order. */
  campaigns: string[];
  /** JSON texts of the accepted suggestions (read from the rows). */
  suggestions: string[];
  /** Accepted ids with the edited values of ad-field suggestions. */
  accepted: { id: string; value?: string }[];
  format: 'csv' | 'xlsx';
}

export type ExportFileOutcome =
  /** The file was streamed over the port (a `head`, then its pieces). */
  | { kind: 'file'; fileName: string; contentType: string; notes: string[]; bytes: number }
  /** Nothing accepted applies to these campaigns. */
  | { kind: 'empty' }
  /** The platform has no file in this format. */
  | { kind: 'format_unavailable' };

/** Messages of the export thread: the file's name and type before its first piece, then the pieces. */
export type ExportStreamMessage = { type: 'head'; fileName: string; contentType: string } | { type: 'piece'; piece: Uint8Array };
/** The route's answer to a piece: passed on to the reply, send more. */
export type ExportStreamAck = { type: 'ack' };

/** Pieces posted and not yet taken by the reply. */
const PIECES_IN_FLIGHT = 4;

export async function streamExportFile(input: ExportFileInput, port: MessagePort): Promise<ExportFileOutcome> {
  try {
    const data = campaignDataOf({ platform: input.platform, period: null, campaigns: input.campaigns, searchQueries: [] });
    const suggestions = input.suggestions.map((text) => JSON.parse(text) as Suggestion);
    // Only the asked format is written: an XLSX of a big account takes far longer than its CSV.
    const { changes, notes, file } = exportFileOf(data, suggestions, input.accepted, input.format);
    if (!file) return changes.campaignIndexes.length === 0 ? { kind: 'empty' } : { kind: 'format_unavailable' };

    let inFlight = 0;
    let acknowledged: (() => void) | null = null;
    port.on('message', (message: ExportStreamAck) => {
      if (message.type !== 'ack') return;
      inFlight--;
      acknowledged?.();
    });
    const waitForAck = () => new Promise<void>((resolve) => (acknowledged = resolve));
    port.postMessage({ type: 'head', fileName: file.fileName, contentType: file.contentType } satisfies ExportStreamMessage);
    let bytes = 0;
    const output = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        const piece = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        bytes += piece.byteLength;
        port.postMessage({ type: 'piece', piece } satisfies ExportStreamMessage);
        inFlight++;
        if (inFlight < PIECES_IN_FLIGHT) return done();
        void (async () => {
          while (inFlight >= PIECES_IN_FLIGHT) await waitForAck();
          done();
        })();
      },
    });
    await file.write(output);
    // The XLSX writer ends its output itself; the CSV does not.
    if (!output.writableEnded) output.end();
    await finished(output);
    // Returning once every piece is taken: the reply ends after the last of them.
    while (inFlight > 0) await waitForAck();
    return { kind: 'file', fileName: file.fileName, contentType: file.contentType, notes, bytes };
  } finally {
    port.close();
  }
}
