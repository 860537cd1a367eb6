import { createFileRoute } from '@tanstack/react-router';
import { aiPlanOverviewQueryOptions } from '@/features/analysis/ai-plan/api';
import { AiPlanScreen } from '@/features/analysis/ai-plan/components/AiPlanScreen';
import '@/features/analysis/analysis.css';
import '@/features/analysis/ai-plan/ai-plan.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId')({
  // The overview (price, balance, earlier plans); a plan itself is polled by the screen while the model works.
  loader: ({ context, params }) => loadFirstData(context.queryClient, aiPlanOverviewQueryOptions(params.analysisId)),
  component: AiPlanRoute,
});

/**
 * The AI (LLM) analysis screen of the spec. `aiPlanId` is an AI plan of the audit `analysisId`, or
 * the audit's own id when none is chosen yet (the link from the results screen).
 */
function AiPlanRoute() {
  const { id, analysisId, aiPlanId } = Route.useParams();
  return <AiPlanScreen key={aiPlanId} projectId={id} analysisId={analysisId} aiPlanId={aiPlanId} />;
}
