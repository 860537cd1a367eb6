/**
 * Verified sessions of this process, so an authenticated read costs no extra database round trip.
 *
 * An entry is keyed by the exact access token (so a hit needs no signature check either: only the very
 * token that was verified matches) and holds the caller its session resolved to. It lives until the
 * token expires or `ttlSeconds` pass, whichever is first; at most `maxEntries` are kept (least recently
 * used go first).
 *
 * Revocation stays immediate. The database NOTIFYs `sessions_changed` on every change that can end or
 * alter a session (triggers of migration 0095: user row, membership, refresh-token family), and one
 * dedicated connection per process LISTENs there and drops the entries concerned:
 * - in this process, every request that may write (not GET/HEAD/OPTIONS) waits, before its answer
 *   leaves, until the notifications its own commits sent have arrived (`sync`, one round trip on the
 *   listening connection): a logout, a member's removal, a password change… is in force for the very
 *   next request;
 * - other processes drop their entries when the notification reaches them (one hop after the commit).
 * While the listening connection is down nothing is read from or written to the cache (notifications
 * are missed meanwhile), and it is emptied when the connection is lost and again when it is back. The
 * TTL is the safety net for the one gap left: a connection that died silently before its loss is seen.
 */
import { LRUCache } from 'lru-cache';
import type { DB } from '../db/database.js';
import { sql } from 'kysely';
import { createPgListener, type PgListener } from '../lib/pg-listener.js';

export const SESSIONS_CHANNEL = 'sessions_changed';

/** Who a cached token belongs to, as far as invalidation is concerned. */
export interface SessionOwner {
  userId: string;
  organizationId: string;
  sessionId?: string;
}

export interface SessionCache<Caller extends SessionOwner> {
  /** The caller of this token when cached and still fresh. */
  get(token: string): Caller | undefined;
  /** A counter that moves on every invalidation; take it before reading the database for `remember`. */
  generation(): number;
  /**
   * Caches a caller read from the database. Refused (silently) when an invalidation arrived since
   * `generation` was taken, which the read may predate, or while the listener is down.
   */
  remember(token: string, caller: Caller, tokenExpiresAtMs: number, generation: number): void;
  /** Resolves once every session change committed before the call has been applied here. */
  sync(): Promise<void>;
  /** Opens the listening connection; resolves when it listens or has failed (then it retries on its own). */
  start(): Promise<void>;
  /** Whether the cache is in use (listening); false means every request reads the database. */
  readonly active: boolean;
  readonly size: number;
  close(): Promise<void>;
}

export interface SessionCacheOptions {
  /** The database's connection string; without one there is nothing to listen with and nothing is cached. */
  connectionString: string | null;
  ttlSeconds: number;
  maxEntries: number;
  log?: { warn: (obj: object, msg: string) => void };
  /** Reported after each invalidation has been applied (tests, metrics). */
  onInvalidation?: (payload: string) => void;
}

interface Entry<Caller> {
  caller: Caller;
  expiresAtMs: number;
}

export function createSessionCache<Caller extends SessionOwner>(options: SessionCacheOptions): SessionCache<Caller> {
  const enabled = options.connectionString !== null && options.ttlSeconds > 0 && options.maxEntries > 0;
  // The tokens of each user, so an invalidation finds its entries without scanning the cache.
  const tokensOfUser = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Entry<Caller>>({
    max: Math.max(1, options.maxEntries),
    dispose: (entry, token) => {
      const tokens = tokensOfUser.get(entry.caller.userId);
      tokens?.delete(token);
      if (tokens?.size === 0) tokensOfUser.delete(entry.caller.userId);
    },
  });
  let generation = 0;

  const forgetAll = () => {
    generation++;
    entries.clear();
  };

  const invalidate = (payload: string) => {
    generation++;
    const [kind, userId, detail] = payload.split(':');
    const tokens = userId ? tokensOfUser.get(userId) : undefined;
    if (kind !== 'user' && kind !== 'member' && kind !== 'session') {
      // Not a payload this version writes: drop everything rather than guess.
      forgetAll();
    } else if (tokens) {
      for (const token of [...tokens]) {
        const caller = entries.peek(token)?.caller;
        const concerned = kind === 'user' || (kind === 'member' ? caller?.organizationId === detail : caller?.sessionId === detail);
        if (concerned) entries.delete(token);
      }
    }
    options.onInvalidation?.(payload);
  };

  const listener: PgListener | null = enabled
    ? createPgListener({
        connectionString: options.connectionString!,
        channels: [SESSIONS_CHANNEL],
        applicationName: 'reklama-lab-sessions',
        onNotification: (_channel, payload) => invalidate(payload),
        onConnected: forgetAll,
        onDisconnected: forgetAll,
        log: options.log,
      })
    : null;

  return {
    get(token) {
      if (!listener?.connected) return undefined;
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.expiresAtMs <= Date.now()) {
        entries.delete(token);
        return undefined;
      }
      return entry.caller;
    },
    start: async () => listener?.start(),
    generation: () => generation,
    remember(token, caller, tokenExpiresAtMs, seenGeneration) {
      if (!listener?.connected || seenGeneration !== generation) return;
      const expiresAtMs = Math.min(tokenExpiresAtMs, Date.now() + options.ttlSeconds * 1000);
      entries.set(token, { caller, expiresAtMs });
      let tokens = tokensOfUser.get(caller.userId);
      if (!tokens) tokensOfUser.set(caller.userId, (tokens = new Set()));
      tokens.add(token);
    },
    async sync() {
      await listener?.sync();
    },
    get active() {
      return listener?.connected ?? false;
    },
    get size() {
      return entries.size;
    },
    async close() {
      await listener?.close();
      forgetAll();
    },
  };
}

/**
 * Tells every process to forget the cached sessions of this user (all of them, in every organization),
 * at the commit of `db`'s transaction. Changes of the user's row, memberships and refresh tokens already
 * do this by themselves (database triggers); call it when access is taken away by something else.
 */
export async function invalidateUserSessions(db: DB, userId: string): Promise<void> {
  await sql`SELECT pg_notify(${SESSIONS_CHANNEL}, ${`user:${userId}`})`.execute(db);
}
