import { createFileRoute } from '@tanstack/react-router';
import { pageCheckResultsQueryOptions } from '@/features/page-check/api';
import { PageCheckResultsScreen } from '@/features/page-check/components/PageCheckResultsScreen';
import '@/features/page-check/page-check.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/page-check/$analysisId/results')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, pageCheckResultsQueryOptions(params.analysisId)),
  component: PageCheckResultsRoute,
});

function PageCheckResultsRoute() {
  const { id, analysisId } = Route.useParams();
  return <PageCheckResultsScreen key={analysisId} projectId={id} analysisId={analysisId} />;
}
