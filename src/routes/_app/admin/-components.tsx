import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { formatValue } from '../../../lib/format';
import type { AdminRecord } from './-api';

/** Russian names of the fields the admin screens know; anything else is shown by its key. */
const FIELD_LABELS: Record<string, string> = {
  id: 'ID',
  name: 'Название',
  title: 'Название',
  status: 'Статус',
  stage: 'Этап',
  progress: 'Прогресс, %',
  kind: 'Вид анализа',
  type: 'Тип',
  platform: 'Рекламная система',
  score: 'Оценка',
  cost: 'Стоимость, токенов',
  organization_id: 'ID организации',
  organization_name: 'Организация',
  owner_email: 'Владелец',
  author_email: 'Автор',
  created_by: 'Автор',
  project_id: 'ID проекта',
  project_name: 'Проект',
  campaigns_count: 'Кампаний',
  keywords_count: 'Ключевых фраз',
  ads_count: 'Объявлений',
  analyses_count: 'Анализов',
  error: 'Ошибка',
  created_at: 'Создан',
  updated_at: 'Изменён',
  started_at: 'Начат',
  finished_at: 'Завершён',
  users: 'Пользователей',
  organizations: 'Организаций',
  projects: 'Проектов',
  analyses: 'Анализов',
};

export const labelOf = (key: string) => FIELD_LABELS[key] ?? key;

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

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
        <p>{notFound ? 'Данные не найдены или раздел ещё недоступен на сервере.' : error.message}</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
          Повторить
        </button>
      </div>
    );
  }
  if (isEmpty) return <p className="state-card muted">{emptyText}</p>;
  return <>{children}</>;
}

/** Every scalar field of a record as a definition list; nested data is left to dedicated blocks. */
export function DetailList({ record, omit = [] }: { record: AdminRecord; omit?: string[] }) {
  const entries = Object.entries(record).filter(([key, value]) => isScalar(value) && !omit.includes(key));
  return (
    <dl className="details">
      {entries.map(([key, value]) => (
        <div className="details__row" key={key}>
          <dt>{labelOf(key)}</dt>
          <dd>{formatValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Nested parts of a record (findings, breakdowns…) as titled, readable blocks. */
export function NestedBlocks({ record }: { record: AdminRecord }) {
  const nested = Object.entries(record).filter(([, value]) => !isScalar(value) && value !== undefined);
  if (nested.length === 0) return null;
  return (
    <div className="stack">
      {nested.map(([key, value]) => (
        <section className="card" key={key}>
          <h3 className="card__title">{labelOf(key)}</h3>
          {Array.isArray(value) && value.every((item) => item && typeof item === 'object') && value.length > 0 ? (
            <RecordTable rows={value as AdminRecord[]} />
          ) : (
            <pre className="code-block">{JSON.stringify(value, null, 2)}</pre>
          )}
        </section>
      ))}
    </div>
  );
}

/** A table over the scalar columns of a list of records. */
export function RecordTable({
  rows,
  columns,
  linkFor,
}: {
  rows: AdminRecord[];
  columns?: string[];
  linkFor?: (row: AdminRecord) => ReactNode;
}) {
  const keys = columns ?? Array.from(new Set(rows.flatMap((row) => Object.keys(row).filter((key) => isScalar(row[key]))))).slice(0, 8);
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {keys.map((key) => (
              <th key={key} scope="col">
                {labelOf(key)}
              </th>
            ))}
            {linkFor && <th scope="col" aria-label="Действия" />}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={String(row.id ?? index)}>
              {keys.map((key) => (
                <td key={key} data-label={labelOf(key)}>
                  {formatValue(row[key])}
                </td>
              ))}
              {linkFor && <td>{linkFor(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Страницы">
      <button type="button" className="btn btn--secondary btn--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Назад
      </button>
      <span className="pager__info">
        {page} из {pages}
      </span>
      <button type="button" className="btn btn--secondary btn--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Вперёд
      </button>
    </nav>
  );
}

export function AdminBackLink({ to, params, children }: { to: string; params?: Record<string, string>; children: ReactNode }) {
  return (
    // The admin tree is small; a plain typed-less link keeps these helpers reusable across its screens.
    <Link to={to as '/admin'} params={params as never} className="link back-link">
      ← {children}
    </Link>
  );
}

/** The preferred columns the API actually returns, else whatever it returns. */
export function pickColumns(sample: Record<string, unknown> | undefined, preferred: string[]): string[] | undefined {
  if (!sample) return undefined;
  const present = preferred.filter((key) => key in sample);
  return present.length > 0 ? present : undefined;
}
