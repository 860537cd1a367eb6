/**
 * The live state of one analysis: Server-Sent Events while they work, polling every 2 s otherwise.
 *
 * The stream is read with fetch (it needs the bearer header). It falls back to polling when it
 * answers 401 (polling goes through the API client, which refreshes the session), when the network
 * drops or when the server closes it before the run ended; offline from the start means polling
 * at once (React Query pauses it until the network is back and shows the last known state).
 * Every update lands in the same query cache entry the screens read.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { finishedStatuses, type Analysis, type AnalysisResponse } from '@contract/analysis.js';
import { analysisRoutes } from '@contract/routes/analyses.js';
import { callApi } from '@/lib/call-api';
import { analysisKeys, analysisQueryOptions, POLL_INTERVAL_MS } from './api';
import { readEventStream, type SseEvent } from './sse';

export type ProgressTransport = 'stream' | 'polling';

const isDone = (analysis: Analysis | undefined) => analysis !== undefined && finishedStatuses.includes(analysis.status);

function canStream(): boolean {
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return online && typeof ReadableStream !== 'undefined' && typeof TextDecoder !== 'undefined';
}

/** The analysis of a `progress`/`done` event (`{analysis}`; a bare analysis is read too). */
export function analysisOfEvent(event: SseEvent): Analysis | null {
  if (event.event !== 'progress' && event.event !== 'done') return null;
  try {
    const data = JSON.parse(event.data) as Partial<AnalysisResponse> & Partial<Analysis>;
    const analysis = (data.analysis ?? data) as Analysis;
    return typeof analysis?.id === 'string' && typeof analysis.status === 'string' ? analysis : null;
  } catch {
    return null;
  }
}

export function useAnalysisProgress(analysisId: string) {
  const queryClient = useQueryClient();
  const [transport, setTransport] = useState<ProgressTransport>(() => (canStream() ? 'stream' : 'polling'));

  const query = useQuery({
    ...analysisQueryOptions(analysisId),
    refetchInterval: (current) => (transport === 'polling' && !isDone(current.state.data) ? POLL_INTERVAL_MS : false),
    // Progress must never show a minute-old state after a remount.
    staleTime: 0,
  });
  const finished = isDone(query.data);

  useEffect(() => {
    if (transport !== 'stream' || finished) return;
    const controller = new AbortController();
    const key = analysisKeys.detail(analysisId);
    const fallBack = () => {
      if (controller.signal.aborted) return;
      if (!isDone(queryClient.getQueryData<Analysis>(key))) setTransport('polling');
    };
    readEventStream(callApi(analysisRoutes.events, { params: { id: analysisId }, mode: 'stream', signal: controller.signal }), (event) => {
      const analysis = analysisOfEvent(event);
      if (analysis) queryClient.setQueryData(key, analysis);
    }).then(fallBack, fallBack);
    return () => controller.abort();
  }, [analysisId, transport, finished, queryClient]);

  // The whole query is the hook's answer (its callers read several of its fields).
  // eslint-disable-next-line @tanstack/query/no-rest-destructuring
  return { ...query, analysis: query.data, transport, finished };
}
