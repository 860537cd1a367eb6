import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import type { AnalysisHistoryItem } from '@contract/analysis.js';
import { formatDateTime, formatNumber } from '@contract/format';
import { adminProjectAnalysesQuery } from '@/features/admin/api';
import { loadFirstData } from '@/lib/route-data';
import { Pager } from '@/components/ui/Pager';
import { AdminBackLink, QueryState, StatusBadge, Table, type Column } from '@/features/admin/components';

export const Route = createFileRoute('/_app/admin/projects/$id/analyses')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadFirstData(context.queryClient, adminProjectAnalysesQuery(params.id, deps.page ?? 1)),
  component: AdminProjectAnalysesRoute,
});

const columns: Column<AnalysisHistoryItem>[] = [
  { label: 'Создан', cell: (row) => formatDateTime(row.created_at) },
  { label: 'Автор', cell: (row) => row.author?.full_name ?? '—' },
  { label: 'Статус', cell: (row) => <StatusBadge status={row.status} /> },
  { label: 'Оценка', cell: (row) => formatNumber(row.score) },
  { label: 'Кампаний', cell: (row) => formatNumber(row.campaigns_count) },
  { label: 'Стоимость, токенов', cell: (row) => formatNumber(row.cost) },
  {
    label: 'Анализ',
    cell: (row) => (
      <Link to="/admin/analyses/$analysisId" params={{ analysisId: row.id }} className="link">
        Подробнее
      </Link>
    ),
  },
];

function AdminProjectAnalysesRoute() {
  const { id } = Route.useParams();
  const { page = 1 } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const analyses = useQuery(adminProjectAnalysesQuery(id, page));

  return (
    <div className="stack">
      <AdminBackLink to="/admin/projects/$id" params={{ id }}>
        Проект
      </AdminBackLink>
      <h1>Анализы проекта</h1>
      <QueryState
        isPending={analyses.isPending}
        error={analyses.error}
        isEmpty={analyses.data?.items.length === 0}
        emptyText="По этому проекту анализов ещё не было."
        onRetry={() => void analyses.refetch()}
      >
        {analyses.data && (
          <>
            <Table rows={analyses.data.items} columns={columns} caption="Анализы проекта" />
            <Pager label="Страницы анализов" page={analyses.data.page} pageSize={analyses.data.page_size} total={analyses.data.total} onPage={(next) => void navigate({ search: { page: next } })} />
          </>
        )}
      </QueryState>
    </div>
  );
}
