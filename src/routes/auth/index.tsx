import { createFileRoute } from '@tanstack/react-router';
import { AuthTabs, type AuthTab } from '@/features/auth/components/AuthTabs';
import { requireGuest } from '@/features/auth/guards';

export const Route = createFileRoute('/auth/')({
  staticData: { hideHeader: true },
  validateSearch: (search: Record<string, unknown>): { tab?: AuthTab } => (search.tab === 'register' ? { tab: 'register' } : {}),
  beforeLoad: async ({ context }) => {
    await requireGuest(context.session);
  },
  component: AuthRoute,
});

function AuthRoute() {
  const { tab } = Route.useSearch();
  return <AuthTabs tab={tab ?? 'login'} />;
}
