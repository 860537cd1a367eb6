import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { AdminAnalysisItem, AdminProjectItem } from '@contract/admin.js';
import { adPlatformLabels } from '@contract/campaigns.js';
import { formatDateTime, formatNumber } from '@contract/format';
import { adminOverviewQuery, adminStatsQuery, FIRST_STATS_DAYS } from '@/features/admin/api';
import { loadFirstData } from '@/lib/route-data';
import { OverviewCharts } from '@/features/admin/OverviewCharts';
import { Pager } from '@/components/ui/Pager';
import { QueryState, Stat, StatusBadge, Table, type Column } from '@/features/admin/components';

interface OverviewSearch {
  page?: number;
  q?: string;
}

export const Route = createFileRoute('/_app/admin/')({
  validateSearch: (search: Record<string, unknown>): OverviewSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.q === 'string' && search.q ? { q: search.q } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadFirstData(context.queryClient, adminOverviewQuery(deps.page ?? 1, deps.q), adminStatsQuery(FIRST_STATS_DAYS)),
  component: AdminOverviewRoute,
});

const recentColumns: Column<AdminAnalysisItem>[] = [
  {
    label: 'Проект',
    cell: (row) => (
      <Link to="/admin/projects/$id" params={{ id: row.project.id }} className="link">
        {row.project.name}
      </Link>
    ),
  },
  { label: 'Организация', cell: (row) => row.organization.name },
  { label: 'Статус', cell: (row) => <StatusBadge status={row.status} /> },
  { label: 'Оценка', cell: (row) => formatNumber(row.score) },
  { label: 'Стоимость, токенов', cell: (row) => formatNumber(row.cost) },
  { label: 'Автор', cell: (row) => row.author?.full_name ?? '—' },
  { label: 'Создан', cell: (row) => formatDateTime(row.created_at) },
  {
    label: 'Анализ',
    cell: (row) => (
      <Link to="/admin/analyses/$analysisId" params={{ analysisId: row.id }} className="link">
        Подробнее
      </Link>
    ),
  },
];

const projectColumns: Column<AdminProjectItem>[] = [
  { label: 'Название', cell: (row) => row.name },
  { label: 'Организация', cell: (row) => row.organization.name },
  { label: 'Рекламная система', cell: (row) => adPlatformLabels[row.platform] },
  { label: 'Анализов', cell: (row) => formatNumber(row.analyses_count) },
  { label: 'Последняя оценка', cell: (row) => formatNumber(row.last_analysis?.score) },
  { label: 'Создан', cell: (row) => formatDateTime(row.created_at) },
  {
    label: 'Проект',
    cell: (row) => (
      <Link to="/admin/projects/$id" params={{ id: row.id }} className="link">
        Открыть
      </Link>
    ),
  },
];

function AdminOverviewRoute() {
  const { page = 1, q } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const overview = useQuery(adminOverviewQuery(page, q));
  const [query, setQuery] = useState(q ?? '');
  const data = overview.data;

  const search = (event: FormEvent) => {
    event.preventDefault();
    void navigate({ search: query.trim() ? { q: query.trim() } : {} });
  };

  return (
    <div className="stack">
      <h1>Обзор платформы</h1>
      <QueryState isPending={overview.isPending} error={overview.error} emptyText="" onRetry={() => void overview.refetch()}>
        {data && (
          <>
            <div className="stat-grid">
              <Stat value={data.counts.organizations} label="Организаций" />
              <Stat value={data.counts.users} label="Пользователей" />
              <Stat value={data.counts.projects} label="Проектов" />
              <Stat value={data.counts.analyses} label="Анализов" />
              <Stat value={data.counts.tokens_spent} label="Потрачено токенов" />
            </div>

            <OverviewCharts />

            <section className="card">
              <h2 className="card__title">Последние анализы</h2>
              {data.recent_analyses.length === 0 ? (
                <p className="muted">Анализов пока не было.</p>
              ) : (
                <Table rows={data.recent_analyses} columns={recentColumns} caption="Последние анализы" />
              )}
            </section>

            <section className="card">
              <div className="card__header">
                <h2 className="card__title">Проекты всех организаций</h2>
                <form className="inline-form" role="search" onSubmit={search}>
                  <input
                    className="input input--small"
                    type="search"
                    placeholder="Проект или организация"
                    aria-label="Поиск проектов"
                    value={query}
                    onChange={(event) => setQuery(event.target.value)}
                  />
                  <button type="submit" className="btn btn--secondary btn--small">
                    Найти
                  </button>
                </form>
              </div>
              {data.projects.items.length === 0 ? (
                <p className="muted">{q ? 'Проекты не найдены.' : 'Проектов пока нет.'}</p>
              ) : (
                <>
                  <Table rows={data.projects.items} columns={projectColumns} caption="Проекты всех организаций" />
                  <Pager
                    label="Страницы проектов"
                    page={data.projects.page}
                    pageSize={data.projects.page_size}
                    total={data.projects.total}
                    onPage={(next) => void navigate({ search: (prev: OverviewSearch) => ({ ...prev, page: next }) })}
                  />
                </>
              )}
            </section>
          </>
        )}
      </QueryState>
    </div>
  );
}
