/**
 * Many agency clients at once: an agency picks clients of an OAuth connection and gets a project for each,
 * named after the client, its connection keeping the `Client-Login` so re-imports and audits read that client.
 *
 *   waiting → importing (an ordinary Direct import job, import-jobs.ts) → completed (project created or refreshed)
 *                                                                      ↘ failed (the job's Russian error)
 *
 * At most `AGENCY_IMPORT_CONCURRENCY` clients of one connection are read at once, so neither the API's points
 * nor the machine are flooded by an agency of hundreds: the rest wait, and each job that ends lets the next
 * one in (`dispatchAgencyImports`, called by the worker when a job ends and whenever the list is read, so a
 * lost signal only delays). A client that fails (no access, points exhausted) fails alone.
 *
 * Idempotent: a client already waiting or importing is not queued twice (a partial unique index), and a client
 * whose project of this connection exists gets that project refreshed (campaigns replaced), never a second one.
 * The project is written in the same transaction that completes the job, so there is never a half-made one.
 */
import { sql, type Transaction } from 'kysely';
import type { AgencyClientImport, AgencyClientImportList } from '../../contract/direct-connections.js';
import { directConnectionMessages as dm } from '../../contract/messages.js';
import { normalizeSiteUrl } from '../../contract/projects.js';
import type { Caller } from '../auth/authenticate.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { agencyClients, connectionAccessToken } from '../direct/connections.js';
import type { JobQueue } from '../jobs/queue.js';
import { iso } from '../lib/api-values.js';
import { HttpError, notFound } from '../lib/errors.js';
import { sealSecret } from '../lib/secret-box.js';
import { applyDraft } from './drafts.js';
import { enqueueDirectImportJob } from './import-jobs.js';
import { DIRECT_TOKEN_CONTEXT, nameKey } from './service.js';

/** Clients of one connection read at once: each read makes up to 5 API requests at a time and a worker thread. */
export const AGENCY_IMPORT_CONCURRENCY = 2;
/** Site of a project whose ads carry no link: the person sets the real one in the project's settings. */
const UNKNOWN_SITE = 'https://direct.yandex.ru';

type AgencyConfig = Pick<AppConfig, 'yandexOAuth' | 'secretsKey' | 'yandexDirectApiUrl'>;
type Owner = Pick<Caller, 'organizationId' | 'userId'>;

/**
 * Queues the picked clients and starts the first ones. The logins are checked against the agency's own list
 * (agencyclients.get), which also gives each project its name; an unknown login is a 422 naming it.
 */
export async function startAgencyClientImports(db: DB, jobs: JobQueue | null, config: AgencyConfig, caller: Caller, connectionId: string, logins: string[]): Promise<AgencyClientImportList> {
  if (!jobs) throw new HttpError(503, 'JOBS_UNAVAILABLE', 'Очередь задач недоступна. Попробуйте позже');
  const list = await agencyClients(db, config, caller.organizationId, connectionId);
  if (!list.agency) throw new HttpError(422, 'NOT_AGENCY', dm.notAgency);
  const byLogin = new Map(list.clients.map((client) => [client.login.toLowerCase(), client]));
  const unique = [...new Set(logins.map((login) => login.trim()))];
  const unknown = unique.filter((login) => !byLogin.has(login.toLowerCase()));
  if (unknown.length > 0) {
    const detail = unknown.map((login) => ({ loc: ['body', 'logins', login], msg: dm.notAgencyClient.replace('{login}', login) }));
    throw new HttpError(422, 'NOT_AGENCY_CLIENT', detail[0]!.msg, detail);
  }
  const rows = unique.map((login) => {
    const client = byLogin.get(login.toLowerCase())!;
    return { organization_id: caller.organizationId, user_id: caller.userId, direct_connection_id: connectionId, client_login: client.login, client_name: client.name };
  });
  // A client already waiting or importing keeps its turn: the unique index turns the second pick into nothing.
  await sql`
    INSERT INTO agency_client_imports (organization_id, user_id, direct_connection_id, client_login, client_name)
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
           AS r(organization_id uuid, user_id uuid, direct_connection_id uuid, client_login text, client_name text)
    ON CONFLICT (direct_connection_id, client_login) WHERE status IN ('waiting', 'importing') DO NOTHING`.execute(db);
  await dispatchAgencyImports(db, jobs, config, caller.organizationId, connectionId);
  return listAgencyClientImports(db, caller, connectionId);
}

/** The latest turn of every client of the connection (the batch's screen polls it); moves the queue on first. */
export async function readAgencyClientImports(db: DB, jobs: JobQueue | null, config: AgencyConfig, caller: Caller, connectionId: string): Promise<AgencyClientImportList> {
  await requireConnection(db, caller.organizationId, connectionId);
  if (jobs) await dispatchAgencyImports(db, jobs, config, caller.organizationId, connectionId);
  return listAgencyClientImports(db, caller, connectionId);
}

async function requireConnection(db: DB, organizationId: string, connectionId: string): Promise<void> {
  const row = await db.selectFrom('direct_connections').select('id').where('id', '=', connectionId).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!row) throw notFound(dm.notFound, 'NOT_FOUND');
}

