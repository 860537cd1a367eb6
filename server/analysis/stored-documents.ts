/**
 * The account's documents (the campaigns and the search-query reports, stored as JSON) read by the engine
 * thread itself, on a connection of its own. Read on the event loop, 40 MB of JSON at 100 000 keywords
 * (400 MB at 1 000 000) became strings, then bytes for the thread, and the collection of those strings
 * stalled the API's answers at the start of every audit by 50–100 ms (`npm run bench --
 * server-during-audit`): in the thread, all of it happens at background priority, and the event loop only
 * hands over ids.
 */
import type pg from 'pg';
import { connectThreadClient, type ThreadConnection } from '../db/thread-client.js';

export interface StoredDocuments extends ThreadConnection {
  /** In the audit's order. */
  campaignIds: string[];
  /** In the report's order (imports in order, each import's chunks in order). */
  searchQueryIds: string[];
}

/** The message a thread's error carries when a campaign vanished while it was read (a new import replaced it). */
export const CAMPAIGNS_GONE = 'Campaigns of the analysis were removed by a new import';

/** Documents per query: the thread holds one page of JSON text beside what it has parsed. */
const PAGE_ROWS = 8;

export async function readStoredDocuments(stored: StoredDocuments): Promise<{ campaigns: string[]; searchQueries: string[] }> {
  const client = await connectThreadClient(stored);
  try {
    const campaigns = await readTexts(client, 'campaigns', stored.campaignIds);
    if (campaigns.length !== stored.campaignIds.length) throw new Error(CAMPAIGNS_GONE);
    return { campaigns, searchQueries: await readTexts(client, 'project_search_queries', stored.searchQueryIds) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The JSON texts of these rows, in this order; a row deleted meanwhile is left out. */
async function readTexts(client: pg.Client, table: 'campaigns' | 'project_search_queries', ids: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (let start = 0; start < ids.length; start += PAGE_ROWS) {
    const page = ids.slice(start, start + PAGE_ROWS);
    const { rows } = await client.query<{ id: string; data: string | null }>(`SELECT id, data::text AS data FROM ${table} WHERE id = ANY($1::uuid[])`, [page]);
    const byId = new Map(rows.map((row) => [row.id, row.data]));
    for (const id of page) if (byId.has(id)) texts.push(byId.get(id) ?? '');
  }
  return texts;
}
