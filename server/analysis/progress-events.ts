/**
 * Live progress for the SSE streams of this process: ONE dedicated PostgreSQL connection LISTENs on
 * `analysis_progress` (workers in any process NOTIFY there with the analysis id) and fans each
 * notification out to the streams watching that analysis. Thousands of open streams cost one
 * connection, not one each.
 *
 * When the connection drops it is re-opened with a growing delay, and every stream is told to re-read
 * its state (a notification may have been missed meanwhile). Without a connection string (an app built
 * without one) the streams are poked on a timer instead: slower, never wrong.
 */
import pg from 'pg';
import { PROGRESS_CHANNEL } from './lifecycle.js';

export type ProgressListener = () => void;

export interface AnalysisEvents {
  /** Calls `listener` when the analysis may have changed; returns the unsubscribe function. */
  subscribe(analysisId: string, listener: ProgressListener): () => void;
  /** Streams currently subscribed (for tests and metrics). */
  subscriberCount(): number;
  close(): Promise<void>;
}

export function createAnalysisEvents(options: { connectionString: string | null; pollIntervalMs?: number; log?: { warn: (obj: object, msg: string) => void } }): AnalysisEvents {
  const listeners = new Map<string, Set<ProgressListener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let retryDelayMs = 500;
  let closed = false;

  const count = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  const notify = (analysisId: string) => listeners.get(analysisId)?.forEach((listener) => listener());
  const notifyAll = () => listeners.forEach((set) => set.forEach((listener) => listener()));

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryDelayMs);
    retryDelayMs = Math.min(retryDelayMs * 2, 15_000);
  };

  const connect = (): Promise<void> => {
    if (closed || !options.connectionString) return Promise.resolve();
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: options.connectionString!, application_name: 'reklama-lab-progress' });
      next.on('notification', (message) => message.payload && notify(message.payload));
      next.on('error', (error) => {
        options.log?.warn({ err: error }, 'progress listener connection lost');
        if (client === next) client = null;
        void next.end().catch(() => undefined);
        scheduleReconnect();
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${PROGRESS_CHANNEL}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        retryDelayMs = 500;
        // Anything that changed before LISTEN took effect would otherwise go unseen.
        notifyAll();
      } catch (error) {
        options.log?.warn({ err: error }, 'progress listener could not connect');
        void next.end().catch(() => undefined);
        scheduleReconnect();
      }
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const startPolling = () => {
    if (pollTimer || options.connectionString) return;
    pollTimer = setInterval(notifyAll, options.pollIntervalMs ?? 2_000);
  };

  return {
    subscribe(analysisId, listener) {
      let set = listeners.get(analysisId);
      if (!set) listeners.set(analysisId, (set = new Set()));
      set.add(listener);
      if (options.connectionString) {
        if (!client) void connect();
      } else startPolling();
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(analysisId);
        if (listeners.size === 0 && pollTimer) {
          clearInterval(pollTimer);
          pollTimer = null;
        }
      };
    },
    subscriberCount: count,
    async close() {
      closed = true;
      listeners.clear();
      if (retryTimer) clearTimeout(retryTimer);
      if (pollTimer) clearInterval(pollTimer);
      await connecting?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
