import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { PageCheck } from '@contract/page-check.js';
import { landingUrlsQueryOptions, pageCheckHistoryQueryOptions, pageCheckKeys } from '@/features/page-check/api';
import { NewPageCheckScreen } from '@/features/page-check/components/NewPageCheckScreen';
import '@/features/page-check/page-check.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/page-check/new')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, landingUrlsQueryOptions(params.id), pageCheckHistoryQueryOptions(params.id)),
  component: NewPageCheckRoute,
});

function NewPageCheckRoute() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const onStarted = (analysis: PageCheck) => {
    queryClient.setQueryData(pageCheckKeys.detail(analysis.id), analysis);
    void queryClient.invalidateQueries({ queryKey: pageCheckKeys.history(id) });
    void navigate({ to: '/projects/$id/page-check/$analysisId/progress', params: { id, analysisId: analysis.id } });
  };
  return <NewPageCheckScreen projectId={id} onStarted={onStarted} />;
}
