/**
 * The live state of one analysis: the one live channel of every run (src/lib/live-run.ts), over the
 * audit's `/analyses/:id/events`, into the query cache entry the audit screens read.
 */
import { finishedStatuses, type Analysis, type AnalysisResponse } from '@contract/analysis.js';
import { analysisRoutes } from '@contract/routes/analyses.js';
import { useLiveRun } from '@/lib/live-run';
import { analysisQueryOptions } from './api';

/** The analysis of an event's body (`{analysis}`; a bare analysis is read too). */
function analysisOfEvent(body: unknown): Analysis | null {
  const data = body as (Partial<AnalysisResponse> & Partial<Analysis>) | null;
  const analysis = (data?.analysis ?? data) as Analysis | null;
  return typeof analysis?.id === 'string' && typeof analysis.status === 'string' ? analysis : null;
}

const isFinished = (analysis: Analysis) => finishedStatuses.includes(analysis.status);

export function useAnalysisProgress(analysisId: string) {
  const run = useLiveRun({ query: analysisQueryOptions(analysisId), events: analysisRoutes.events, id: analysisId, fromEvent: analysisOfEvent, finished: isFinished });
  return { ...run, analysis: run.data };
}
