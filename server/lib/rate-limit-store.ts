import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, FastifyRateLimitOptions, RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DB } from '../db/database.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Expired windows are swept now and then, by whichever request happens to draw it. */
const SWEEP_PROBABILITY = 0.01;

/** A window's count and the milliseconds until it ends. */
export interface RateLimitState {
  current: number;
  ttl: number;
}

/**
 * A named counter in the same storage as the plugin's, for limits the plugin cannot express (e.g. failed
 * logins per account, counted only when a login fails, whatever the address).
 */
export interface RateLimitCounter {
  /** Counts one hit: a new window of `timeWindowMs` starts when none is open. */
  hit: (key: string, timeWindowMs: number) => Promise<RateLimitState>;
  /** The open window's count without counting (0 when none is open). */
  peek: (key: string) => Promise<RateLimitState>;
}

/** Where the counters of @fastify/rate-limit live, as plugin options, and how to let go of it. */
export interface RateLimitStorage {
  kind: 'postgres' | 'redis';
  options: Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace'>;
  /** A counter of its own under `scope`, in the same PostgreSQL table or Redis. */
  counter: (scope: string) => RateLimitCounter;
  close: () => Promise<void>;
}

type CallbackStore = Pick<FastifyRateLimitStore, 'incr'> & { read: (key: string, callback: Callback) => void };

function counterOver(store: CallbackStore): RateLimitCounter {
  const settle = (run: (callback: Callback) => void) =>
    new Promise<RateLimitState>((resolve, reject) => run((error, result) => (error ? reject(error) : resolve({ current: Number(result!.current), ttl: Number(result!.ttl) }))));
  return {
    hit: (key, timeWindowMs) => settle((callback) => store.incr(key, callback as never, timeWindowMs, Number.MAX_SAFE_INTEGER)),
    peek: (key) => settle((callback) => store.read(key, callback)),
  };
}

/** The plugin's own Redis store (its Lua INCR + PEXPIRE), reused for our counters. */
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => CallbackStore;
const PluginRedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore') as RedisStoreCtor;

/**
 * The counters are shared by every server process: in PostgreSQL by default (nothing more to run), in
 * Redis when `REDIS_URL` is set (the plugin's own Redis store: one Lua INCR + PEXPIRE per hit).
 */
export function createRateLimitStorage(db: DB, redis?: { url: string; nameSpace: string }): RateLimitStorage {
  if (!redis) {
    const Store = createPostgresRateLimitStore(db);
    const ScopedStore = Store as unknown as new (options: FastifyRateLimitOptions, scope: string) => CallbackStore;
    return {
      kind: 'postgres',
      options: { store: Store },
      counter: (scope) => counterOver(new ScopedStore({} as FastifyRateLimitOptions, `${scope}|`)),
      close: async () => undefined,
    };
  }
  // Few retries and a short connect timeout: a login must fail fast, not hang, when Redis is down.
  const client = new Redis(redis.url, { maxRetriesPerRequest: 2, connectTimeout: 5_000 });
  return {
    kind: 'redis',
    options: { redis: client, nameSpace: redis.nameSpace },
    counter: (scope) => counterOver(new PluginRedisStore(false, false, client, `${redis.nameSpace}${scope}|`)),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/**
 * A store for @fastify/rate-limit kept in the PostgreSQL table `rate_limits` (key, hits, reset_at), so
 * every server process behind a load balancer counts against the same limit. Each hit is one atomic
 * upsert: a new window starts when the old one has passed, otherwise the counter goes up by one; the
 * statement returns the count and the time left, with no read-then-write race between processes.
 */
export function createPostgresRateLimitStore(db: DB): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      /** Route prefix of the keys, so each rate-limited route counts on its own. */
      private readonly scope = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.hit(`${this.scope}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    /** A look at the counter without counting a hit (the plugin's `{ increment: false }`). */
    read(key: string, callback: Callback): void {
      db.selectFrom('rate_limits')
        .select(['hits', sql<number>`greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::bigint`.as('ttl')])
        .where('key', '=', `${this.scope}${key}`)
        .where('reset_at', '>', sql<Date>`now()`)
        .executeTakeFirst()
        .then(
          (row) => callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
          (error: Error) => callback(error),
        );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // At run time the plugin passes the merged route limits with the route under `routeInfo`.
      const info = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
      return new PostgresRateLimitStore(routeOptions as unknown as FastifyRateLimitOptions, `${method}:${info.url ?? ''}|`);
    }

    private async hit(key: string, timeWindowMs: number): Promise<{ current: number; ttl: number }> {
      const window = sql<Date>`now() + make_interval(secs => ${timeWindowMs / 1000})`;
      const row = await db
        .insertInto('rate_limits')
        .values({ key, hits: 1, reset_at: window })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end`,
            reset_at: sql<Date>`case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end`,
          }),
        )
        .returning(['hits', sql<number>`greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::bigint`.as('ttl')])
        .executeTakeFirstOrThrow();
      if (Math.random() < SWEEP_PROBABILITY) {
        // Housekeeping only: a failure here must not fail the request.
        void db.deleteFrom('rate_limits').where('reset_at', '<', sql<Date>`now() - interval '1 hour'`).execute().catch(() => undefined);
      }
      return { current: row.hits, ttl: row.ttl };
    }
  }

  return PostgresRateLimitStore;
}
