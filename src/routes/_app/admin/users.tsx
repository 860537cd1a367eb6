import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { UsersPage, type UsersSearch } from '../../../features/admin/UsersPage';

export const Route = createFileRoute('/_app/admin/users')({
  validateSearch: (search: Record<string, unknown>): UsersSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.q === 'string' && search.q ? { q: search.q } : {}),
      ...(search.blocked === true || search.blocked === 'true' ? { blocked: true } : {}),
    };
  },
  component: UsersRoute,
});

function UsersRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <UsersPage search={search} onSearch={(next) => void navigate({ search: next })} />;
}
