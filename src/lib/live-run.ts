/**
 * The live state of one run (an audit, a page check, an AI plan, a Direct import job): its progress
 * stream (`<the run's GET path>/events`, server/lib/progress-stream.ts) while it works, polling every
 * 2 s otherwise.
 *
 * The stream is read with fetch in the API client's stream mode (it needs the bearer header). It falls back to polling when it
 * answers 401 (polling goes through the API client, which refreshes the session), when the network
 * drops or when the server closes it before the run ended; offline from the start (or a browser without
 * streamed fetch) means polling at once (React Query pauses it until the network is back and shows the
 * last known state). Every event carries what the run's GET answers, and lands in the same query cache
 * entry the screens read, so a screen reads the run as it always did.
 */
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { pathOf, type ApiRoute } from '@contract/routes/route.js';
import { apiClient } from './api-client';
import { readEventStream, type SseEvent } from './sse';

export type ProgressTransport = 'stream' | 'polling';

/** How often a run's state is asked for when it cannot be streamed. */
export const LIVE_POLL_INTERVAL_MS = 2000;

function canStream(): boolean {
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return online && typeof ReadableStream !== 'undefined' && typeof TextDecoder !== 'undefined';
}

export interface LiveRun<TData, TKey extends QueryKey> {
  /** The run's query: its cache entry and how to read it once. */
  query: UseQueryOptions<TData, Error, TData, TKey>;
  /** The run's events route and the run's id (its `:id`). */
  events: ApiRoute & { method: 'GET' };
  id: string;
  /** The run's state in an event's body (the body of the run's GET); null when the body is not one. */
  fromEvent: (body: unknown) => TData | null;
  finished: (data: TData) => boolean;
}

/** The run's state in a `progress`/`done` event; null for any other event or a body that does not parse. */
function stateOfEvent<TData>(event: SseEvent, fromEvent: (body: unknown) => TData | null): TData | null {
  if (event.event !== 'progress' && event.event !== 'done') return null;
  try {
    return fromEvent(JSON.parse(event.data));
  } catch {
    return null;
  }
}

export function useLiveRun<TData, TKey extends QueryKey>({ query: options, events, id, fromEvent, finished: isFinished }: LiveRun<TData, TKey>) {
  const queryClient = useQueryClient();
  const [transport, setTransport] = useState<ProgressTransport>(() => (canStream() ? 'stream' : 'polling'));
  const isDone = (data: TData | undefined) => data !== undefined && isFinished(data);

  const query = useQuery({
    ...options,
    refetchInterval: (current) => (transport === 'polling' && !isDone(current.state.data) ? LIVE_POLL_INTERVAL_MS : false),
    // The run keeps working while the tab is in the background.
    refetchIntervalInBackground: true,
    // Progress must never show a minute-old state after a remount.
    staleTime: 0,
  });
  const finished = isDone(query.data);
  const loaded = query.data !== undefined;
  const { queryKey } = options;

  // Opened once the run's first state is in: a GET answered after the stream's first event would put an
  // older state back on screen; and a run already finished needs no stream.
  useEffect(() => {
    if (transport !== 'stream' || !loaded || finished) return;
    const controller = new AbortController();
    const fallBack = () => {
      if (controller.signal.aborted) return;
      if (!isDone(queryClient.getQueryData<TData>(queryKey))) setTransport('polling');
    };
    readEventStream(apiClient.stream(pathOf(events, { id }), { signal: controller.signal }), (event) => {
      const state = stateOfEvent(event, fromEvent);
      if (state) queryClient.setQueryData<TData>(queryKey, state);
    }).then(fallBack, fallBack);
    return () => controller.abort();
    // The key, the route and the readers follow from `id` for a given screen; a new array each render must not reopen the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, transport, loaded, finished, queryClient]);

  // The whole query is the hook's answer (its callers read several of its fields).
  // eslint-disable-next-line @tanstack/query/no-rest-destructuring
  return { ...query, transport, finished };
}
