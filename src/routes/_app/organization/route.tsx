import { Outlet, createFileRoute } from '@tanstack/react-router';
import { requireOrganizationOwner } from '@/features/auth/guards';

/** /organization and /organization/settings: the organization owner only, others go to /projects. */
export const Route = createFileRoute('/_app/organization')({
  beforeLoad: async ({ context }) => {
    await requireOrganizationOwner(context.session);
  },
  component: Outlet,
});
