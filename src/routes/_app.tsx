import { Outlet, createFileRoute } from '@tanstack/react-router';
import { requireVerifiedUser } from '../features/auth/guards';

/** The pathless layout of everything that needs a login (and a verified email). */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context }) => {
    await requireVerifiedUser(context.session);
  },
  component: Outlet,
});
