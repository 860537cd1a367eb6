import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AgencyClientList, DirectConnection, DirectConnectionList, OAuthCallback } from '../../contract/direct-connections.js';
import { directConnectionMessages as m } from '../../contract/messages.js';
import type { Caller } from '../auth/authenticate.js';
import type { AppConfig, YandexOAuthConfig } from '../config.js';
import type { DB } from '../db/database.js';
import { fullName, iso } from '../lib/api-values.js';
import { HttpError } from '../lib/errors.js';
import { openSecret, sealSecret } from '../lib/secret-box.js';
import { createDirectClient } from './api/client.js';
import { DirectApiError } from './api/errors.js';
import { accountLogin, authorizeUrl, exchangeCode, renewTokens, YandexIdError } from './yandex-id.js';

/** secret-box context of the tokens kept here: a value sealed for another purpose cannot be opened as one. */
const TOKEN_CONTEXT = 'yandex-oauth-token';
const VERIFIER_CONTEXT = 'yandex-oauth-verifier';
/** How long a person has to consent on Yandex ID's page and come back. */
const STATE_TTL_MS = 10 * 60_000;
/** An access token this close to its end is renewed before it is used (an import runs for minutes). */
const RENEW_BEFORE_MS = 60 * 60_000;

const base64url = (bytes: Buffer) => bytes.toString('base64url');
const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

function requireOAuth(config: YandexOAuthConfig | null): YandexOAuthConfig {
  if (!config) throw new HttpError(503, 'OAUTH_NOT_CONFIGURED', m.notConfigured);
  return config;
}

/**
 * Starts a connection: a random state bound to the caller (kept as a hash, used once, 10 minutes) and a
 * PKCE verifier kept sealed on the server; answers the address of Yandex ID's consent page.
 */
export async function startAuthorization(db: DB, config: YandexOAuthConfig | null, secretsKey: Uint8Array, caller: Caller): Promise<string> {
  const oauth = requireOAuth(config);
  const state = base64url(randomBytes(32));
  const verifier = base64url(randomBytes(48));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('direct_oauth_states').where('user_id', '=', caller.userId).where('expires_at', '<', sql<Date>`now()`).execute();
    await trx
      .insertInto('direct_oauth_states')
      .values({
        state_hash: hashOf(state),
        user_id: caller.userId,
        organization_id: caller.organizationId,
        sealed_verifier: sealSecret(verifier, secretsKey, VERIFIER_CONTEXT),
        expires_at: new Date(Date.now() + STATE_TTL_MS),
      })
      .execute();
  });
  return authorizeUrl(oauth, state, challenge);
}

/**
 * Finishes a connection with what Yandex ID put on the redirect address. The state must be one this
 * caller started in this organization and not yet used; it is spent whatever happens next.
 */
