/**
 * ONE dedicated PostgreSQL connection that LISTENs on some channels, for in-process fan-out of
 * NOTIFYs sent by any process (pooled connections cannot LISTEN: a notification goes to the session
 * that listens, and a pool hands sessions around).
 *
 * When the connection drops it is re-opened with a growing delay (0.5 s doubling to 4 s: after a
 * database outage the listeners are back within seconds of its return).
 * `onDisconnected` runs as soon as the drop is seen and `onConnected` once LISTEN is in effect again:
 * notifications sent in between are lost, so a consumer that keeps state derived from them must
 * distrust it between the two (and re-read it after `onConnected`).
 */
import pg from 'pg';

export interface PgListenerOptions {
  connectionString: string;
  channels: readonly string[];
  /** Shown in `pg_stat_activity.application_name`. */
  applicationName: string;
  onNotification: (channel: string, payload: string) => void;
  /** LISTEN is in effect (first connection and every reconnection). */
  onConnected?: () => void;
  /** The connection was lost; notifications are missed until `onConnected`. */
  onDisconnected?: () => void;
  log?: { warn: (obj: object, msg: string) => void };
}

export interface PgListener {
  /** Connects (once; later calls while connected or connecting do nothing). */
  start(): Promise<void>;
  /** True while LISTEN is in effect. */
  readonly connected: boolean;
  /**
   * Resolves true once every notification committed before this call has been handed to
   * `onNotification`; false when not connected. One round trip on the listening connection:
   * PostgreSQL sends a listening session its pending notifications before answering its next query,
   * and notifications of a transaction are queued at its commit.
   */
  sync(): Promise<boolean>;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 4_000;

export function createPgListener(options: PgListenerOptions): PgListener {
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryDelayMs = FIRST_RETRY_MS;
  let closed = false;

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryDelayMs);
    retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_MS);
  };

  const lost = (which: pg.Client, error?: unknown) => {
    if (client !== which) return;
    client = null;
    if (error) options.log?.warn({ err: error }, `${options.applicationName}: listening connection lost`);
    options.onDisconnected?.();
    void which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const sync = sharedRoundTrips(async (): Promise<boolean> => {
    const current = client;
    try {
      if (!current) return false;
      await current.query('SELECT 1');
      return client === current;
    } catch {
      return false;
    }
  }, () => client !== null);

  const connect = (): Promise<void> => {
    if (closed || client) return Promise.resolve();
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: options.connectionString, application_name: options.applicationName });
      next.on('notification', (message) => options.onNotification(message.channel, message.payload ?? ''));
      next.on('error', (error) => lost(next, error));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        for (const channel of options.channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        retryDelayMs = FIRST_RETRY_MS;
        options.onConnected?.();
      } catch (error) {
        options.log?.warn({ err: error }, `${options.applicationName}: could not listen`);
        void next.end().catch(() => undefined);
        scheduleReconnect();
      }
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  return {
    start: connect,
    get connected() {
      return client !== null;
    },
    sync,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await connecting?.catch(() => undefined);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * `sync` over `roundTrip`: concurrent calls share round trips (a pg client runs one query at a time): a
 * caller joins the query queued behind the running one, never the running one, which may have been sent
 * before its commit. False at once while not `connected`.
 */
function sharedRoundTrips(roundTrip: () => Promise<boolean>, connected: () => boolean): () => Promise<boolean> {
  let running: Promise<boolean> | null = null;
  let queued: Promise<boolean> | null = null;
  const startRoundTrip = (): Promise<boolean> => {
    const trip = roundTrip();
    running = trip;
    void trip.finally(() => {
      if (running === trip) running = null;
    });
    return trip;
  };
  return () => {
    if (!connected()) return Promise.resolve(false);
    if (queued) return queued;
    if (!running) return startRoundTrip();
    queued = running.then(() => {
      queued = null;
      return startRoundTrip();
    });
    return queued;
  };
}
