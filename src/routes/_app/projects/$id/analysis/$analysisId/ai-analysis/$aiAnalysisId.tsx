import { createFileRoute } from '@tanstack/react-router';
import { AiAnalysisScreen } from '@/features/analysis/ai-plan/components/AiAnalysisScreen';
import '../../../../../../../features/analysis/analysis.css';
import '@/features/analysis/ai-plan/ai-plan.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId')({
  component: AiAnalysisPage,
});

/**
 * The AI (LLM) analysis screen of the spec. `aiAnalysisId` is an AI plan of the audit `analysisId`, or
 * the audit's own id when none is chosen yet (the link from the results screen).
 */
function AiAnalysisPage() {
  const { id, analysisId, aiAnalysisId } = Route.useParams();
  return <AiAnalysisScreen key={aiAnalysisId} projectId={id} analysisId={analysisId} aiAnalysisId={aiAnalysisId} />;
}