async function listAgencyClientImports(db: DB, caller: Caller, connectionId: string): Promise<AgencyClientImportList> {
  const rows = await sql<{
    id: string;
    client_login: string;
    client_name: string;
    status: AgencyClientImport['status'];
    import_job_id: string | null;
    project_id: string | null;
    project_name: string | null;
    refreshed: boolean;
    units_spent: number | null;
    live_units: number | null;
    stage: string | null;
    error: string | null;
    error_code: string | null;
    created_at: Date;
    finished_at: Date | null;
  }>`
    SELECT DISTINCT ON (a.client_login) a.id, a.client_login, a.client_name, a.status, a.import_job_id, a.project_id,
           p.name AS project_name, a.refreshed, a.units_spent, (j.progress -> 'units' ->> 'spent')::int AS live_units,
           j.progress ->> 'stage' AS stage, a.error, a.error_code, a.created_at, a.finished_at
      FROM agency_client_imports a
      LEFT JOIN projects p ON p.id = a.project_id AND p.deleted_at IS NULL
      LEFT JOIN import_jobs j ON j.id = a.import_job_id
     WHERE a.direct_connection_id = ${connectionId} AND a.organization_id = ${caller.organizationId}
     ORDER BY a.client_login, a.created_at DESC`.execute(db);
  const imports = rows.rows
    .map((row) => ({
      id: row.id,
      client_login: row.client_login,
      client_name: row.client_name,
      status: row.status,
      import_job_id: row.import_job_id,
      stage: row.status === 'importing' ? row.stage : null,
      project: row.project_id && row.project_name !== null ? { id: row.project_id, name: row.project_name } : null,
      refreshed: row.refreshed,
      units_spent: row.units_spent ?? (row.status === 'importing' ? row.live_units : null),
      error: row.error,
      error_code: row.error_code,
      created_at: iso(row.created_at)!,
      finished_at: iso(row.finished_at),
    }))
    .sort((a, b) => a.client_name.localeCompare(b.client_name, 'ru'));
  return { imports, concurrency: AGENCY_IMPORT_CONCURRENCY };
}

// ------------------------------------------------------------------------------------------ the queue

/**
 * Moves the connection's queue on: turns whose job failed (or vanished) fail with its message, then waiting
 * clients get a job while fewer than `AGENCY_IMPORT_CONCURRENCY` are importing. Under a per-connection advisory
 * lock, so two callers at once start each client once.
 */
