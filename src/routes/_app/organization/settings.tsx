import { createFileRoute } from '@tanstack/react-router';
import { currentOrganizationQueryOptions } from '@/features/organization/api';
import { OrganizationSettingsPage } from '@/features/organization/OrganizationSettingsPage';
import { loadFirstData } from '@/lib/route-data';

/** The owner guard lives in ./route.tsx. */
export const Route = createFileRoute('/_app/organization/settings')({
  loader: ({ context }) => loadFirstData(context.queryClient, currentOrganizationQueryOptions()),
  component: OrganizationSettingsPage,
});
