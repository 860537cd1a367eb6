import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { analysisStatusLabels, type AnalysisStatus } from '@contract/analysis.js';
import { ApiError } from '@/lib/api-client';
import { formatNumber } from '@contract/format';
import { useOnlineStatus } from '@/lib/useOnlineStatus';

/** Loading, empty and error states that say what happened and offer a retry. */
export function QueryState({
  isPending,
  error,
  isEmpty,
  emptyText,
  onRetry,
  children,
}: {
  isPending: boolean;
  error: Error | null;
  isEmpty?: boolean;
  emptyText: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  // Offline with nothing kept (admin answers are not saved on the device): said, not a spinner for ever.
  const online = useOnlineStatus();
  if (isPending && !online) {
    return (
      <p className="state-line" role="status" data-testid="needs-network">
        Нет подключения к сети: данные загрузятся, когда связь появится.
      </p>
    );
  }
  if (isPending) {
    return (
      <p className="state-line" role="status">
        <span className="spinner" aria-hidden="true" /> Загрузка…
      </p>
    );
  }
  if (error) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <div className="state-card state-card--error" role="alert">
        <p>{notFound ? 'Не найдено: такой записи нет или она удалена.' : error.message}</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
          Повторить
        </button>
      </div>
    );
  }
  if (isEmpty) return <p className="state-card muted">{emptyText}</p>;
  return <>{children}</>;
}

/** Label–value pairs as a definition list. */
export function Details({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <dl className="details">
      {rows.map(([label, value]) => (
        <div className="details__row" key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
}

/** A table whose cells carry their column name, so it reads as cards on a narrow screen. */
export function Table<Row extends { id: string }>({ rows, columns, caption }: { rows: Row[]; columns: Column<Row>[]; caption?: string }) {
  return (
    <div className="table-wrap">
      <table className="table">
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td key={column.label} data-label={column.label}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Stat({ value, label }: { value: number | null | undefined; label: string }) {
  return (
    <div className="stat">
      <span className="stat__value">{formatNumber(value)}</span>
      <span className="stat__label">{label}</span>
    </div>
  );
}

export function StatusBadge({ status }: { status: AnalysisStatus }) {
  const tone = status === 'completed' ? 'success' : status === 'failed' ? 'danger' : 'muted';
  return <span className={`badge badge--${tone}`}>{analysisStatusLabels[status]}</span>;
}

export function AdminBackLink({ to, params, children }: { to: string; params?: Record<string, string>; children: ReactNode }) {
  return (
    // The admin tree is small; a plain typed-less link keeps this helper reusable across its screens.
    <Link to={to as '/admin'} params={params as never} className="link back-link">
      ← {children}
    </Link>
  );
}