export async function dispatchAgencyImports(db: DB, jobs: JobQueue, config: AgencyConfig, organizationId: string, connectionId: string): Promise<void> {
  await settleFailedTurns(db, connectionId);
  const waiting = await db.selectFrom('agency_client_imports').select('id').where('direct_connection_id', '=', connectionId).where('status', '=', 'waiting').limit(1).executeTakeFirst();
  if (!waiting) return;
  let token: string;
  try {
    ({ token } = await connectionAccessToken(db, config.yandexOAuth, config.secretsKey, organizationId, connectionId));
  } catch (error) {
    // The connection expired or was revoked: nobody waiting can be read; each says why.
    if (error instanceof HttpError) return failWaitingTurns(db, connectionId, error.message, error.code);
    throw error;
  }
  const sealedToken = sealSecret(token, config.secretsKey, DIRECT_TOKEN_CONTEXT);
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`agency-imports:${connectionId}`}))`.execute(trx);
    const importing = await trx
      .selectFrom('agency_client_imports')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('direct_connection_id', '=', connectionId)
      .where('status', '=', 'importing')
      .executeTakeFirstOrThrow();
    const free = AGENCY_IMPORT_CONCURRENCY - importing.n;
    if (free <= 0) return;
    const next = await trx
      .selectFrom('agency_client_imports')
      .select(['id', 'organization_id', 'user_id', 'client_login'])
      .where('direct_connection_id', '=', connectionId)
      .where('status', '=', 'waiting')
      .orderBy('created_at')
      .orderBy('client_name')
      .limit(free)
      .execute();
    for (const turn of next) {
      const owner = { organizationId: turn.organization_id, userId: turn.user_id };
      const connection = { encrypted_token: sealedToken, client_login: turn.client_login, sandbox: false, direct_connection_id: connectionId };
      const jobId = await enqueueDirectImportJob(trx, jobs, owner, connection, null, true);
      await trx.updateTable('agency_client_imports').set({ status: 'importing', import_job_id: jobId, started_at: new Date() }).where('id', '=', turn.id).execute();
    }
  });
}

/** Turns whose import job failed, or is gone, take its message and the points it spent. */
async function settleFailedTurns(db: DB, connectionId: string): Promise<void> {
  await sql`
    UPDATE agency_client_imports a
       SET status = 'failed', finished_at = now(),
           error = coalesce(j.error, ${dm.clientImportFailed}), error_code = coalesce(j.error_code, 'IMPORT_INTERRUPTED'),
           units_spent = (j.progress -> 'units' ->> 'spent')::int
      FROM agency_client_imports a2
      LEFT JOIN import_jobs j ON j.id = a2.import_job_id
     WHERE a.id = a2.id AND a.direct_connection_id = ${connectionId} AND a.status = 'importing'
       AND (j.id IS NULL OR j.status = 'failed')`.execute(db);
}

async function failWaitingTurns(db: DB, connectionId: string, message: string, code: string): Promise<void> {
  await db
    .updateTable('agency_client_imports')
    .set({ status: 'failed', error: message, error_code: code, finished_at: new Date() })
    .where('direct_connection_id', '=', connectionId)
    .where('status', '=', 'waiting')
    .execute();
}

// ------------------------------------------------------------------------------------------ completion

/**
 * Called in the transaction that completes an import job. For a job of an agency turn, the draft becomes the
 * client's project (created, or the existing one of this connection refreshed) and the turn completes; answers
 * false for any other job, whose preview waits for the person as before.
 */
export async function completeAgencyClientImport(trx: Transaction<Database>, importJobId: string, draftId: string, unitsSpent: number): Promise<{ connectionId: string; organizationId: string } | null> {
  const turn = await trx
    .selectFrom('agency_client_imports')
    .selectAll()
    .where('import_job_id', '=', importJobId)
    .where('status', '=', 'importing')
    .forUpdate()
    .executeTakeFirst();
  if (!turn) return null;
  const owner: Owner = { organizationId: turn.organization_id, userId: turn.user_id };
  const existing = await clientProject(trx, turn.organization_id, turn.direct_connection_id, turn.client_login);
  let projectId: string;
  if (existing) {
    projectId = existing;
    await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
    await applyDraft(trx, owner, projectId, draftId, 'replace');
  } else {
    projectId = await insertClientProject(trx, owner, turn.client_name, await siteOfDraft(trx, draftId));
    await applyDraft(trx, owner, projectId, draftId, 'create');
  }
  await trx
    .updateTable('agency_client_imports')
    .set({ status: 'completed', project_id: projectId, refreshed: Boolean(existing), units_spent: unitsSpent, finished_at: new Date() })
    .where('id', '=', turn.id)
    .execute();
  return { connectionId: turn.direct_connection_id, organizationId: turn.organization_id };
}

/** The live project of the organization that reads this client through this connection, if any. */
async function clientProject(trx: Transaction<Database>, organizationId: string, connectionId: string, clientLogin: string): Promise<string | null> {
  const row = await trx
    .selectFrom('project_connections as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select('p.id')
    .where('c.direct_connection_id', '=', connectionId)
    .where(sql<string>`lower(c.client_login)`, '=', clientLogin.toLowerCase())
    .where('p.organization_id', '=', organizationId)
    .where('p.deleted_at', 'is', null)
    .orderBy('p.created_at')
    .executeTakeFirst();
  return row?.id ?? null;
}

async function insertClientProject(trx: Transaction<Database>, owner: Owner, name: string, siteUrl: string): Promise<string> {
  const row = await trx
    .insertInto('projects')
    .values({
      organization_id: owner.organizationId,
      name,
      name_key: nameKey(name),
      site_url: siteUrl,
      platform: 'yandex_direct',
      region: null,
      target_cpa: null,
      settings: JSON.stringify({}),
      author_id: owner.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The site the client's ads lead to (the first ad link of the first groups of the first campaigns; json paths, no parse of the whole document). */
async function siteOfDraft(trx: Transaction<Database>, draftId: string): Promise<string> {
  const rows = await sql<{ url: string | null }>`
    SELECT coalesce(c.data #>> '{groups,0,ads,0,url}', c.data #>> '{groups,1,ads,0,url}', c.data #>> '{groups,2,ads,0,url}') AS url
      FROM import_draft_campaigns c WHERE c.draft_id = ${draftId}
     ORDER BY c.position LIMIT 5`.execute(trx);
  for (const row of rows.rows) {
    const url = row.url ? normalizeSiteUrl(row.url) : null;
    if (url) return new URL(url).origin;
  }
  return UNKNOWN_SITE;
}

/** Each client's project of this connection (for the agency's list): its id, name and the points its last import spent. */
export async function clientProjects(db: DB, organizationId: string, connectionId: string): Promise<Map<string, { id: string; name: string; units_spent: number | null }>> {
  const rows = await sql<{ login: string; id: string; name: string; units_spent: number | null }>`
    SELECT DISTINCT ON (lower(c.client_login)) lower(c.client_login) AS login, p.id, p.name,
           (SELECT i.units_spent FROM project_imports i WHERE i.project_id = p.id ORDER BY i.created_at DESC LIMIT 1) AS units_spent
      FROM project_connections c JOIN projects p ON p.id = c.project_id
     WHERE c.direct_connection_id = ${connectionId} AND c.client_login IS NOT NULL
       AND p.organization_id = ${organizationId} AND p.deleted_at IS NULL
     ORDER BY lower(c.client_login), p.created_at`.execute(db);
  return new Map(rows.rows.map((row) => [row.login, { id: row.id, name: row.name, units_spent: row.units_spent }]));
}
