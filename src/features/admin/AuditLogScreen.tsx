import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@contract/admin.js';
import { auditActionLabels, runKindLabels, type RunKind } from '@contract/admin.js';
import { analysisStatusLabels, type AnalysisStatus } from '@contract/analysis.js';
import { planLabel, roleLabel } from '@contract/labels';
import { Pager } from '@/components/ui/Pager';
import { formatDateTime, formatValue } from '@contract/format';
import { adminAuditLogQuery } from './api';
import { QueryState, Table, type Column } from './components';

export interface AuditSearch {
  page?: number;
  action?: string;
}

/**
 * What the details of an entry say, as «key: value» pairs (ids of rows left out), in the order of
 * `detailLabels` (PostgreSQL's jsonb keeps keys in an order of its own), unknown keys last.
 */
const detailsText = (details: Record<string, unknown>) => {
  const order = Object.keys(detailLabels);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(details)
    .filter(([key]) => !key.endsWith('_id'))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => `${detailLabels[key] ?? key}: ${typeof value === 'string' && detailValues[key] ? detailValues[key](value) : formatValue(value)}`)
    .join('; ');
};

const detailLabels: Record<string, string> = {
  amount: 'сумма',
  reason: 'причина',
  balance_after: 'баланс после',
  email: 'email',
  source: 'откуда',
  from: 'было',
  to: 'стало',
  name: 'организация',
  kind: 'вид',
  status_before: 'статус до',
  refunded: 'возвращено',
  cost: 'списано',
  role: 'роль',
  invoice_number: 'счёт №',
  tokens: 'токенов',
  amount_rub: 'сумма, ₽',
  resumed: 'продолжен с места остановки',
};

/** Where the crediting came from, as `source` records it. */
const creditSources: Record<string, string> = { api: 'админка', cli: 'командная строка' };

/** Machine values of the details in Russian (a plan's code, a run's kind and status, a role); unknown ones as they are. */
const detailValues: Record<string, (value: string) => string> = {
  from: planLabel,
  to: planLabel,
  kind: (value) => runKindLabels[value as RunKind] ?? value,
  status_before: (value) => analysisStatusLabels[value as AnalysisStatus] ?? value,
  role: roleLabel,
  source: (value) => creditSources[value] ?? value,
};

const columns: Column<AuditEntry>[] = [
  { label: 'Когда', cell: (entry) => formatDateTime(entry.created_at) },
  { label: 'Кто', cell: (entry) => entry.actor?.email ?? 'командная строка' },
  { label: 'Действие', cell: (entry) => auditActionLabels[entry.action] ?? entry.action },
  { label: 'Над кем', cell: (entry) => entry.target_user?.email ?? entry.organization?.name ?? '—' },
  { label: 'Подробности', cell: (entry) => <span className="admin-details">{detailsText(entry.details) || '—'}</span> },
];

/** Every admin action, newest first, filtered by kind. */
export function AuditLogScreen({ search, onSearch }: { search: AuditSearch; onSearch: (next: AuditSearch) => void }) {
  const { page = 1, action } = search;
  const log = useQuery(adminAuditLogQuery(page, action));
  const data = log.data;
  return (
    <div className="stack">
      <h1>Журнал действий</h1>
      <label className="admin-filters">
        <span>Действие</span>
        <select className="input input--small" value={action ?? ''} onChange={(event) => onSearch(event.target.value ? { action: event.target.value } : {})}>
          <option value="">Все</option>
          {Object.entries(auditActionLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <QueryState isPending={log.isPending} error={log.error} isEmpty={data?.items.length === 0} emptyText="Записей нет." onRetry={() => void log.refetch()}>
        {data && (
          <>
            <Table rows={data.items} columns={columns} caption="Журнал действий" />
            <Pager label="Страницы журнала" page={data.page} pageSize={data.page_size} total={data.total} pending={log.isPlaceholderData} onPage={(next) => onSearch({ ...search, page: next })} />
          </>
        )}
      </QueryState>
    </div>
  );
}
