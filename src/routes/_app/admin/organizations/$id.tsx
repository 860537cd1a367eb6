import { createFileRoute } from '@tanstack/react-router';
import { adminOrganizationQuery } from '@/features/admin/api';
import { OrganizationDetailScreen } from '@/features/admin/OrganizationDetailScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/admin/organizations/$id')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, adminOrganizationQuery(params.id)),
  component: OrganizationRoute,
});

function OrganizationRoute() {
  const { id } = Route.useParams();
  return <OrganizationDetailScreen organizationId={id} />;
}
