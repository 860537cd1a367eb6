/**
 * Export of the accepted changes, run in a thread of the export pool (`exportPool()`): it parses the
 * accepted suggestions and the analysed campaigns and writes the platform's bulk-upload file with the
 * export engine (`export/`), none of which belongs on the API's event loop for a big account.
 *
 * Nothing of the account is whole in memory. The thread asks the route for what it needs over the
 * MessagePort (`ExportRead`) and the route reads it from the rows: first the accepted suggestions, a
 * position range at a time, of which only the changes are kept (a few strings each, not the documents);
 * then each touched campaign, one at a time, which is changed, written and dropped. So the thread holds
 * the changes and at most two campaigns (the one being written and the next one, read meanwhile).
 *
 * The file is streamed: its pieces are posted over the same port as they are written and the route
 * passes them on to the reply; the thread stays at most a few pieces ahead of what the reply has taken
 * (each piece is acknowledged), so neither side ever holds the whole file.
 */
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MessagePort } from 'node:worker_threads';
import type { Suggestion } from '../../contract/analysis-results.js';
import type { AdPlatform, Campaign } from '../../contract/campaigns.js';
import { expandInPlace } from './entity-refs.js';
import { applyCampaignChanges, ChangeCollector, changesByCampaign, type AcceptedSuggestion, type ChangeSet } from '../engines/export/changes.js';
import { exportFileOf, exportNotes } from '../engines/export/export-changes.js';

export interface ExportFileInput {
  /** The platform the file is for. */
  platform: AdPlatform;
  format: 'csv' | 'xlsx';
  /** The analysed account's platform (whose notation the texts are in). */
  source: AdPlatform;
}

export type ExportFileOutcome =
  /** The file was streamed over the port (a `head`, then its pieces). */
  | { kind: 'file'; fileName: string; contentType: string; notes: string[]; bytes: number }
  /** Nothing accepted applies to these campaigns. */
  | { kind: 'empty' }
  /** The platform has no file in this format. */
  | { kind: 'format_unavailable' };

/** What the thread asks the route to read: a batch of accepted suggestions from a position on, or one analysed campaign by its index. */
export type ExportRead = { what: 'suggestions'; from: number } | { what: 'campaign'; index: number };
/** Accepted suggestions (their JSON documents and the user's edited values), and where the next batch starts (`null`: none left). */
export interface AcceptedBatch {
  suggestions: { document: string; value: string | null }[];
  next: number | null;
  /** On the first batch: the names of the analysis' campaigns and groups, which the documents' compact refs leave out (entity-refs.ts). */
  names?: [key: string, name: string][];
}
/** The route's answer to a read: the batch, or the campaign's JSON text. */
export type ExportReadResult = AcceptedBatch | string;

/** Messages of the export thread: reads, the file's name and type before its first piece, then the pieces. */
export type ExportStreamMessage =
  | { type: 'read'; id: number; read: ExportRead }
  | { type: 'head'; fileName: string; contentType: string; notes: string[] }
  | { type: 'piece'; piece: Uint8Array };
/** The route's messages: a piece passed on to the reply (send more), or the answer to a read. */
export type ExportStreamAck = { type: 'ack' } | { type: 'answer'; id: number; result: ExportReadResult } | { type: 'failed'; id: number; message: string };

/** Pieces posted and not yet taken by the reply. */
const PIECES_IN_FLIGHT = 4;

/** The port's reads as promises. */
function readerOver(port: MessagePort) {
  let nextId = 0;
  const pending = new Map<number, { resolve: (result: ExportReadResult) => void; reject: (error: Error) => void }>();
  port.on('message', (message: ExportStreamAck) => {
    if (message.type === 'ack') return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.type === 'answer') waiting?.resolve(message.result);
    else waiting?.reject(new Error(message.message));
  });
  const read = (request: ExportRead) =>
    new Promise<ExportReadResult>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage({ type: 'read', id, read: request } satisfies ExportStreamMessage);
    });
  return {
    suggestions: (from: number) => read({ what: 'suggestions', from }) as Promise<AcceptedBatch>,
    campaign: (index: number) => read({ what: 'campaign', index }) as Promise<string>,
  };
}

type Reader = ReturnType<typeof readerOver>;

/** The changes of every accepted suggestion, read batch by batch (the next batch is read while this one is parsed). */
async function collectAccepted(reader: Reader): Promise<ChangeSet> {
  const collector = new ChangeCollector();
  const names = new Map<string, string>();
  let batch: Promise<AcceptedBatch> | null = reader.suggestions(0);
  while (batch) {
    const { suggestions, next, names: batchNames }: AcceptedBatch = await batch;
    batch = next === null ? null : reader.suggestions(next);
    for (const [key, name] of batchNames ?? []) names.set(key, name);
    for (const { document, value } of suggestions) {
      const suggestion = expandInPlace(JSON.parse(document) as Suggestion, names);
      const choice: AcceptedSuggestion = value !== null ? { id: suggestion.id, value } : { id: suggestion.id };
      collector.add(suggestion, choice);
    }
  }
  return collector.result();
}

/** The touched campaigns, read one at a time (the next one while this one is written) and changed in place. */
async function* readChangedCampaigns(reader: Reader, changes: ChangeSet): AsyncGenerator<Campaign> {
  const parts = changesByCampaign(changes);
  const indexes = changes.campaignIndexes;
  let text: Promise<string> | null = indexes.length > 0 ? reader.campaign(indexes[0]) : null;
  for (let i = 0; text; i++) {
    const campaign = JSON.parse(await text) as Campaign;
    text = i + 1 < indexes.length ? reader.campaign(indexes[i + 1]) : null;
    applyCampaignChanges(campaign, parts.get(indexes[i])!);
    yield campaign;
  }
}

export async function streamExportFile(input: ExportFileInput, port: MessagePort): Promise<ExportFileOutcome> {
  try {
    const reader = readerOver(port);
    const changes = await collectAccepted(reader);
    if (changes.campaignIndexes.length === 0) return { kind: 'empty' };
    const campaigns = () => readChangedCampaigns(reader, changes);
    // Only the asked format is written: an XLSX of a big account takes far longer than its CSV.
    const file = exportFileOf(input.platform, input.format, campaigns, input.source, changes.campaignIndexes.length);
    if (!file) return { kind: 'format_unavailable' };
    // Known before the first piece, so the reply's headers can carry them (for Editor: a pass over the campaigns of its own).
    const notes = await exportNotes(input.platform, campaigns, input.source, changes);

    let inFlight = 0;
    let acknowledged: (() => void) | null = null;
    port.on('message', (message: ExportStreamAck) => {
      if (message.type !== 'ack') return;
      inFlight--;
      acknowledged?.();
    });
    const waitForAck = () => new Promise<void>((resolve) => (acknowledged = resolve));
    port.postMessage({ type: 'head', fileName: file.fileName, contentType: file.contentType, notes } satisfies ExportStreamMessage);
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
