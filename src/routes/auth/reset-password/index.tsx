import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordRequestForm } from '@/features/auth/components/ResetPasswordRequestForm';
import { requireGuest } from '@/features/auth/guards';

export const Route = createFileRoute('/auth/reset-password/')({
  staticData: { hideHeader: true },
  beforeLoad: async ({ context }) => {
    await requireGuest(context.session);
  },
  component: ResetPasswordRequestForm,
});
