import { createFileRoute } from '@tanstack/react-router';
import { currentOrganizationQueryOptions } from '@/features/organization/api';
import { OrganizationSettingsScreen } from '@/features/organization/OrganizationSettingsScreen';
import { loadFirstData } from '@/lib/route-data';

/** The owner guard lives in ./route.tsx. */
export const Route = createFileRoute('/_app/organization/settings')({
  loader: ({ context }) => loadFirstData(context.queryClient, currentOrganizationQueryOptions()),
  component: OrganizationSettingsScreen,
});
