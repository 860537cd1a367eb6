import { createFileRoute } from '@tanstack/react-router';
import { ActionPlanView } from '../../../../../../../features/analysis/components/ActionPlanView';
import '../../../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId')({
  component: ActionPlanPage,
});

/**
 * The AI (LLM) analysis screen of the spec. There is no language model here, so `aiAnalysisId`
 * names no separate run: the screen shows the plan built from the audit `analysisId` itself.
 */
function ActionPlanPage() {
  const { id, analysisId } = Route.useParams();
  return <ActionPlanView key={analysisId} projectId={id} analysisId={analysisId} />;
}
