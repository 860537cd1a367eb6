import { createFileRoute } from '@tanstack/react-router';
import { historyQueryOptions } from '@/features/analysis/api';
import { HistoryScreen } from '@/features/analysis/components/HistoryScreen';
import '@/features/analysis/analysis.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/history')({
  // The first page, unfiltered: what the screen opens with.
  loader: ({ context, params }) => loadFirstData(context.queryClient, historyQueryOptions(params.id, { page: 1, status: null })),
  component: HistoryRoute,
});

function HistoryRoute() {
  const { id } = Route.useParams();
  return <HistoryScreen projectId={id} />;
}
