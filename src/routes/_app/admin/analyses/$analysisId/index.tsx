import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { analysisErrorCodeLabels, analysisStageLabels, type AnalysisStage } from '@contract/analysis.js';
import { formatDateTime, formatNumber } from '@contract/format';
import { adminAnalysisQuery } from '@/features/admin/api';
import { loadFirstData } from '@/lib/route-data';
import { AdminBackLink, Details, QueryState, StatusBadge } from '@/features/admin/components';

export const Route = createFileRoute('/_app/admin/analyses/$analysisId/')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, adminAnalysisQuery(params.analysisId)),
  component: AdminAnalysisDetailRoute,
});

const stageLabel = (stage: string | null) => (stage ? (analysisStageLabels[stage as AnalysisStage] ?? stage) : '—');

function AdminAnalysisDetailRoute() {
  const { analysisId } = Route.useParams();
  const query = useQuery(adminAnalysisQuery(analysisId));
  const data = query.data;

  return (
    <div className="stack">
      {data ? (
        <AdminBackLink to="/admin/projects/$id/analyses" params={{ id: data.project.id }}>
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
      <QueryState isPending={query.isPending} error={query.error} emptyText="" onRetry={() => void query.refetch()}>
        {data && (
          <section className="card">
            <Details
              rows={[
                [
                  'Проект',
                  <Link to="/admin/projects/$id" params={{ id: data.project.id }} className="link">
                    {data.project.name}
                  </Link>,
                ],
                ['Организация', data.organization.name],
                ['Статус', <StatusBadge status={data.analysis.status} />],
                ['Этап', stageLabel(data.analysis.stage)],
                ['Прогресс, %', formatNumber(data.analysis.progress)],
                ['Оценка', formatNumber(data.analysis.score)],
                ['Кампаний', formatNumber(data.analysis.options.campaign_ids.length)],
                ['Стоимость, токенов', formatNumber(data.analysis.cost)],
                ['Автор', data.analysis.author?.full_name ?? '—'],
                ['Создан', formatDateTime(data.analysis.created_at)],
                ['Начат', formatDateTime(data.analysis.started_at)],
                ['Окончен', formatDateTime(data.analysis.finished_at)],
                ...(data.analysis.error ? ([['Ошибка', data.analysis.error]] as [string, string][]) : []),
                ...(data.analysis.error_code
                  ? ([['Причина', `${analysisErrorCodeLabels[data.analysis.error_code]} (${data.analysis.error_code})`]] as [string, string][])
                  : []),
              ]}
            />
          </section>
        )}
      </QueryState>
    </div>
  );
}
