import { Outlet, createFileRoute } from '@tanstack/react-router';
import { requireVerifiedUser } from '@/features/auth/guards';

/** The pathless layout of everything that needs a login (and a verified email). */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context }) => {
    await requireVerifiedUser(context.session);
    // Analyses started before a reload still get their «finished / failed» notification. Loaded on
    // demand so the analysis modules stay out of the first load of /auth.
    void import('@/features/analysis/outcome').then(({ resumeTracking }) => resumeTracking());
  },
  component: Outlet,
});
