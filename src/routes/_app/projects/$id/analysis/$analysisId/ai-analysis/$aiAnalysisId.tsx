import { createFileRoute } from '@tanstack/react-router';
import { aiPlanOverviewQueryOptions } from '@/features/analysis/ai-plan/api';
import { AiAnalysisScreen } from '@/features/analysis/ai-plan/components/AiAnalysisScreen';
import '@/features/analysis/analysis.css';
import '@/features/analysis/ai-plan/ai-plan.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId')({
  // The overview (price, balance, earlier plans); a plan itself is polled by the screen while the model works.
  loader: ({ context, params }) => loadFirstData(context.queryClient, aiPlanOverviewQueryOptions(params.analysisId)),
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
