/**
 * Paid runs (an audit, a page check, an AI plan) move tokens: a start debits them, a cancel or a failure
 * gives them back (a page check also gives back the pages it could not read). After any of these the
 * header's balance and the tokens page's ledger are refreshed, by this one helper, everywhere.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

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
