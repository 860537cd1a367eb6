/**
 * Import drafts: a preview parsed and shown to the user, not saved yet. A draft is a small row
 * (`import_drafts`: counts, problems, period, the sealed Direct token) plus its campaigns one row each
 * and its search queries in chunks, written while the import thread produces them (draft-rows.ts).
 *
 *   openDraft → fillDraft (thread → rows) → finishDraft (ready, the preview answer) → applyDraft on save
 *
 * A draft being filled is not `ready` and cannot be saved; one that fails is discarded, and a forgotten
 * one goes with the next preview after `DRAFT_TTL_HOURS` (its rows with it: ON DELETE CASCADE).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { sql, type Transaction } from 'kysely';
import { projectMessages } from '../../contract/messages.js';
import type { ImportPreview } from '../../contract/projects.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { ImportMode, ImportSource } from '../db/tables/projects.js';
import { notFound } from '../lib/errors.js';
import { receiveDraftRows } from './draft-rows.js';
import type { ParsedImport } from './import-worker.js';
import type { SealedDirectConnection } from '../db/tables/import-jobs.js';

type Executor = DB | Transaction<Database>;

/** A preview stays available this long: enough to finish the form, short enough not to pile up. */
export const DRAFT_TTL_HOURS = 24;

export const draftNotFound = () => notFound(projectMessages.draftNotFound, 'DRAFT_NOT_FOUND');

const expiry = () => new Date(Date.now() + DRAFT_TTL_HOURS * 3600_000);

