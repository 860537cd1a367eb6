import { createFileRoute } from '@tanstack/react-router';
import { ResultsView } from '../../../../../../features/analysis/components/ResultsView';
import '../../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/results')({
  component: ResultsPage,
});

function ResultsPage() {
  const { id, analysisId } = Route.useParams();
  return <ResultsView key={analysisId} projectId={id} analysisId={analysisId} />;
}
