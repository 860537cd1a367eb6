import { Outlet, createFileRoute } from '@tanstack/react-router';
import { resumeTracking } from '../features/analysis/outcome';
import { requireVerifiedUser } from '../features/auth/guards';

/** The pathless layout of everything that needs a login (and a verified email). */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context }) => {
    await requireVerifiedUser(context.session);
    // Analyses started before a reload still get their «finished / failed» notification.
    resumeTracking();
  },
  component: Outlet,
});