/** An empty draft of the caller, not ready yet, for the import thread to fill. */
export async function openDraft(
  db: DB,
  caller: Pick<Caller, 'organizationId' | 'userId'>,
  source: ImportSource,
  fileNames: string[],
  connection: SealedDirectConnection | null,
): Promise<string> {
  // Forgotten previews are cleaned up by the next one; no timer needed.
  await db.deleteFrom('import_drafts').where('expires_at', '<', new Date()).execute();
  const row = await db
    .insertInto('import_drafts')
    .values({
      organization_id: caller.organizationId,
      user_id: caller.userId,
      source,
      ready: false,
      period: JSON.stringify(null),
      counts: JSON.stringify({ campaigns: 0, groups: 0, ads: 0, keywords: 0, searchQueries: 0 }),
      problems: JSON.stringify([]),
      detected: JSON.stringify([]),
      file_names: JSON.stringify(fileNames),
      connection: JSON.stringify(connection),
      expires_at: expiry(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Runs an import thread with a port whose messages become the draft's rows; resolves with the thread's
 * answer once every row it sent is stored.
 */
export async function fillDraft(db: DB, draftId: string, runThread: (rows: MessagePort) => Promise<ParsedImport>): Promise<ParsedImport> {
  const { port1, port2 } = new MessageChannel();
  const receiver = receiveDraftRows(db, draftId, port1);
  try {
    const parsed = await runThread(port2);
    await receiver.finished();
    return parsed;
  } catch (error) {
    // Let the writes in progress end before the caller discards the draft.
    await receiver.finished().catch(() => undefined);
    throw error;
  } finally {
    port1.close();
  }
}

/** Marks a filled draft ready and answers with its preview (the summary only: it stays small at any size). */
export async function finishDraft(
  db: Executor,
  draftId: string,
  parsed: ParsedImport,
  source: ImportSource,
  fileNames: string[],
  fallbackPlatform: 'yandex_direct' | 'google_ads' | 'vk_ads',
): Promise<ImportPreview> {
  const expiresAt = expiry();
  await db
    .updateTable('import_drafts')
    .set({
      ready: true,
      period: JSON.stringify(parsed.period),
      counts: JSON.stringify(parsed.counts),
      problems: JSON.stringify(parsed.problems),
      detected: JSON.stringify(parsed.detected),
      expires_at: expiresAt,
    })
    .where('id', '=', draftId)
    .executeTakeFirstOrThrow();
  return {
    draft_id: draftId,
    source,
    platform: parsed.platform ?? fallbackPlatform,
    file_names: fileNames,
    counts: parsed.counts,
    problems: parsed.problems,
    detected: parsed.detected as ImportPreview['detected'],
    campaigns: parsed.campaigns,
    period: parsed.period,
    ...(source === 'files' ? { statistics_rows: statisticsRowsOf(parsed.detected) } : {}),
    ...(parsed.units !== undefined ? { units: parsed.units } : {}),
    expires_at: expiresAt.toISOString(),
  };
}

/** Rows of statistics the files' reports gave (each detected report table says how many it read). */
function statisticsRowsOf(detected: unknown[]): number {
  let rows = 0;
  for (const file of detected) {
    const read = (file as { statsRows?: unknown }).statsRows;
    if (typeof read === 'number') rows += read;
  }
  return rows;
}

/**
 * The statistics period a person entered on the caller's own live preview (the files did not say it, or
 * said it wrong): saved with the import like a period read from the files. 404 when the preview is gone.
 */
export async function setDraftPeriod(db: Executor, caller: Caller, draftId: string, period: { from: string; to: string }): Promise<{ from: string; to: string }> {
  const updated = await db
    .updateTable('import_drafts')
    .set({ period: JSON.stringify({ from: period.from, to: period.to }) })
    .where('id', '=', draftId)
    .where('organization_id', '=', caller.organizationId)
    .where('user_id', '=', caller.userId)
    .where('ready', '=', true)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw draftNotFound();
  return { from: period.from, to: period.to };
}

/** Removes a draft that will not be shown (the import failed or was refused), with its rows. */
export async function discardDraft(db: Executor, draftId: string): Promise<void> {
  await db.deleteFrom('import_drafts').where('id', '=', draftId).execute();
}

/** The caller's own live, ready draft, locked so two saves of one preview cannot both apply it. */
export async function lockDraft(trx: Transaction<Database>, caller: Pick<Caller, 'organizationId' | 'userId'>, draftId: string): Promise<void> {
  const draft = await trx
    .selectFrom('import_drafts')
    .select('id')
    .where('id', '=', draftId)
    .where('organization_id', '=', caller.organizationId)
    .where('user_id', '=', caller.userId)
    .where('ready', '=', true)
    .where('expires_at', '>', new Date())
    .forUpdate()
    .executeTakeFirst();
  if (!draft) throw draftNotFound();
}

/**
 * Turns a preview into the project's campaigns: `create`/`replace` swap the whole campaign set (and
 * search-query report), `append` adds to it. Everything happens in the caller's transaction, so a
 * failure leaves the project exactly as it was. Set-based: the draft's campaign rows become campaign
 * rows in one INSERT … SELECT, with the counts and group summaries the import thread computed
 * (campaign-row.ts), and the query chunks are copied as they are: no document is parsed.
 */
export async function applyDraft(trx: Transaction<Database>, caller: Pick<Caller, 'organizationId' | 'userId'>, projectId: string, draftId: string, mode: ImportMode): Promise<string> {
  await lockDraft(trx, caller, draftId);
  const imported = await sql<{ id: string }>`
    INSERT INTO project_imports (project_id, source, mode, status, file_names, counts, problems, detected, period, created_by, units_spent)
    SELECT ${projectId}, d.source, ${mode}, 'completed', d.file_names, d.counts, d.problems, d.detected,
           nullif(d.period, 'null'::jsonb), ${caller.userId}, d.units_spent
      FROM import_drafts d WHERE d.id = ${draftId}
    RETURNING id`.execute(trx);
  const importId = imported.rows[0]!.id;

  if (mode !== 'append') {
    await trx.deleteFrom('campaigns').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('project_search_queries').where('project_id', '=', projectId).execute();
  }
  const start = await trx
    .selectFrom('campaigns')
    .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('next'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();

  await sql`
    INSERT INTO campaigns (project_id, import_id, position, external_id, name, type, groups_count, ads_count, keywords_count,
                           negative_keywords_count, stats, groups_summary, data)
    SELECT ${projectId}, ${importId}, ${start.next} + c.position, c.summary ->> 'external_id', c.summary ->> 'name', c.summary ->> 'type',
           (c.summary ->> 'groups_count')::int, (c.summary ->> 'ads_count')::int, (c.summary ->> 'keywords_count')::int,
           (c.summary ->> 'negative_keywords_count')::int, nullif(c.summary -> 'stats', 'null'::jsonb), c.summary -> 'groups_summary', c.data
      FROM import_draft_campaigns c WHERE c.draft_id = ${draftId}`.execute(trx);

  await sql`
    INSERT INTO project_search_queries (project_id, import_id, position, data, rows_count, period)
    SELECT ${projectId}, ${importId}, q.position, q.data, q.rows_count, nullif(d.period, 'null'::jsonb)
      FROM import_draft_search_queries q JOIN import_drafts d ON d.id = q.draft_id
     WHERE q.draft_id = ${draftId} AND q.rows_count > 0`.execute(trx);

  // A Direct API preview carries the sealed token: saving the preview connects the project.
  await sql`
    INSERT INTO project_connections (project_id, platform, encrypted_token, client_login, sandbox, direct_connection_id)
    SELECT ${projectId}, 'yandex_direct', d.connection ->> 'encrypted_token', d.connection ->> 'client_login', coalesce((d.connection ->> 'sandbox')::boolean, false),
           (d.connection ->> 'direct_connection_id')::uuid
      FROM import_drafts d
     WHERE d.id = ${draftId} AND jsonb_typeof(d.connection) = 'object'
    ON CONFLICT (project_id, platform) DO UPDATE
      SET encrypted_token = excluded.encrypted_token, client_login = excluded.client_login, sandbox = excluded.sandbox,
          direct_connection_id = excluded.direct_connection_id, updated_at = now()`.execute(trx);

  await discardDraft(trx, draftId);
  await trx.updateTable('projects').set({ updated_at: new Date() }).where('id', '=', projectId).execute();
  return importId;
}
