/**
 * Whether the database answers, for one pg pool: the one place the API, the job workers and the
 * embedded PostgreSQL's supervisor ask, so that losing PostgreSQL is an outage (503, workers waiting)
 * and never a crash or a server that answers 500 until it is restarted.
 *
 * The database is marked down when a sign of a lost connection is seen (a pooled client's socket
 * dies, a query fails with a connection error, the embedded PostgreSQL process exits); from then on a
 * probe (`SELECT 1` through the same pool, so it also proves the pool can connect again) runs right
 * away and then every `PROBE_INTERVAL_MS` until it succeeds, and the database is up again.
 */
import type pg from 'pg';

/** How often a down database is probed; also the `Retry-After` the API answers with while it is down. */
export const PROBE_INTERVAL_MS = 500;
export const RETRY_AFTER_SECONDS = 5;

/**
 * Errors that can only mean the connection to PostgreSQL is gone or cannot be made: SQLSTATE class 08
 * (connection exception), 57P01–57P03 (terminated by an administrator or a crash, not accepting
 * connections yet: starting up or recovering), and pg's own messages for a socket that ended.
 */
const PG_LOSS_CODES = /^(08...|57P0[1-3])$/;
const PG_LOSS_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Query read timeout/i;
/** Socket errors: the database's when they come from the pool, but SMTP or an outbound call can raise them too. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/** What kind of lost connection an error says, if any: `certain` for PostgreSQL's own signs, `socket` for a bare socket error. */
export function connectionLossOf(error: unknown): 'certain' | 'socket' | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && PG_LOSS_CODES.test(code)) return 'certain';
  if (typeof message === 'string' && PG_LOSS_MESSAGES.test(message)) return 'certain';
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return 'socket';
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? connectionLossOf(cause) : null;
}

export interface DatabaseAvailability {
  /** False from the first sign of a lost connection until a probe succeeds. */
  readonly up: boolean;
  /**
   * Looks at an error a query met. A sign of a lost connection marks the database down; a bare
   * socket error (which SMTP or an outbound call could raise too) is first checked with a probe.
   * Resolves true when the error is explained by the database being unavailable.
   */
  explain(error: unknown): Promise<boolean>;
  /** Marks the database down (e.g. the embedded PostgreSQL exited) and starts probing. */
  markDown(): void;
  /** Resolves when the database is up (at once when it is), or when `signal` aborts. */
  whenUp(signal?: AbortSignal): Promise<void>;
  /** Called with each change (false: lost, true: back). Returns the unsubscribe function. */
  onChange(listener: (up: boolean) => void): () => void;
  /**
   * Stands the watch down for good, when its pool's owner closes: no more outages reported (the
   * database stopping with the server is no outage), no probes, and whoever waits in `whenUp` goes on.
   */
  close(): void;
}

export function watchAvailability(pool: pg.Pool): DatabaseAvailability {
  let up = true;
  let closed = false;
  let probing: Promise<boolean> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const listeners = new Set<(up: boolean) => void>();
  /** `whenUp` callers still waiting: `close` lets them go. */
  const waiting = new Set<() => void>();
  /** Nothing more to watch: the watch was closed or the pool is ending. */
  const standingDown = () => closed || pool.ending;

  const set = (next: boolean) => {
    if (up === next || closed) return;
    up = next;
    for (const listener of [...listeners]) listener(next);
  };
  const onChange = (listener: (up: boolean) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  /** One `SELECT 1` at a time; true when it answered. */
  const probe = (): Promise<boolean> =>
    (probing ??= pool
      .query('SELECT 1')
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        probing = null;
      }));

  const probeUntilUp = () => {
    if (timer || standingDown()) return;
    const attempt = async () => {
      timer = null;
      if (standingDown()) return;
      if (await probe()) set(true);
      else if (!up && !standingDown()) timer = setTimeout(attempt, PROBE_INTERVAL_MS).unref();
    };
    // A placeholder until the first probe answers, so a second sign does not start a second loop.
    timer = setTimeout(attempt, 0).unref();
  };

  const markDown = () => {
    if (standingDown()) return;
    set(false);
    probeUntilUp();
  };

  noticeLostConnections(pool, markDown);

  return {
    get up() {
      return up;
    },
    async explain(error) {
      const loss = connectionLossOf(error);
      if (!loss) return false;
      // After close the error is still the database's, but nobody is to wait for it to come back.
      if (closed) return true;
      if (loss === 'socket' && up && (await probe())) return false;
      markDown();
      return true;
    },
    markDown,
    whenUp(signal) {
      if (up || closed || signal?.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          unsubscribe();
          waiting.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const unsubscribe = onChange((now) => now && done());
        waiting.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    onChange,
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      listeners.clear();
      for (const done of [...waiting]) done();
    },
  };
}

/** Every sign of a lost connection the pool and its clients give, to `markDown`. */
function noticeLostConnections(pool: pg.Pool, markDown: () => void): void {
// An idle pooled client whose server went away (the pool drops it; this is the earliest sign).
pool.on('error', (error) => {
  if (connectionLossOf(error)) markDown();
});
// A client checked out (a transaction, a COPY) emits its socket's death as an 'error' event that
// nobody else listens to while it is out of the pool: without this listener Node crashes the
// process ("Unhandled 'error' event … Connection terminated unexpectedly"). Its queries fail on
// their own, and the pool discards it when it is released.
pool.on('connect', (client) => {
  client.on('error', (error) => {
    if (connectionLossOf(error)) markDown();
  });
});
}

/**
 * A promise a library dropped must not take the server down because the database went away: pg-boss 10
 * records a job's end without awaiting it, so with the database down its rejection is unhandled (and
 * Node ends the process). Such rejections are logged; any other still ends the process, as by default.
 */
export function surviveDroppedConnectionErrors(log: { warn: (message: string) => void }): void {
  process.on('unhandledRejection', (reason) => {
    if (!connectionLossOf(reason)) throw reason;
    log.warn(`database: a dropped operation failed while the connection was lost: ${(reason as Error)?.message ?? String(reason)}`);
  });
}
