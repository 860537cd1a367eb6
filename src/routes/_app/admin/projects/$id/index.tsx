import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { adPlatformLabels } from '@contract/campaigns.js';
import type { CampaignSummary } from '@contract/projects.js';
import { formatDateTime, formatNumber } from '@contract/format';
import { adminProjectQuery } from '@/features/admin/api';
import { loadFirstData } from '@/lib/route-data';
import { AdminBackLink, Details, QueryState, Stat, Table, type Column } from '@/features/admin/components';

export const Route = createFileRoute('/_app/admin/projects/$id/')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, adminProjectQuery(params.id)),
  component: AdminProjectDetailRoute,
});

const campaignColumns: Column<CampaignSummary>[] = [
  { label: 'Кампания', cell: (row) => row.name },
  { label: 'Тип', cell: (row) => row.type ?? '—' },
  { label: 'Групп', cell: (row) => formatNumber(row.groups_count) },
  { label: 'Объявлений', cell: (row) => formatNumber(row.ads_count) },
  { label: 'Ключевых фраз', cell: (row) => formatNumber(row.keywords_count) },
  { label: 'Минус-фраз', cell: (row) => formatNumber(row.negative_keywords) },
];

function AdminProjectDetailRoute() {
  const { id } = Route.useParams();
  const project = useQuery(adminProjectQuery(id));
  const data = project.data;

  return (
    <div className="stack">
      <AdminBackLink to="/admin">Все проекты</AdminBackLink>
      <div className="page-header">
        <h1>{data?.name ?? 'Проект'}</h1>
        <Link to="/admin/projects/$id/analyses" params={{ id }} className="btn btn--primary btn--small">
          Анализы проекта
        </Link>
      </div>
      <QueryState isPending={project.isPending} error={project.error} emptyText="" onRetry={() => void project.refetch()}>
        {data && (
          <>
            <section className="card">
              <Details
                rows={[
                  ['Организация', data.organization.name],
                  ['Сайт', data.site_url],
                  ['Рекламная система', adPlatformLabels[data.platform]],
                  ['Регион', data.region ?? '—'],
                  ['Целевая цена конверсии', data.target_cpa === null ? '—' : `${formatNumber(data.target_cpa)} ₽`],
                  ['Автор', data.author?.full_name ?? '—'],
                  ['Создан', formatDateTime(data.created_at)],
                  ['Изменён', formatDateTime(data.updated_at)],
                  ['Последний анализ', data.last_analysis ? `${formatDateTime(data.last_analysis.created_at)}, оценка ${formatNumber(data.last_analysis.score)}` : '—'],
                ]}
              />
            </section>
            <div className="stat-grid">
              <Stat value={data.counts.campaigns} label="Кампаний" />
              <Stat value={data.counts.groups} label="Групп" />
              <Stat value={data.counts.ads} label="Объявлений" />
              <Stat value={data.counts.keywords} label="Ключевых фраз" />
            </div>
            <section className="card">
              <h2 className="card__title">Кампании</h2>
              {data.campaigns.length === 0 ? <p className="muted">Кампании ещё не загружены.</p> : <Table rows={data.campaigns} columns={campaignColumns} caption="Кампании" />}
            </section>
          </>
        )}
      </QueryState>
    </div>
  );
}
