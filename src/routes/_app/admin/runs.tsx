import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { adminRunsQuery } from '@/features/admin/api';
import { RunsScreen, type RunsSearch } from '@/features/admin/RunsScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/admin/runs')({
  validateSearch: (search: Record<string, unknown>): RunsSearch => {
    const page = Number(search.page);
    return {
      ...(search.state === 'stuck' ? { state: 'stuck' as const } : {}),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  // The job queues below the runs are polled by the screen itself.
  loader: ({ context, deps }) => loadFirstData(context.queryClient, adminRunsQuery(deps.state ?? 'failed', deps.page ?? 1)),
  component: RunsRoute,
});

function RunsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <RunsScreen search={search} onSearch={(next) => void navigate({ search: next })} />;
}
