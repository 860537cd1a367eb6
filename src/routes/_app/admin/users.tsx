import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { adminUsersQuery } from '@/features/admin/api';
import { UsersScreen, type UsersSearch } from '@/features/admin/UsersScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/admin/users')({
  validateSearch: (search: Record<string, unknown>): UsersSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.q === 'string' && search.q ? { q: search.q } : {}),
      ...(search.blocked === true || search.blocked === 'true' ? { blocked: true } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadFirstData(context.queryClient, adminUsersQuery(deps.page ?? 1, deps.q, deps.blocked)),
  component: UsersRoute,
});

function UsersRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <UsersScreen search={search} onSearch={(next) => void navigate({ search: next })} />;
}
