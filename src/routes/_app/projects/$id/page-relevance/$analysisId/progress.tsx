import { createFileRoute } from '@tanstack/react-router';
import { ProgressRelevanceView } from '@/features/relevance/components/ProgressRelevanceView';
import '@/features/relevance/relevance.css';

export const Route = createFileRoute('/_app/projects/$id/page-relevance/$analysisId/progress')({
  component: RelevanceProgressPage,
});

function RelevanceProgressPage() {
  const { id, analysisId } = Route.useParams();
  // Keyed by the run, so moving to another one starts from a clean state.
  return <ProgressRelevanceView key={analysisId} projectId={id} analysisId={analysisId} />;
}
