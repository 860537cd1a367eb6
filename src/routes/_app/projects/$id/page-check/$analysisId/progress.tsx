import { createFileRoute } from '@tanstack/react-router';
import { PageCheckProgressScreen } from '@/features/page-check/components/PageCheckProgressScreen';
import '@/features/page-check/page-check.css';

export const Route = createFileRoute('/_app/projects/$id/page-check/$analysisId/progress')({
  component: PageCheckProgressRoute,
});

function PageCheckProgressRoute() {
  const { id, analysisId } = Route.useParams();
  // Keyed by the run, so moving to another one starts from a clean state.
  return <PageCheckProgressScreen key={analysisId} projectId={id} analysisId={analysisId} />;
}
