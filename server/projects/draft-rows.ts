/**
 * How an import preview travels from the import thread into its draft rows, a piece at a time, so no
 * value the size of the account exists as one string, one message or one jsonb value (a 1 000 000-keyword
 * account is ~600 MB of JSON; PostgreSQL takes 256 MB in one jsonb):
 *
 *   thread: draftRowMessages(data) → DraftRowSender.send   ──MessagePort──▶   main: receiveDraftRows → writeDraftRow
 *
 * Campaigns go a few at a time (a batch of ≤ 4 MB of JSON, one campaign alone when it is bigger), search
 * queries in chunks of `SEARCH_QUERY_CHUNK`. Each message is acknowledged once its rows are in the database,
 * and the thread keeps at most `IN_FLIGHT` messages unacknowledged (server/lib/port-stream.ts), so the main thread never holds more
 * than a few batches however fast the thread serialises. Those few are written at the same time, on their
 * own connections (rows carry their positions, so the order of writes is free). The documents are stored as
 * `json` (migration 0109): PostgreSQL only checks the text, where building jsonb took it ~150 ms per 2 MB
 * batch (≈ 2.3 s of backend time for a 100 000-keyword account). With each campaign goes the summary its
 * project row will carry (campaign-row.ts), so saving the preview copies columns and never parses a document.
 */
import type { MessagePort } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type { CampaignData } from '../../contract/campaigns.js';
import type { Database } from '../db/schema.js';
import { PortStreamSender, receivePortStream, type PortStreamReceiver } from '../lib/port-stream.js';
import { campaignRowSummary } from './campaign-row.js';

/** Search queries per stored row (draft and project): ~2–3 MB of JSON each. */
export const SEARCH_QUERY_CHUNK = 10_000;
/** Campaign JSON per message; one campaign bigger than this goes alone. */
const CAMPAIGN_BATCH_CHARS = 4 * 1024 * 1024;
/** Messages the thread may have sent and not yet seen stored. */
const IN_FLIGHT = 2;

export type DraftRowMessage =
  /** `json` is an array of Campaign documents, the first of them at `first`; `summaries` their CampaignRowSummary[], in the same order. */
  | { kind: 'campaigns'; first: number; json: string; summaries: string }
  /** `json` is a SearchQuery[] of `rows` queries, the chunk number `position`. */
  | { kind: 'queries'; position: number; rows: number; json: string };

type Replacer = (key: string, value: unknown) => unknown;

/** The messages a CampaignData becomes, serialised one piece at a time. */
export function* draftRowMessages(data: Pick<CampaignData, 'campaigns' | 'searchQueries'>, replacer?: Replacer): Generator<DraftRowMessage> {
  let batch: string[] = [];
  let summaries: string[] = [];
  let chars = 0;
  let first = 0;
  const campaignsMessage = (): DraftRowMessage => ({ kind: 'campaigns', first, json: `[${batch.join(',')}]`, summaries: `[${summaries.join(',')}]` });
  for (let index = 0; index < data.campaigns.length; index++) {
    const campaign = data.campaigns[index]!;
    const json = JSON.stringify(campaign, replacer);
    if (batch.length > 0 && chars + json.length > CAMPAIGN_BATCH_CHARS) {
      yield campaignsMessage();
      batch = [];
      summaries = [];
      chars = 0;
      first = index;
    }
    batch.push(json);
    summaries.push(JSON.stringify(campaignRowSummary(campaign), replacer));
    chars += json.length;
  }
  if (batch.length > 0) yield campaignsMessage();
  for (let from = 0, position = 0; from < data.searchQueries.length; from += SEARCH_QUERY_CHUNK, position++) {
    const chunk = data.searchQueries.slice(from, from + SEARCH_QUERY_CHUNK);
    yield { kind: 'queries', position, rows: chunk.length, json: JSON.stringify(chunk, replacer) };
  }
}

/**
 * Stores one message's rows in the draft (set-based: a batch of campaigns is one INSERT … SELECT, each
 * document paired with its summary by their place in the two arrays).
 */
export async function writeDraftRow(db: Kysely<Database>, draftId: string, message: DraftRowMessage): Promise<void> {
  if (message.kind === 'campaigns') {
    await sql`
      INSERT INTO import_draft_campaigns (draft_id, position, data, summary)
      SELECT ${draftId}, ${message.first} + e.ord - 1, e.value, s.value
        FROM json_array_elements(${message.json}::json) WITH ORDINALITY e(value, ord)
        JOIN jsonb_array_elements(${message.summaries}::jsonb) WITH ORDINALITY s(value, ord) ON s.ord = e.ord`.execute(db);
  } else {
    await sql`
      INSERT INTO import_draft_search_queries (draft_id, position, data, rows_count)
      VALUES (${draftId}, ${message.position}, ${message.json}::json, ${message.rows})`.execute(db);
  }
}

/** Sends a whole CampaignData into the draft, piece by piece. */
export async function sendDraftRows(data: Pick<CampaignData, 'campaigns' | 'searchQueries'>, port: MessagePort, replacer?: Replacer): Promise<void> {
  const sender = new PortStreamSender<DraftRowMessage>(port, { inFlight: IN_FLIGHT, failureError: (message) => new Error(`The import draft could not be stored: ${message}`) });
  try {
    for (const message of draftRowMessages(data, replacer)) await sender.send(message);
    await sender.drain();
  } finally {
    port.close();
  }
}

/**
 * The main thread's side: writes each message into the draft as it arrives (the sender bounds how many at
 * once) and acknowledges it. `finished()` resolves once every message received so far is written, or
 * rejects with the first failure; after a failure the rest are refused.
 */
export function receiveDraftRows(db: Kysely<Database>, draftId: string, port: MessagePort): PortStreamReceiver {
  return receivePortStream<DraftRowMessage>(port, { handle: (message) => writeDraftRow(db, draftId, message) });
}
