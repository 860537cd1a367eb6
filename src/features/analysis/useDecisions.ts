/**
 * Decisions on suggestions when the lists are read page by page: one suggestion at a time through
 * `PATCH /analyses/:id/decisions` (only that suggestion's change goes out, however many are decided), or
 * every suggestion of a filter through `POST /analyses/:id/decisions/bulk`. Saves go out one after
 * another in the order they were made (the server ends with the latest choice); the loaded pages show a
 * choice at once, the counts of the results answer follow from the server.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { BulkDecisionResponse, PagedResults, SuggestionsFilterInput } from '@contract/analysis-pages.js';
import { pageKeys, refreshAfterDecisions, saveBulkDecision, saveDecision, setDecisionInLists, type Decision } from './pages-api';

export type SaveStatus = 'saved' | 'saving' | 'error';

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

export function useDecisions(analysisId: string) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SaveStatus>('saved');
  const [error, setError] = useState<string | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);
  /** The last failed save, to try again. */
  const failed = useRef<(() => Promise<unknown>) | null>(null);

  const run = useCallback(
    <T>(save: () => Promise<T>): Promise<T> => {
      pending.current += 1;
      setStatus('saving');
      const next = queue.current.catch(() => undefined).then(save);
      queue.current = next;
      return next
        .then((value) => {
          failed.current = null;
          return value;
        })
        .catch((cause: unknown) => {
          failed.current = save;
          setStatus('error');
          setError(messageOf(cause));
          throw cause;
        })
        .finally(() => {
          pending.current -= 1;
          if (pending.current === 0 && !failed.current) {
            setStatus('saved');
            setError(null);
          }
        });
    },
    [],
  );

  /** Moves the accepted/rejected counts of the cached results answer by one suggestion's change. */
  const shiftCounts = useCallback(
    (from: Decision, to: Decision) => {
      queryClient.setQueryData<PagedResults>(pageKeys.results(analysisId), (old) => {
        if (!old || from === to) return old;
        const counts = { ...old.decisions };
        if (from === 'accepted') counts.accepted -= 1;
        if (from === 'rejected') counts.rejected -= 1;
        if (to === 'accepted') counts.accepted += 1;
        if (to === 'rejected') counts.rejected += 1;
        return { ...old, decisions: counts };
      });
    },
    [analysisId, queryClient],
  );

  /** One suggestion: shown at once, saved in order; the counts and query figures are read again after. */
  const decideOne = useCallback(
    (id: string, from: Decision, to: Decision, value?: string) => {
      setDecisionInLists(queryClient, analysisId, id, to, value);
      shiftCounts(from, to);
      return run(async () => {
        await saveDecision(analysisId, id, to, value);
        await refreshAfterDecisions(queryClient, analysisId, { lists: false });
      }).catch(() => undefined);
    },
    [analysisId, queryClient, run, shiftCounts],
  );

  /** Every suggestion matching the filter; the lists and counts are read again from the server. */
  const decideAll = useCallback(
    (filter: SuggestionsFilterInput, decision: Decision): Promise<BulkDecisionResponse> =>
      run(async () => {
        const answer = await saveBulkDecision(analysisId, { filter, decision });
        queryClient.setQueryData<PagedResults>(pageKeys.results(analysisId), (old) => (old ? { ...old, decisions: { ...old.decisions, accepted: answer.accepted, rejected: answer.rejected } } : old));
        await refreshAfterDecisions(queryClient, analysisId, { lists: true });
        return answer;
      }),
    [analysisId, queryClient, run],
  );

  /** Resolves once every save made so far is done (before leaving the screen). */
  const flush = useCallback(() => queue.current.then(() => undefined), []);
  const retry = useCallback(() => {
    const save = failed.current;
    if (save) void run(save).catch(() => undefined);
  }, [run]);

  return { decideOne, decideAll, flush, retry, status, error };
}
