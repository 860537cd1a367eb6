import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailScreen } from '@/features/auth/components/VerifyEmailScreen';

// Spec: allowed for unverified users and skips the auth check, so no guard here.
export const Route = createFileRoute('/auth/verify-email')({
  staticData: { hideHeader: true },
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && search.token ? { token: search.token } : {},
  component: VerifyEmailRoute,
});

function VerifyEmailRoute() {
  const { token } = Route.useSearch();
  return <VerifyEmailScreen token={token} />;
}
