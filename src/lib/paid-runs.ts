/**
 * Paid runs (an audit, a page check, an AI plan) move tokens: a start debits them, a cancel or a failure
 * gives them back (a page check also gives back the pages it could not read). After any of these the
 * header's balance and the tokens page's ledger are refreshed, by these helpers, for every kind.
 */
import { onlineManager, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from './api-client';
import { useIdempotencyKey } from './idempotency';
import { useOnlineStatus } from './useOnlineStatus';

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

/** What a paid start's button says instead of starting, and why (shown beside it). */
export const paidStartWaits = {
  offline: {
    button: 'Нет связи — запуск недоступен',
    hint: 'Запуск платный, поэтому работает только онлайн: сначала вы видите цену, потом подтверждаете её. Ничего не отправлено и не списано.',
  },
  pricing: { button: 'Ждём расчёт стоимости…', hint: 'Запустить можно, когда стоимость посчитана: списывается только цена, которую вы видели.' },
} as const;
export type PaidStartWait = keyof typeof paidStartWaits;

/** Thrown instead of sending a start when the network dropped between the render and the click. */
class OfflineStartError extends Error {
  constructor() {
    super(`${paidStartWaits.offline.button}. ${paidStartWaits.offline.hint}`);
  }
}

/** The 409 of a start whose price changed since the screen showed it (server/runs/paid-run.ts). */
export const isPriceChanged = (error: unknown) => error instanceof ApiError && (error.body as { code?: string } | null)?.code === 'PRICE_CHANGED';

/**
 * The start of a paid run from a form. Nothing is charged but a price the person saw online:
 * - `price` is the price on screen (null while unknown: computing, failed, or a stale placeholder);
 *   `wait` says why the button waits (offline, price unknown; src/components/ui/PaidStartButton.tsx);
 * - the start carries that price as `expectedCost`; the server refuses another with 409 PRICE_CHANGED,
 *   and `onPriceChanged` asks for the new one;
 * - it is never queued: offline it fails at once (React Query's default would pause it and send it
 *   when the network returns, charging someone who may have left the screen).
 * One idempotency key per form, kept across retries and double clicks, so a start whose answer was
 * lost can be sent again without a second charge; a new key after a success, or after a refusal (4xx:
 * nothing was created or charged). A lost answer or a 5xx may hide a start that happened: the key is
 * kept, the retry is safe. Once started, the balance and the ledger are refreshed and `onStarted` gets the run.
 */
export function usePaidRunStart<Run, Variables = void>(
  start: (idempotencyKey: string, variables: Variables, expectedCost: number) => Promise<Run>,
  options: { price: number | null; onStarted: (run: Run) => void; onSettled?: () => void; onPriceChanged?: () => void },
) {
  const idempotency = useIdempotencyKey();
  const tokensMoved = useTokensMoved();
  const online = useOnlineStatus();
  const wait: PaidStartWait | null = !online ? 'offline' : options.price === null ? 'pricing' : null;
  // The price on screen at the click (the closure of an older render could hold an older one).
  const shownPrice = useRef(options.price);
  shownPrice.current = options.price;
  const mutation = useMutation({
    networkMode: 'always',
    mutationFn: (variables: Variables) => {
      if (!onlineManager.isOnline()) throw new OfflineStartError();
      if (shownPrice.current === null) throw new Error(paidStartWaits.pricing.hint);
      return start(idempotency.key(), variables, shownPrice.current);
    },
    onSuccess: (run) => {
      idempotency.renew();
      tokensMoved();
      options.onStarted(run);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) idempotency.renew();
      if (isPriceChanged(error)) options.onPriceChanged?.();
    },
    onSettled: options.onSettled,
  });
  return { ...mutation, wait };
}
