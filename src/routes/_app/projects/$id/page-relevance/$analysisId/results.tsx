import { createFileRoute } from '@tanstack/react-router';
import { relevanceResultsQueryOptions } from '@/features/relevance/api';
import { ResultsRelevanceView } from '@/features/relevance/components/ResultsRelevanceView';
import '@/features/relevance/relevance.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/page-relevance/$analysisId/results')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, relevanceResultsQueryOptions(params.analysisId)),
  component: RelevanceResultsPage,
});

function RelevanceResultsPage() {
  const { id, analysisId } = Route.useParams();
  return <ResultsRelevanceView key={analysisId} projectId={id} analysisId={analysisId} />;
}
