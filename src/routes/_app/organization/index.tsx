import { createFileRoute } from '@tanstack/react-router';
import { currentOrganizationQueryOptions, invitationCodeQueryOptions, membersQueryOptions } from '@/features/organization/api';
import { OrganizationScreen } from '@/features/organization/OrganizationScreen';
import { loadFirstData } from '@/lib/route-data';

/** The owner guard lives in ./route.tsx. */
export const Route = createFileRoute('/_app/organization/')({
  loader: ({ context }) => loadFirstData(context.queryClient, currentOrganizationQueryOptions(), membersQueryOptions(), invitationCodeQueryOptions()),
  component: OrganizationScreen,
});
