import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { AdminOrganization } from '@contract/admin.js';
import { Pager } from '@/components/ui/Pager';
import { formatDate, formatNumber } from '@contract/format';
import { planLabel } from '@contract/labels';
import { adminOrganizationsQuery } from './api';
import { QueryState, Table, type Column } from './components';

export interface OrganizationsSearch {
  page?: number;
  q?: string;
}

const columns: Column<AdminOrganization>[] = [
  {
    label: 'Организация',
    cell: (org) => (
      <Link to="/admin/organizations/$id" params={{ id: org.id }} className="link">
        {org.name}
      </Link>
    ),
  },
  { label: 'Тариф', cell: (org) => <span className="badge badge--muted">{planLabel(org.plan_type)}</span> },
  { label: 'Владелец', cell: (org) => (org.owner ? `${org.owner.full_name} (${org.owner.email})` : '—') },
  { label: 'Участников', cell: (org) => formatNumber(org.members_count) },
  { label: 'Баланс участников, токенов', cell: (org) => formatNumber(org.balance_total) },
  { label: 'Создана', cell: (org) => formatDate(org.created_at) },
];

/** Organizations of the platform: plan, members, balances; a click opens one to change its plan. */
export function OrganizationsScreen({ search, onSearch }: { search: OrganizationsSearch; onSearch: (next: OrganizationsSearch) => void }) {
  const { page = 1, q } = search;
  const organizations = useQuery(adminOrganizationsQuery(page, q));
  const [query, setQuery] = useState(q ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(query.trim() ? { q: query.trim() } : {});
  };
  const data = organizations.data;
  return (
    <div className="stack">
      <h1>Организации</h1>
      <form className="admin-filters" role="search" onSubmit={submit}>
        <input className="input input--small" type="search" placeholder="Название" aria-label="Поиск организаций" value={query} onChange={(event) => setQuery(event.target.value)} />
        <button type="submit" className="btn btn--secondary btn--small">
          Найти
        </button>
      </form>
      <QueryState
        isPending={organizations.isPending}
        error={organizations.error}
        isEmpty={data?.items.length === 0}
        emptyText={q ? 'Организации не найдены.' : 'Организаций нет.'}
        onRetry={() => void organizations.refetch()}
      >
        {data && (
          <>
            <Table rows={data.items} columns={columns} caption="Организации" />
            <Pager label="Страницы организаций" page={data.page} pageSize={data.page_size} total={data.total} pending={organizations.isPlaceholderData} onPage={(next) => onSearch({ ...search, page: next })} />
          </>
        )}
      </QueryState>
    </div>
  );
}
