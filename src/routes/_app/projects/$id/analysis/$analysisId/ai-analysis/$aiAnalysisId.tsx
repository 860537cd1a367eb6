import { createFileRoute, redirect } from '@tanstack/react-router';

/** The AI plan's former address (in the product spec's route table): it lives at /ai-plan now. */
export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId')({
  beforeLoad: ({ params: { id, analysisId, aiAnalysisId } }) => {
    throw redirect({ to: '/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId', params: { id, analysisId, aiPlanId: aiAnalysisId }, replace: true });
  },
});
