import { createFileRoute } from '@tanstack/react-router';
import { SemanticView } from '../../../../../../features/analysis/components/SemanticView';
import '../../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/semantic')({
  component: SemanticPage,
});

function SemanticPage() {
  const { id, analysisId } = Route.useParams();
  return <SemanticView key={analysisId} projectId={id} analysisId={analysisId} />;
}
