import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { Analysis } from '../../../../../contract/analysis.js';
import { analysisKeys } from '../../../../../features/analysis/api';
import { NewAnalysisView } from '../../../../../features/analysis/components/NewAnalysisView';
import { trackInBackground } from '../../../../../features/analysis/outcome';
import { projectQueryOptions } from '../../../../../features/projects/api';
import { tokenKeys } from '../../../../../features/tokens/api';
import { ApiError } from '../../../../../lib/api-client';
import '../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/new')({
  component: NewAnalysisPage,
});

function NewAnalysisPage() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const project = useQuery(projectQueryOptions(id));

  const onStarted = (analysis: Analysis) => {
    trackInBackground(analysis.id);
    queryClient.setQueryData(analysisKeys.detail(analysis.id), analysis);
    void queryClient.invalidateQueries({ queryKey: analysisKeys.historyOf(id) });
    void queryClient.invalidateQueries({ queryKey: tokenKeys.balance() });
    void navigate({ to: '/projects/$id/analysis/$analysisId/scoring-progress', params: { id, analysisId: analysis.id } });
  };

  if (project.isPending) {
    return (
      <section className="page state-line">
        <span className="spinner" role="status" aria-label="Загрузка проекта" />
      </section>
    );
  }
  if (!project.data) {
    const notFound = project.error instanceof ApiError && project.error.status === 404;
    return (
      <section className="page page--narrow state-card state-card--error" role="alert">
        <h1>{notFound ? 'Проект не найден' : 'Не удалось загрузить проект'}</h1>
        {!notFound && <p className="muted">{project.error?.message}</p>}
        <Link to="/projects" className="btn btn--primary">
          К проектам
        </Link>
      </section>
    );
  }
  return <NewAnalysisView project={project.data} onStarted={onStarted} />;
}
