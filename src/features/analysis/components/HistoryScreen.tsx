import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { analysisStatuses, analysisStatusLabels, type AnalysisHistoryItem, type AnalysisStatus } from '@contract/analysis.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { Pager } from '@/components/ui/Pager';
import { QueryError } from '@/components/ui/QueryError';
import { formatDateTime } from '@contract/format';
import { useSession } from '@/app/session';
import { HISTORY_PAGE_SIZE, historyQueryOptions } from '@/features/analysis/api';
import { formatCount, formatTokens, pluralRu } from '@/lib/analysis-format';
import { AnalysisStatusBadge } from './AnalysisStatusBadge';
import { MoneyLine } from '@/components/analysis/MoneyLine';
import { useAnalysisMoney } from '@/lib/analysis-results';

/** /projects/{id}/analysis/history: every analysis of the project, newest first, filter and pages. */
export function HistoryScreen({ projectId }: { projectId: string }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<AnalysisStatus | null>(null);
  const [mineOnly, setMineOnly] = useState(false);
  const userId = useSession().user?.id ?? null;
  const history = useQuery(historyQueryOptions(projectId, mineOnly && userId ? { page, status, authorId: userId } : { page, status }));

  return (
    <section className="page analysis-page analysis-history">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>История анализов</h1>
        <Link to="/projects/$id/analysis/new" params={{ id: projectId }} className="btn btn--primary">
          Новый анализ
        </Link>
      </header>

      <div className="analysis-history__filters">
      <div className="field analysis-history__filter">
        <label className="field__label" htmlFor="history-status">
          Статус
        </label>
        <select
          id="history-status"
          className="select"
          value={status ?? ''}
          onChange={(event) => {
            setStatus((event.target.value || null) as AnalysisStatus | null);
            setPage(1);
          }}
        >
          <option value="">Все</option>
          {analysisStatuses.map((value) => (
            <option key={value} value={value}>
              {analysisStatusLabels[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="field analysis-history__filter">
        <label className="field__label" htmlFor="history-author">
          Автор
        </label>
        <select
          id="history-author"
          className="select"
          value={mineOnly ? 'me' : ''}
          onChange={(event) => {
            setMineOnly(event.target.value === 'me');
            setPage(1);
          }}
        >
          <option value="">Все участники</option>
          <option value="me">Мои анализы</option>
        </select>
      </div>
      </div>

      {history.isPending && (
        <p className="state-line">
          <span className="spinner" role="status" aria-label="Загрузка истории" />
        </p>
      )}
      {history.isError && !history.data && <QueryError error={history.error} onRetry={() => void history.refetch()} />}
      {history.data && history.data.items.length === 0 && (
        <p className="muted">{status || mineOnly ? 'Анализов с такими условиями нет.' : 'Анализов пока не было. Запустите первый.'}</p>
      )}
      {history.data && history.data.items.length > 0 && (
        <>
          <ul className="history-list" aria-busy={history.isPlaceholderData}>
            {history.data.items.map((item) => (
              <HistoryRow key={item.id} projectId={projectId} item={item} />
            ))}
          </ul>
          <Pager label="Страницы истории анализов" page={page} pageSize={history.data.page_size || HISTORY_PAGE_SIZE} total={history.data.total} onPage={setPage} pending={history.isPlaceholderData} />
        </>
      )}
    </section>
  );
}

function HistoryRow({ projectId, item }: { projectId: string; item: AnalysisHistoryItem }) {
  const running = item.status === 'queued' || item.status === 'running';
  const money = useAnalysisMoney(item.status === 'completed' ? item.id : null, item.money_per_month);
  return (
    <li className="history-item" data-testid="history-item">
      <div className="history-item__main">
        <p className="history-item__date">{formatDateTime(item.created_at)}</p>
        <p className="muted">
          {item.author?.full_name ?? 'Автор неизвестен'} · {formatCount(item.campaigns_count)} {pluralRu(item.campaigns_count, ['кампания', 'кампании', 'кампаний'])} · {formatTokens(item.cost)}
          {(item.status === 'failed' || item.status === 'cancelled') && ' (возвращены)'}
        </p>
        {money !== null && (
          <p className="history-item__money">
            <MoneyLine perMonth={money} />
          </p>
        )}
      </div>
      <AnalysisStatusBadge status={item.status} />
      <p className="history-item__score">{item.score === null ? '—' : `${Math.round(item.score)} / 100`}</p>
      <div className="history-item__link">
        {item.status === 'completed' ? (
          <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId: item.id }} className="link">
            Результаты
          </Link>
        ) : running ? (
          <Link to="/projects/$id/analysis/$analysisId/scoring-progress" params={{ id: projectId, analysisId: item.id }} className="link">
            Ход анализа
          </Link>
        ) : null}
      </div>
    </li>
  );
}
