import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { SPENDING_DAYS, TokensScreen } from '@/features/tokens/TokensScreen';
import { packagesQueryOptions, paymentsQueryOptions } from '@/lib/payments-api';
import { loadFirstData } from '@/lib/route-data';
import { spendingQueryOptions } from '@/lib/tokens-api';

interface TokensSearch {
  /** Set by YooKassa's return to the site after a card payment. */
  payment?: string;
}

/** Token management, linked from the header's balance indicator (auth guard in ../_app.tsx). */
export const Route = createFileRoute('/_app/tokens')({
  validateSearch: (search: Record<string, unknown>): TokensSearch =>
    typeof search.payment === 'string' && /^[0-9a-f-]{36}$/i.test(search.payment) ? { payment: search.payment } : {},
  // The balance is the header's (always loaded); a payment being confirmed is polled by the screen; the ledger,
  // kept on disk and fetched again on every open, is the screen's (a loaded copy would be asked for twice).
  loader: ({ context }) => loadFirstData(context.queryClient, packagesQueryOptions(), paymentsQueryOptions(), spendingQueryOptions(SPENDING_DAYS)),
  component: TokensRoute,
});

function TokensRoute() {
  const { payment } = Route.useSearch();
  const navigate = useNavigate();
  return <TokensScreen paymentId={payment} onPaymentSettled={() => void navigate({ to: '/tokens', search: {}, replace: true })} />;
}
