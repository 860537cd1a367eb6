import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailRequiredScreen } from '@/features/auth/components/VerifyEmailRequiredScreen';
import { requireUnverifiedUser } from '@/features/auth/guards';

export const Route = createFileRoute('/auth/verify-email-required')({
  staticData: { hideHeader: true },
  beforeLoad: async ({ context }) => {
    await requireUnverifiedUser(context.session);
  },
  component: VerifyEmailRequiredScreen,
});
