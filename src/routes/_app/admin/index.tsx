import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { formatNumber } from '../../../lib/format';
import { adminProjectsQuery, adminStatsQuery } from './-api';
import { Pager, QueryState, RecordTable, labelOf, pickColumns } from './-components';

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
  component: AdminOverview,
});

const STAT_KEYS = ['users', 'organizations', 'projects', 'analyses'];

function AdminOverview() {
  const { page = 1, q } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const stats = useQuery(adminStatsQuery());
  const projects = useQuery(adminProjectsQuery(page, q));
  const [query, setQuery] = useState(q ?? '');

  const search = (event: FormEvent) => {
    event.preventDefault();
    void navigate({ search: query.trim() ? { q: query.trim() } : {} });
  };

  return (
    <div className="stack">
      <h1>Обзор платформы</h1>
      {stats.data && (
        <div className="stat-grid">
          {STAT_KEYS.filter((key) => typeof stats.data[key] === 'number').map((key) => (
            <div className="stat" key={key}>
              <span className="stat__value">{formatNumber(stats.data[key] as number)}</span>
              <span className="stat__label">{labelOf(key)}</span>
            </div>
          ))}
        </div>
      )}

      <section className="card">
        <div className="card__header">
          <h2 className="card__title">Проекты всех организаций</h2>
          <form className="inline-form" role="search" onSubmit={search}>
            <input
              className="input input--small"
              type="search"
              placeholder="Поиск по названию"
              aria-label="Поиск проектов"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            <button type="submit" className="btn btn--secondary btn--small">
              Найти
            </button>
          </form>
        </div>
        <QueryState
          isPending={projects.isPending}
          error={projects.error}
          isEmpty={projects.data?.items.length === 0}
          emptyText={q ? 'Проекты не найдены.' : 'Проектов пока нет.'}
          onRetry={() => void projects.refetch()}
        >
          {projects.data && (
            <>
              <RecordTable
                rows={projects.data.items}
                columns={pickColumns(projects.data.items[0], ['name', 'organization_name', 'owner_email', 'analyses_count', 'created_at'])}
                linkFor={(row) =>
                  row.id ? (
                    <Link to="/admin/projects/$id" params={{ id: String(row.id) }} className="link">
                      Открыть
                    </Link>
                  ) : null
                }
              />
              <Pager
                page={projects.data.page}
                pageSize={projects.data.page_size}
                total={projects.data.total}
                onPage={(next) => void navigate({ search: (prev: OverviewSearch) => ({ ...prev, page: next }) })}
              />
            </>
          )}
        </QueryState>
      </section>
    </div>
  );
}

