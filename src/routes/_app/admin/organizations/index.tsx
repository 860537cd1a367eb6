import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { adminOrganizationsQuery } from '@/features/admin/api';
import { OrganizationsScreen, type OrganizationsSearch } from '@/features/admin/OrganizationsScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/admin/organizations/')({
  validateSearch: (search: Record<string, unknown>): OrganizationsSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.q === 'string' && search.q ? { q: search.q } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadFirstData(context.queryClient, adminOrganizationsQuery(deps.page ?? 1, deps.q)),
  component: OrganizationsRoute,
});

function OrganizationsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <OrganizationsScreen search={search} onSearch={(next) => void navigate({ search: next })} />;
}
