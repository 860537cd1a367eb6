import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { queueLabels, runKindLabels, STUCK_AFTER_MINUTES, type AdminRun } from '@contract/admin.js';
import { analysisErrorCodeLabels, analysisStatusLabels, type AnalysisErrorCode } from '@contract/analysis.js';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { Pager } from '@/components/ui/Pager';
import { formatDateTime, formatNumber, formatTokens } from '@contract/format';
import { adminKeys, adminQueuesQuery, adminRunsQuery, cancelRun, retryRun } from './api';
import { QueryState, Table, type Column } from './components';

export type RunsState = 'failed' | 'stuck';
export interface RunsSearch {
  state?: RunsState;
  page?: number;
}

const reasonOf = (run: AdminRun) => {
  const code = run.error_code && run.error_code in analysisErrorCodeLabels ? analysisErrorCodeLabels[run.error_code as AnalysisErrorCode] : null;
  if (run.error && code && run.error !== code) return `${code}: ${run.error}`;
  return run.error ?? code ?? (run.stuck ? `Нет признаков работы дольше ${STUCK_AFTER_MINUTES} мин.` : '—');
};

/** Failed and stuck runs with their reason, retried or cancelled (refunded) from here; the job queues below. */
export function RunsScreen({ search, onSearch }: { search: RunsSearch; onSearch: (next: RunsSearch) => void }) {
  const { state = 'failed', page = 1 } = search;
  const runs = useQuery(adminRunsQuery(state, page));
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState<AdminRun | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });

  const cancel = useMutation({
    mutationFn: (run: AdminRun) => cancelRun(run.kind, run.id),
    onSuccess: async (run) => {
      toast.success(run.cost > 0 && run.author ? `Запуск отменён, ${formatTokens(run.cost)} возвращено: ${run.author.email}.` : 'Запуск отменён.');
      setCancelling(null);
      await refresh();
    },
    onError: (error: Error) => toast.error(error.message),
  });
  const retry = useMutation({
    mutationFn: (run: AdminRun) => retryRun(run.kind, run.id),
    onSuccess: async (answer) => {
      // A stuck run resumes as itself (paid already); a failed one starts as a new run of its author.
      const resumed = answer.run.id === answer.retried_from;
      toast.success(resumed ? 'Запуск возобновлён на новой задаче, без нового списания.' : `Запущен заново${answer.run.cost > 0 ? `, списано ${formatTokens(answer.run.cost)} с баланса автора` : ''}.`);
      await refresh();
    },
    onError: (error: Error) => toast.error(error.message),
  });

  const columns = runColumns({ onRetry: (run) => retry.mutate(run), retrying: retry.isPending, onCancel: setCancelling });

  const data = runs.data;
  return (
    <div className="stack">
      <h1>Запуски и очереди</h1>
      <RunsStateFilter state={state} onSearch={onSearch} />
      <p className="muted">
        «Повторить»: зависший запуск возобновляется на новой задаче без нового списания; неудавшийся или отменённый (его цена уже возвращена) запускается заново от имени автора и оплачивается с его баланса. «Отменить» возвращает токены автору.
      </p>
      <QueryState
        isPending={runs.isPending}
        error={runs.error}
        isEmpty={data?.items.length === 0}
        emptyText={state === 'failed' ? 'Неудавшихся запусков нет.' : 'Зависших запусков нет.'}
        onRetry={() => void runs.refetch()}
      >
        {data && (
          <>
            <Table rows={data.items} columns={columns} caption="Запуски" />
            <Pager label="Страницы запусков" page={data.page} pageSize={data.page_size} total={data.total} pending={runs.isPlaceholderData} onPage={(next) => onSearch({ state, page: next })} />
          </>
        )}
      </QueryState>
      <QueuesCard />
      {cancelling && (
        <ConfirmDialog title="Отменить запуск?" confirmLabel="Отменить запуск" cancelLabel="Не отменять" danger busy={cancel.isPending} onConfirm={() => cancel.mutate(cancelling)} onCancel={() => setCancelling(null)}>
          {runKindLabels[cancelling.kind]} «{cancelling.project?.name ?? '—'}» остановится, {formatTokens(cancelling.cost)} вернутся автору{cancelling.author ? ` (${cancelling.author.email})` : ''}.
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The table's columns: kind, project, organization, author, status, reason, cost, date, and the actions on the run. */
function runColumns({ onRetry, retrying, onCancel }: { onRetry: (run: AdminRun) => void; retrying: boolean; onCancel: (run: AdminRun) => void }): Column<AdminRun>[] {
return [
  { label: 'Вид', cell: (run) => runKindLabels[run.kind] },
  {
    label: 'Проект',
    cell: (run) =>
      run.project ? (
        <Link to="/admin/projects/$id" params={{ id: run.project.id }} className="link">
          {run.project.name}
        </Link>
      ) : (
        '—'
      ),
  },
  { label: 'Организация', cell: (run) => run.organization.name },
  { label: 'Автор', cell: (run) => run.author?.email ?? '—' },
  { label: 'Статус', cell: (run) => `${analysisStatusLabels[run.status]}${run.stuck ? ' (завис)' : ''}` },
  { label: 'Причина', cell: (run) => <span className="admin-reason">{reasonOf(run)}</span> },
  { label: 'Стоимость, токенов', cell: (run) => formatNumber(run.cost) },
  { label: 'Создан', cell: (run) => formatDateTime(run.created_at) },
  {
    label: 'Действия',
    cell: (run) => (
      <div className="admin-actions">
        {run.kind === 'audit' && (
          <Link to="/admin/analyses/$analysisId" params={{ analysisId: run.id }} className="btn btn--secondary btn--small">
            Открыть
          </Link>
        )}
        <button type="button" className="btn btn--secondary btn--small" disabled={retrying} onClick={() => onRetry(run)} aria-label={`Повторить: ${runKindLabels[run.kind]} ${run.project?.name ?? ''}`}>
          Повторить
        </button>
        {(run.status === 'queued' || run.status === 'running') && (
          <button type="button" className="btn btn--danger btn--small" onClick={() => onCancel(run)} aria-label={`Отменить: ${runKindLabels[run.kind]} ${run.project?.name ?? ''}`}>
            Отменить
          </button>
        )}
      </div>
    ),
  },
];
}

/** «Неудавшиеся» or «Зависшие». */
function RunsStateFilter({ state, onSearch }: { state: RunsState; onSearch: (next: RunsSearch) => void }) {
  return (
    <div className="admin-filters" role="group" aria-label="Какие запуски показать">
      {(['failed', 'stuck'] as const).map((option) => (
        <button key={option} type="button" className={`btn btn--small ${option === state ? 'btn--primary' : 'btn--secondary'}`} aria-pressed={option === state} onClick={() => onSearch({ state: option })}>
          {option === 'failed' ? 'Неудавшиеся' : `Зависшие (дольше ${STUCK_AFTER_MINUTES} мин.)`}
        </button>
      ))}
    </div>
  );
}

/** pg-boss's jobs per queue and state, polled while the screen is open. */
function QueuesCard() {
  const queues = useQuery(adminQueuesQuery());
  const data = queues.data;
  const rows = (data?.queues ?? []).map((queue) => ({ ...queue, id: queue.name }));
  type Row = (typeof rows)[number];
  const columns: Column<Row>[] = [
    { label: 'Очередь', cell: (queue) => queueLabels[queue.name] ?? queue.name },
    { label: 'Ждут', cell: (queue) => formatNumber(queue.waiting) },
    { label: 'Выполняются', cell: (queue) => formatNumber(queue.active) },
    { label: 'Ошибки', cell: (queue) => formatNumber(queue.failed) },
    { label: 'Выполнены', cell: (queue) => formatNumber(queue.completed) },
    { label: 'Отменены', cell: (queue) => formatNumber(queue.cancelled) },
    { label: 'Ждёт дольше всех с', cell: (queue) => (queue.oldest_waiting_at ? formatDateTime(queue.oldest_waiting_at) : '—') },
  ];
  return (
    <section className="card">
      <h2 className="card__title">Очереди задач</h2>
      <QueryState isPending={queues.isPending} error={queues.error} isEmpty={data ? !data.available : false} emptyText="Очередь задач не запущена на этом сервере." onRetry={() => void queues.refetch()}>
        <Table rows={rows} columns={columns} caption="Очереди задач" />
        <p className="muted">Выполненные и неудавшиеся задачи через 12 часов уходят в архив: эти столбцы — за последние часы.</p>
      </QueryState>
    </section>
  );
}
