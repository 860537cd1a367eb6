import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { RelevanceAnalysis } from '@contract/relevance.js';
import { landingUrlsQueryOptions, relevanceHistoryQueryOptions, relevanceKeys } from '@/features/relevance/api';
import { NewRelevanceView } from '@/features/relevance/components/NewRelevanceView';
import '@/features/relevance/relevance.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/page-relevance/new')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, landingUrlsQueryOptions(params.id), relevanceHistoryQueryOptions(params.id)),
  component: NewRelevancePage,
});

function NewRelevancePage() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const onStarted = (analysis: RelevanceAnalysis) => {
    queryClient.setQueryData(relevanceKeys.detail(analysis.id), analysis);
    void queryClient.invalidateQueries({ queryKey: relevanceKeys.history(id) });
    void navigate({ to: '/projects/$id/page-relevance/$analysisId/progress', params: { id, analysisId: analysis.id } });
  };
  return <NewRelevanceView projectId={id} onStarted={onStarted} />;
}
