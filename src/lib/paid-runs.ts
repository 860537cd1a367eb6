/**
 * Paid runs (an audit, a page check, an AI plan) move tokens: a start debits them, a cancel or a failure
 * gives them back (a page check also gives back the pages it could not read). After any of these the
 * header's balance and the tokens page's ledger are refreshed, by these helpers, for every kind.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from './api-client';
import { useIdempotencyKey } from './idempotency';

/** The query keys of the token balance and ledger (src/features/tokens defines the queries on them). */
export const tokenKeys = {
  all: ['tokens'] as const,
  balance: () => ['tokens', 'balance'] as const,
  history: (filter: { page: number; type: string | null }) => ['tokens', 'history', filter] as const,
  spending: (days: number) => ['tokens', 'spending', days] as const,
};

/** Refreshes the balance and the ledger; call it when a run was paid, refunded or cancelled. */
export function useTokensMoved(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: tokenKeys.all }), [queryClient]);
}

/**
 * Refreshes the balance and the ledger when the run watched on screen ends (its refund, if any, is
 * booked by then). A run already over when the screen opened changes nothing.
 */
export function useTokensMovedWhenRunEnds(ended: boolean | undefined): void {
  const tokensMoved = useTokensMoved();
  const wasRunning = useRef(false);
  useEffect(() => {
    if (ended === false) wasRunning.current = true;
    if (ended && wasRunning.current) {
      wasRunning.current = false;
      tokensMoved();
    }
  }, [ended, tokensMoved]);
}

/**
 * The start of a paid run from a form. One idempotency key per form, kept across retries and double
 * clicks, so a start whose answer was lost can be sent again without a second charge; a new key after
 * a success, or after a refusal (4xx: nothing was created or charged). A lost answer or a 5xx may hide
 * a start that happened: the key is kept, the retry is safe. Once started, the balance and the ledger
 * are refreshed and `onStarted` gets the run.
 */
export function usePaidRunStart<Run, Variables = void>(
  start: (idempotencyKey: string, variables: Variables) => Promise<Run>,
  options: { onStarted: (run: Run) => void; onSettled?: () => void },
) {
  const idempotency = useIdempotencyKey();
  const tokensMoved = useTokensMoved();
  return useMutation({
    mutationFn: (variables: Variables) => start(idempotency.key(), variables),
    onSuccess: (run) => {
      idempotency.renew();
      tokensMoved();
      options.onStarted(run);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) idempotency.renew();
    },
    onSettled: options.onSettled,
  });
}
