import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { Analysis } from '@contract/analysis.js';
import { analysisKeys } from '@/features/analysis/api';
import { NewAnalysisScreen } from '@/features/analysis/components/NewAnalysisScreen';
import { trackInBackground } from '@/features/analysis/outcome';
import { ProjectLoader } from '@/features/projects/components/ProjectLoader';
import '@/features/analysis/analysis.css';
import { projectQueryOptions } from '@/lib/projects-api';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/new')({
  // The project with its campaigns to choose from; the price follows the choice on the screen.
  loader: ({ context, params }) => loadFirstData(context.queryClient, projectQueryOptions(params.id)),
  component: NewAnalysisRoute,
});

function NewAnalysisRoute() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();

  const onStarted = (analysis: Analysis) => {
    trackInBackground(analysis.id);
    queryClient.setQueryData(analysisKeys.detail(analysis.id), analysis);
    void queryClient.invalidateQueries({ queryKey: analysisKeys.historyOf(id) });
    void navigate({ to: '/projects/$id/analysis/$analysisId/scoring-progress', params: { id, analysisId: analysis.id } });
  };

  return <ProjectLoader projectId={id}>{(project) => <NewAnalysisScreen project={project} onStarted={onStarted} />}</ProjectLoader>;
}
