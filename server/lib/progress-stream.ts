/**
 * The one live channel for the progress of a run (an audit, a page check, an AI plan, a Direct import):
 * Server-Sent Events at `<the run's GET path>/events`, woken by PostgreSQL LISTEN/NOTIFY.
 *
 * Whoever changes a run sends `NOTIFY <its kind's channel>, '<run id>'` (server/runs/paid-run.ts for
 * the paid runs, server/projects/import-jobs.ts for the import); inside a transaction PostgreSQL
 * delivers it at commit. The hub holds ONE dedicated connection (server/lib/pg-listener.ts) that LISTENs
 * on every kind's channel and fans each notification out to the streams watching that run: thousands
 * of open streams cost one connection, not one each. When that connection drops and comes back, every
 * stream re-reads its run (a notification may have been missed meanwhile). Without a connection string
 * (an app built without one) the streams are poked on a timer instead: slower, never wrong.
 *
 * A stream sends `progress` with the run's state (exactly what the run's GET answers) on connect and
 * whenever it changed, `done` with the same once it is finished, then ends; a comment line every 15 s
 * keeps proxies from closing it. It ends too on a client disconnect and when the server closes.
 */
import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPgListener } from './pg-listener.js';

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const SSE_HEARTBEAT_MS = 15_000;

/**
 * The streams open in this process: `open` counts them, `'closed'` is emitted with the run's id when one
 * ends (after `done`, a client disconnect or a server shutdown) with its subscription and timers released.
 */
export const progressStreams = Object.assign(new EventEmitter(), { open: 0 });

type Wake = () => void;

export interface ProgressHub {
  /** Calls `wake` when the run `id` announced on `channel` may have changed; returns the unsubscribe function. */
  subscribe(channel: string, id: string, wake: Wake): () => void;
  /** Registers an open stream's `end`, for `endStreams`; returns the function that forgets it. */
  track(end: () => void): () => void;
  /** Ends every open stream of this hub (an open stream would hold the server's `close()` forever). */
  endStreams(): void;
  close(): Promise<void>;
}

export function createProgressHub(options: {
  connectionString: string | null;
  /** Every NOTIFY channel a stream may follow (LISTEN is issued once, for all of them). */
  channels: readonly string[];
  pollIntervalMs?: number;
  log?: { warn: (obj: object, msg: string) => void };
}): ProgressHub {
  const watchers = new Map<string, Set<Wake>>();
  const openStreams = new Set<() => void>();
  let pollTimer: NodeJS.Timeout | null = null;

  const keyOf = (channel: string, id: string) => `${channel}\n${id}`;
  const wakeAll = () => watchers.forEach((set) => set.forEach((wake) => wake()));
  const listener = options.connectionString
    ? createPgListener({
        connectionString: options.connectionString,
        channels: options.channels,
        applicationName: 'reklama-lab-progress',
        onNotification: (channel, id) => id && watchers.get(keyOf(channel, id))?.forEach((wake) => wake()),
        // Anything that changed before LISTEN took effect (or while the connection was down) would otherwise go unseen.
        onConnected: wakeAll,
        log: options.log,
      })
    : null;

  return {
    track(end) {
      openStreams.add(end);
      return () => openStreams.delete(end);
    },
    subscribe(channel, id, wake) {
      const key = keyOf(channel, id);
      let set = watchers.get(key);
      if (!set) watchers.set(key, (set = new Set()));
      set.add(wake);
      if (listener) void listener.start();
      else pollTimer ??= setInterval(wakeAll, options.pollIntervalMs ?? 2_000);
      return () => {
        set.delete(wake);
        if (set.size === 0) watchers.delete(key);
        if (watchers.size === 0 && pollTimer) {
          clearInterval(pollTimer);
          pollTimer = null;
        }
      };
    },
    endStreams() {
      for (const end of [...openStreams]) end();
    },
    async close() {
      watchers.clear();
      if (pollTimer) clearInterval(pollTimer);
      await listener?.close();
    },
  };
}

/** One run to stream: where it is announced, how to read it for the caller, when it is over. */
export interface ProgressSource<State> {
  channel: string;
  id: string;
  /** The run's state as the caller may see it (the body of its GET); null when it is gone (the stream ends). */
  read: () => Promise<State | null>;
  finished: (state: State) => boolean;
}

/** Writes the head of an event stream on the raw response, keeping the headers set so far. */
function openEventStream(reply: FastifyReply): void {
  reply.hijack();
  reply.raw.writeHead(200, {
    // The headers set so far (the security headers of server/app.ts): a hijacked answer writes its own.
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  reply.raw.write('retry: 3000\n\n');
}

/**
 * Streams one run: `progress` whenever its state changes (woken by its channel, read again), `done` when
 * it is finished, a heartbeat comment line. The caller has already answered 404 for a run it may not see.
 */
export async function streamProgress<State>(hub: ProgressHub, request: FastifyRequest, reply: FastifyReply, source: ProgressSource<State>): Promise<void> {
  openEventStream(reply);
  const raw = reply.raw;
  let ended = false;
  let lastSent = '';
  let reading = false;
  let readAgain = false;
  const write = (event: 'progress' | 'done', data: string) => raw.write(`event: ${event}\ndata: ${data}\n\n`);
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    clearInterval(ping);
    untrack();
    raw.end();
    progressStreams.open--;
    progressStreams.emit('closed', source.id);
  };
  // One read at a time; notifications during a read ask for one more read, not one each.
  const refresh = async () => {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        const state = await source.read().catch(() => null);
        if (ended) return;
        if (!state) return end();
        const data = JSON.stringify(state);
        if (data !== lastSent) {
          lastSent = data;
          write('progress', data);
        }
        if (source.finished(state)) {
          write('done', data);
          return end();
        }
      } while (readAgain);
    } finally {
      reading = false;
    }
  };

  // A failed read or write ends this stream; it must never become an unhandled rejection.
  const refreshOrEnd = () =>
    refresh().catch((error: unknown) => {
      request.log.warn({ err: error, runId: source.id }, 'progress stream failed');
      end();
    });
  const unsubscribe = hub.subscribe(source.channel, source.id, () => void refreshOrEnd());
  const ping = setInterval(() => raw.write(': ping\n\n'), SSE_HEARTBEAT_MS);
  const untrack = hub.track(end);
  progressStreams.open++;
  raw.on('close', end);
  await refreshOrEnd();
}
