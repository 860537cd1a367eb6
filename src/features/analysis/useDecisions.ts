/**
 * The accept/reject choices of one analysis, saved as the user makes them with
 * `PUT /analyses/:id/decisions` (the whole choice each time). One save at a time: changes made
 * while a save is running go out right after it, so the server always ends with the latest choice.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { AnalysisDecisions, AnalysisResults } from '../../contract/analysis.js';
import { analysisKeys, saveDecisions } from './api';

export type SaveStatus = 'saved' | 'saving' | 'error';

const emptyDecisions: AnalysisDecisions = { accepted: [], rejected: [] };
const fingerprint = (decisions: AnalysisDecisions) => JSON.stringify([decisions.accepted, decisions.rejected, decisions.values ?? {}]);

export function useDecisions(analysisId: string, initial: AnalysisDecisions | null | undefined) {
  const queryClient = useQueryClient();
  const start = initial ?? emptyDecisions;
  const [decisions, setDecisions] = useState<AnalysisDecisions>(start);
  const [status, setStatus] = useState<SaveStatus>('saved');
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(start);
  const saved = useRef(fingerprint(start));
  const inFlight = useRef<Promise<void> | null>(null);

  const pump = useCallback(async () => {
    while (fingerprint(latest.current) !== saved.current) {
      const snapshot = latest.current;
      setStatus('saving');
      const answer = await saveDecisions(analysisId, snapshot);
      saved.current = fingerprint(snapshot);
      // The results screen reads the same cache entry: it shows the choice at once.
      queryClient.setQueryData<AnalysisResults>(analysisKeys.results(analysisId), (old) => (old ? { ...old, decisions: answer ?? snapshot } : old));
    }
    setStatus('saved');
    setError(null);
  }, [analysisId, queryClient]);

  /** Resolves once the server has the latest choice; rejects with the save error. */
  const flush: () => Promise<void> = useCallback((): Promise<void> => {
    if (!inFlight.current) {
      inFlight.current = pump()
        .catch((cause: unknown) => {
          setStatus('error');
          setError(cause instanceof Error ? cause.message : String(cause));
          throw cause;
        })
        .finally(() => {
          inFlight.current = null;
        });
    }
    // A change that arrived just as the running save finished still has to go out.
    return inFlight.current.then(() => (fingerprint(latest.current) !== saved.current ? flush() : undefined));
  }, [pump]);

  const change = useCallback(
    (next: AnalysisDecisions) => {
      latest.current = next;
      setDecisions(next);
      flush().catch(() => undefined);
    },
    [flush],
  );

  return { decisions, change, flush, status, error };
}
