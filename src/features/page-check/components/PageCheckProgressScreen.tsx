import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isFinished, pageCheckStageLabels, pageCheckStatusLabels, type PageCheck } from '@contract/page-check.js';
import { pageCheckRoutes } from '@contract/routes/page-check.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { AnalysisNotFound, PageLoading } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { ApiError } from '@/lib/api-client';
import { useLiveRun } from '@/lib/live-run';
import { useTokensMoved, useTokensMovedWhenRunEnds } from '@/lib/paid-runs';
import { cancelPageCheck, pageCheckKeys, pageCheckQueryOptions } from '@/features/page-check/api';
import { formatCount, formatTokens } from '@/features/page-check/format';

interface Props {
  projectId: string;
  analysisId: string;
}

/** The run in an event's body (`{analysis}`, as its GET answers). */
const runOfEvent = (body: unknown) => {
  const analysis = (body as { analysis?: PageCheck } | null)?.analysis;
  return typeof analysis?.id === 'string' && typeof analysis.status === 'string' ? analysis : null;
};
const isRunFinished = (analysis: PageCheck) => isFinished(analysis.status);

/**
 * /projects/{id}/page-check/{analysisId}/progress: the run's stage and pages read so far, live
 * (src/lib/live-run.ts); moves on to the results as soon as the run is completed.
 */
export function PageCheckProgressScreen({ projectId, analysisId }: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const run = useLiveRun({ query: pageCheckQueryOptions(analysisId), events: pageCheckRoutes.events, id: analysisId, fromEvent: runOfEvent, finished: isRunFinished });
  const analysis = run.data;
  const tokensMoved = useTokensMoved();
  // A failed run was refunded, a completed one may have been for pages it could not read.
  useTokensMovedWhenRunEnds(analysis && analysis.status !== 'queued' && analysis.status !== 'running');

  useEffect(() => {
    if (analysis?.status === 'completed') {
      void navigate({ to: '/projects/$id/page-check/$analysisId/results', params: { id: projectId, analysisId }, replace: true });
    }
  }, [analysis?.status, analysisId, navigate, projectId]);

  const cancel = useMutation({
    mutationFn: () => cancelPageCheck(analysisId),
    onSuccess: (cancelled) => {
      queryClient.setQueryData(pageCheckKeys.detail(analysisId), cancelled);
      tokensMoved();
    },
  });

  if (run.isPending) {
    return <PageLoading label="Загрузка анализа" query={run} />;
  }
  if (!analysis) {
    const notFound = run.error instanceof ApiError && run.error.status === 404;
    return (
      <section className="page page--narrow">
        {notFound ? (
          <AnalysisNotFound projectId={projectId} />
        ) : (
          <QueryError error={run.error!} onRetry={() => void run.refetch()} />
        )}
      </section>
    );
  }

  const detail = analysis.progress_detail;
  const unfinished = analysis.status === 'queued' || analysis.status === 'running';
  return (
    <section className="page page--narrow page-check-page page-check-progress">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Проверка посадочных страниц</h1>
      </header>
      <div className="card">
        <p className="page-check-progress__status">
          <span className={`badge page-check-status page-check-status--${analysis.status}`}>{pageCheckStatusLabels[analysis.status]}</span>
          {unfinished && <span>{pageCheckStageLabels[analysis.stage]}</span>}
        </p>
        {unfinished && (
          <>
            <div className="page-check-bar page-check-bar--large" role="progressbar" aria-label="Ход проверки" aria-valuemin={0} aria-valuemax={100} aria-valuenow={analysis.progress}>
              <span style={{ width: `${analysis.progress}%` }} />
            </div>
            <p className="muted">
              {detail ? `Проверено страниц: ${formatCount(detail.done)} из ${formatCount(detail.total)}` : `Страниц к проверке: ${formatCount(analysis.pages_count)}`}
            </p>
            <button type="button" className="btn btn--secondary" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              {cancel.isPending ? 'Отменяем…' : 'Отменить'}
            </button>
            {cancel.error && (
              <p className="field__error" role="alert">
                {cancel.error.message}
              </p>
            )}
          </>
        )}
        {analysis.status === 'failed' && (
          <div className="state-card state-card--error" role="alert">
            <p>{analysis.error ?? 'Не удалось выполнить анализ'}</p>
            <p className="muted">{formatTokens(analysis.cost)} возвращены на баланс.</p>
          </div>
        )}
        {analysis.status === 'cancelled' && (
          <div className="state-card" role="status">
            <p>Анализ отменён, {formatTokens(analysis.cost)} возвращены на баланс.</p>
          </div>
        )}
        {(analysis.status === 'failed' || analysis.status === 'cancelled') && (
          <Link to="/projects/$id/page-check/new" params={{ id: projectId }} className="btn btn--primary">
            Запустить заново
          </Link>
        )}
      </div>
    </section>
  );
}
