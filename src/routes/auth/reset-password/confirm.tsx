import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordConfirmForm } from '@/features/auth/components/ResetPasswordConfirmForm';
import { requireGuest } from '@/features/auth/guards';

export const Route = createFileRoute('/auth/reset-password/confirm')({
  staticData: { hideHeader: true },
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && search.token ? { token: search.token } : {},
  beforeLoad: async ({ context }) => {
    await requireGuest(context.session);
  },
  component: ConfirmRoute,
});

function ConfirmRoute() {
  const { token } = Route.useSearch();
  return <ResetPasswordConfirmForm token={token} />;
}
