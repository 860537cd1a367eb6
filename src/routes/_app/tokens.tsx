import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { TokensPage } from '../../features/tokens/TokensPage';

interface TokensSearch {
  /** Set by YooKassa's return to the site after a card payment. */
  payment?: string;
}

/** Token management, linked from the header's balance indicator (auth guard in ../_app.tsx). */
export const Route = createFileRoute('/_app/tokens')({
  validateSearch: (search: Record<string, unknown>): TokensSearch =>
    typeof search.payment === 'string' && /^[0-9a-f-]{36}$/i.test(search.payment) ? { payment: search.payment } : {},
  component: TokensRoute,
});

function TokensRoute() {
  const { payment } = Route.useSearch();
  const navigate = useNavigate();
  return <TokensPage paymentId={payment} onPaymentSettled={() => void navigate({ to: '/tokens', search: {}, replace: true })} />;
}
