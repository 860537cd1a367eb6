/**
 * Live progress for the SSE streams of this process: ONE dedicated PostgreSQL connection LISTENs on
 * `analysis_progress` (workers in any process NOTIFY there with the analysis id) and fans each
 * notification out to the streams watching that analysis. Thousands of open streams cost one
 * connection, not one each.
 *
 * The connection is the shared `server/lib/pg-listener.ts`: when it drops it is re-opened with a growing
 * delay, and every stream is told to re-read its state (a notification may have been missed meanwhile).
 * Without a connection string (an app built without one) the streams are poked on a timer instead:
 * slower, never wrong.
 */
import { createPgListener } from '../lib/pg-listener.js';
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
  let pollTimer: NodeJS.Timeout | null = null;

  const count = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  const notify = (analysisId: string) => listeners.get(analysisId)?.forEach((listener) => listener());
  const notifyAll = () => listeners.forEach((set) => set.forEach((listener) => listener()));

  const listener = options.connectionString
    ? createPgListener({
        connectionString: options.connectionString,
        channels: [PROGRESS_CHANNEL],
        applicationName: 'reklama-lab-progress',
        onNotification: (_channel, analysisId) => analysisId && notify(analysisId),
        // Anything that changed before LISTEN took effect (or while the connection was down) would otherwise go unseen.
        onConnected: notifyAll,
        log: options.log,
      })
    : null;

  const startPolling = () => {
    if (pollTimer) return;
    pollTimer = setInterval(notifyAll, options.pollIntervalMs ?? 2_000);
  };

  return {
    subscribe(analysisId, subscriber) {
      let set = listeners.get(analysisId);
      if (!set) listeners.set(analysisId, (set = new Set()));
      set.add(subscriber);
      if (listener) void listener.start();
      else startPolling();
      return () => {
        set.delete(subscriber);
        if (set.size === 0) listeners.delete(analysisId);
        if (listeners.size === 0 && pollTimer) {
          clearInterval(pollTimer);
          pollTimer = null;
        }
      };
    },
    subscriberCount: count,
    async close() {
      listeners.clear();
      if (pollTimer) clearInterval(pollTimer);
      await listener?.close();
    },
  };
}
