import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { agencyBoardQueryOptions } from '@/lib/audit-changes-api';
import { loadFirstData } from '@/lib/route-data';
import { useWaitsForNetwork } from '@/components/ui/PageStates';
import { AgencyBoardScreen } from '@/features/monitoring/components/AgencyBoardScreen';

/** The agency board: every project of the organization (kept on disk, so it opens offline). */
export const Route = createFileRoute('/_app/board')({
  loader: ({ context }) => loadFirstData(context.queryClient, agencyBoardQueryOptions()),
  component: BoardRoute,
});

function BoardRoute() {
  const query = useQuery(agencyBoardQueryOptions());
  const offline = useWaitsForNetwork(query);
  return <AgencyBoardScreen projects={query.data?.projects} loading={query.isPending} offline={offline} error={query.error ? query.error.message : null} onRetry={() => void query.refetch()} />;
}
