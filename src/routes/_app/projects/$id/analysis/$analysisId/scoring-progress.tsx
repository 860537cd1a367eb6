import { createFileRoute } from '@tanstack/react-router';
import { ProgressScreen } from '@/features/analysis/components/ProgressScreen';
import '@/features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/scoring-progress')({
  component: ProgressRoute,
});

function ProgressRoute() {
  const { id, analysisId } = Route.useParams();
  // Keyed by the analysis, so moving to another run starts from a clean state.
  return <ProgressScreen key={analysisId} projectId={id} analysisId={analysisId} />;
}
