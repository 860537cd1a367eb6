import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { RunsPage, type RunsSearch } from '../../../features/admin/RunsPage';

export const Route = createFileRoute('/_app/admin/runs')({
  validateSearch: (search: Record<string, unknown>): RunsSearch => {
    const page = Number(search.page);
    return {
      ...(search.state === 'stuck' ? { state: 'stuck' as const } : {}),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    };
  },
  component: RunsRoute,
});

function RunsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <RunsPage search={search} onSearch={(next) => void navigate({ search: next })} />;
}
