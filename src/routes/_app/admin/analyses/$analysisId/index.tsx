import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { adminAnalysisQuery } from '../../-api';
import { AdminBackLink, DetailList, NestedBlocks, QueryState } from '../../-components';

export const Route = createFileRoute('/_app/admin/analyses/$analysisId/')({
  component: AdminAnalysisDetail,
});

function AdminAnalysisDetail() {
  const { analysisId } = Route.useParams();
  const analysis = useQuery(adminAnalysisQuery(analysisId));
  const projectId = typeof analysis.data?.project_id === 'string' ? analysis.data.project_id : null;

  return (
    <div className="stack">
      {projectId ? (
        <AdminBackLink to="/admin/projects/$id/analyses" params={{ id: projectId }}>
          Анализы проекта
        </AdminBackLink>
      ) : (
        <AdminBackLink to="/admin">Обзор</AdminBackLink>
      )}
      <div className="page-header">
        <h1>Анализ</h1>
        <Link to="/admin/analyses/$analysisId/results" params={{ analysisId }} className="btn btn--primary btn--small">
          Результаты
        </Link>
      </div>
      <QueryState
        isPending={analysis.isPending}
        error={analysis.error}
        emptyText="Нет данных об анализе."
        onRetry={() => void analysis.refetch()}
      >
        {analysis.data && (
          <>
            <section className="card">
              <DetailList record={analysis.data} />
            </section>
            <NestedBlocks record={analysis.data} />
          </>
        )}
      </QueryState>
    </div>
  );
}