export async function finishAuthorization(db: DB, config: YandexOAuthConfig | null, secretsKey: Uint8Array, caller: Caller, callback: OAuthCallback): Promise<DirectConnection> {
  const oauth = requireOAuth(config);
  const spent = await db
    .deleteFrom('direct_oauth_states')
    .where('state_hash', '=', hashOf(callback.state))
    .where('user_id', '=', caller.userId)
    .where('organization_id', '=', caller.organizationId)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('sealed_verifier')
    .executeTakeFirst();
  if (!spent) throw new HttpError(400, 'OAUTH_STATE_INVALID', m.stateInvalid);
  if (callback.error || !callback.code) throw new HttpError(400, 'OAUTH_ACCESS_DENIED', m.accessDenied);

  let tokens;
  let login;
  try {
    tokens = await exchangeCode(oauth, callback.code, openSecret(spent.sealed_verifier, secretsKey, VERIFIER_CONTEXT));
  } catch (error) {
    if (error instanceof YandexIdError) throw new HttpError(error.grantRefused ? 400 : 502, 'OAUTH_EXCHANGE_FAILED', m.exchangeFailed);
    throw error;
  }
  try {
    login = await accountLogin(oauth, tokens.accessToken);
  } catch (error) {
    if (error instanceof YandexIdError) throw new HttpError(502, 'OAUTH_LOGIN_UNKNOWN', m.loginUnknown);
    throw error;
  }
  const sealed = {
    sealed_access_token: sealSecret(tokens.accessToken, secretsKey, TOKEN_CONTEXT),
    sealed_refresh_token: tokens.refreshToken ? sealSecret(tokens.refreshToken, secretsKey, TOKEN_CONTEXT) : null,
    expires_at: new Date(Date.now() + tokens.expiresIn * 1000),
  };
  // The same account connected again (new consent) replaces its tokens.
  const row = await db
    .insertInto('direct_connections')
    .values({ organization_id: caller.organizationId, connected_by: caller.userId, login, ...sealed })
    .onConflict((conflict) => conflict.columns(['organization_id', 'login']).doUpdateSet({ ...sealed, connected_by: caller.userId, updated_at: sql<Date>`now()` }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const [connection] = await readConnections(db, caller.organizationId, row.id);
  if (!connection) throw new Error('the connection just written is gone');
  return connection;
}

export async function listConnections(db: DB, config: YandexOAuthConfig | null, caller: Caller): Promise<DirectConnectionList> {
  return { oauth_available: config !== null, connections: await readConnections(db, caller.organizationId) };
}

/** The organization's connections as the API shows them (no token ever): all of them, or the one asked for. */
async function readConnections(db: DB, organizationId: string, id?: string): Promise<DirectConnection[]> {
  let query = db
    .selectFrom('direct_connections as c')
    .leftJoin('users as u', 'u.id', 'c.connected_by')
    .select(['c.id', 'c.login', 'c.expires_at', 'c.created_at', 'u.first_name', 'u.last_name'])
    .where('c.organization_id', '=', organizationId);
  if (id !== undefined) query = query.where('c.id', '=', id);
  const rows = await query.orderBy('c.login').execute();
  return rows.map((row) => ({
    id: row.id,
    login: row.login,
    expires_at: iso(row.expires_at),
    connected_at: iso(row.created_at),
    connected_by: row.first_name === null ? null : fullName(row.first_name, row.last_name),
  }));
}

/** Forgets a connection and its tokens: who connected it, or the organization's owner or admin. */
export async function disconnect(db: DB, caller: Caller, id: string): Promise<void> {
  const row = await db.selectFrom('direct_connections').select(['connected_by']).where('id', '=', id).where('organization_id', '=', caller.organizationId).executeTakeFirst();
  if (!row) throw new HttpError(404, 'NOT_FOUND', m.notFound);
  const manager = caller.organizationRole === 'owner' || caller.organizationRole === 'admin';
  if (row.connected_by !== caller.userId && !manager) throw new HttpError(403, 'FORBIDDEN', m.forbidden);
  await db.deleteFrom('direct_connections').where('id', '=', id).execute();
}

/**
 * A usable access token of a connection of the organization: renewed first (under the row's lock, so two
 * imports renew once) when it ends within the hour. A refresh token Yandex no longer accepts means the
 * person must connect again: 409 with the login in the message.
 */
export async function connectionAccessToken(db: DB, config: YandexOAuthConfig | null, secretsKey: Uint8Array, organizationId: string, id: string): Promise<{ token: string; login: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('direct_connections').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).forUpdate().executeTakeFirst();
    if (!row) throw new HttpError(404, 'NOT_FOUND', m.notFound);
    const expired = () => new HttpError(409, 'DIRECT_CONNECTION_EXPIRED', m.expired.replace('{login}', row.login));
    if (new Date(row.expires_at).getTime() - Date.now() > RENEW_BEFORE_MS) return { token: openSecret(row.sealed_access_token, secretsKey, TOKEN_CONTEXT), login: row.login };
    if (!row.sealed_refresh_token || !config) throw expired();
    let tokens;
    try {
      tokens = await renewTokens(config, openSecret(row.sealed_refresh_token, secretsKey, TOKEN_CONTEXT));
    } catch (error) {
      if (error instanceof YandexIdError && error.grantRefused) throw expired();
      if (error instanceof YandexIdError) throw new HttpError(502, 'OAUTH_UNAVAILABLE', m.exchangeFailed);
      throw error;
    }
    await trx
      .updateTable('direct_connections')
      .set({
        sealed_access_token: sealSecret(tokens.accessToken, secretsKey, TOKEN_CONTEXT),
        // Yandex may answer without a new refresh token: the old one then stays valid.
        ...(tokens.refreshToken ? { sealed_refresh_token: sealSecret(tokens.refreshToken, secretsKey, TOKEN_CONTEXT) } : {}),
        expires_at: new Date(Date.now() + tokens.expiresIn * 1000),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .execute();
    return { token: tokens.accessToken, login: row.login };
  });
}

/** What `agencyclients.get` answers per client (official page «AgencyClients: get»). */
interface ApiAgencyClient {
  Login: string;
  ClientInfo?: string;
}

/**
 * The clients of an agency account (agencyclients.get, archived ones left out), each read later with its
 * `Client-Login`; an advertiser's own account answers that the method is for agencies: not an agency.
 */
export async function agencyClients(
  db: DB,
  config: Pick<AppConfig, 'yandexOAuth' | 'secretsKey' | 'yandexDirectApiUrl'>,
  organizationId: string,
  id: string,
): Promise<AgencyClientList> {
  const { token } = await connectionAccessToken(db, config.yandexOAuth, config.secretsKey, organizationId, id);
  const client = createDirectClient({ token, baseUrl: config.yandexDirectApiUrl, maxRetries: 1 });
  try {
    const clients = await client.get<ApiAgencyClient>('agencyclients', { SelectionCriteria: { Archived: 'NO' }, FieldNames: ['Login', 'ClientInfo'] });
    return {
      agency: true,
      clients: clients.map((item) => ({ login: item.Login, name: item.ClientInfo?.trim() || item.Login })).sort((a, b) => a.name.localeCompare(b.name, 'ru')),
    };
  } catch (error) {
    // 54 «Нет прав» / a refused request: the method is for agencies only.
    if (error instanceof DirectApiError && (error.code === 54 || error.category === 'request')) return { agency: false, clients: [] };
    if (error instanceof DirectApiError) throw new HttpError(502, 'DIRECT_API_ERROR', error.message);
    throw error;
  }
}
