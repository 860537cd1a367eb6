import { createFileRoute } from '@tanstack/react-router';
import { ResultsRelevanceView } from '../../../../../../features/relevance/components/ResultsRelevanceView';
import '../../../../../../features/relevance/relevance.css';

export const Route = createFileRoute('/_app/projects/$id/page-relevance/$analysisId/results')({
  component: RelevanceResultsPage,
});

function RelevanceResultsPage() {
  const { id, analysisId } = Route.useParams();
  return <ResultsRelevanceView key={analysisId} projectId={id} analysisId={analysisId} />;
}
