import { createFileRoute } from '@tanstack/react-router';
import { OrganizationDetailPage } from '../../../../features/admin/OrganizationDetailPage';

export const Route = createFileRoute('/_app/admin/organizations/$id')({
  component: OrganizationRoute,
});

function OrganizationRoute() {
  const { id } = Route.useParams();
  return <OrganizationDetailPage organizationId={id} />;
}
