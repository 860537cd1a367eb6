import { QueryError } from './QueryError';
import { notSavedOffline } from './PageStates';

/** One drop-down of the bar: its current value, the Russian label of each value, and its name for screen readers. */
interface Choice<T extends string> {
  value: T;
  labels: Record<T, string>;
  onChange: (value: T) => void;
  ariaLabel: string;
  className?: string;
}

function ChoiceSelect<T extends string>({ value, labels, onChange, ariaLabel, className }: Choice<T>) {
  return (
    <select className={className ? `select ${className}` : 'select'} aria-label={ariaLabel} value={value} onChange={(event) => onChange(event.target.value as T)}>
      {(Object.keys(labels) as T[]).map((key) => (
        <option key={key} value={key}>
          {labels[key]}
        </option>
      ))}
    </select>
  );
}

interface BarProps<S extends string, F extends string> {
  /** The bar's layout class of the screen it stands on. */
  className: string;
  search: string;
  onSearchChange: (search: string) => void;
  /** «Показать»: which of the list to show (the board has it; the project list does not). */
  filter?: Omit<Choice<F>, 'ariaLabel'>;
  sort: Omit<Choice<S>, 'ariaLabel'>;
}

/** A list's search by name, its optional filter and its sort, as the project list and the board show them. */
export function SearchSortBar<S extends string, F extends string = never>({ className, search, onSearchChange, filter, sort }: BarProps<S, F>) {
  return (
    <div className={className} role="search">
      <input
        type="search"
        className="input"
        placeholder="Поиск по названию"
        aria-label="Поиск по названию"
        value={search}
        onChange={(event) => onSearchChange(event.target.value)}
      />
      {filter && <ChoiceSelect {...filter} ariaLabel="Показать" />}
      <ChoiceSelect {...sort} ariaLabel="Сортировка" />
    </div>
  );
}

interface PendingProps {
  offline: boolean;
  error: string | null;
  onRetry: () => void;
}

/** Whether a project list has nothing to show yet and says why instead ({@link ProjectsPending}). */
export const projectsPending = ({ projects, loading, error }: { projects: unknown; loading: boolean; error: string | null }) => !projects && (Boolean(error) || loading);

/** A project list's place while it has no list: the error with a retry, offline with no saved copy, or the spinner. */
export function ProjectsPending({ offline, error, onRetry }: PendingProps) {
  if (error) return <QueryError error={{ message: error }} onRetry={onRetry} />;
  if (offline) {
    return (
      <p className="muted" role="status" data-testid="needs-network">
        {notSavedOffline('проекты')}
      </p>
    );
  }
  return (
    <div className="state-line">
      <span className="spinner" role="status" aria-label="Загрузка проектов" />
    </div>
  );
}
