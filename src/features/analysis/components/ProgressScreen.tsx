import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { analysisStageLabels, type AnalysisStage } from '@contract/analysis.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { useWaitsForNetwork } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { analysisKeys, cancelAnalysis } from '@/features/analysis/api';
import { useTokensMoved, useTokensMovedWhenRunEnds } from '@/lib/paid-runs';
import { projectKeys } from '@/lib/projects-api';
import { auditChangeKeys } from '@/lib/audit-changes-api';
import { formatCount, formatTokens } from '@/lib/analysis-format';
import { failureMessage, REFUND_NOTE, reportOutcome, setOnScreen } from '@/features/analysis/outcome';
import { useAnalysisProgress } from '@/features/analysis/useAnalysisProgress';
import { AnalysisStatusBadge } from './AnalysisStatusBadge';

/** How long 100 % stays on screen before the results open. */
export const MOVE_ON_DELAY_MS = 800;

export function stageLabel(stage: string | null | undefined): string {
  if (!stage) return analysisStageLabels.queued;
  return analysisStageLabels[stage as AnalysisStage] ?? stage;
}

type Progress = ReturnType<typeof useAnalysisProgress>;

/**
 * /projects/{id}/analysis/{analysisId}/scoring-progress: live stage and percent, cancel, then on to the
 * results (the score and the money the audit was paid for; the suggestions are a click away from there).
 */
export function ProgressScreen({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  const progress = useAnalysisProgress(analysisId);
  const { analysis, transport, isError, error, refetch } = progress;
  const offline = useWaitsForNetwork(progress);
  // A failed analysis was refunded: the header's balance shows it at once.
  useTokensMovedWhenRunEnds(analysis && analysis.status !== 'queued' && analysis.status !== 'running');

  useEffect(() => setOnScreen(analysisId, true), [analysisId]);
  useEffect(() => {
    if (analysis) reportOutcome(analysis);
  }, [analysis]);
  useResultsWhenCompleted(projectId, analysisId, analysis?.status === 'completed');

  if (!analysis) {
    return (
      <section className="page analysis-page">
        {isError && error ? (
          <QueryError error={error} onRetry={() => void refetch()} />
        ) : offline ? (
          <p className="muted" role="status" data-testid="needs-network">
            Нет подключения к сети: ход анализа покажем, когда связь появится.
          </p>
        ) : (
          <p className="state-line">
            <span className="spinner" role="status" aria-label="Загрузка анализа" />
          </p>
        )}
      </section>
    );
  }

  return (
    <section className="page analysis-page analysis-progress">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Анализ кампаний</h1>
        <AnalysisStatusBadge status={analysis.status} />
      </header>
      <ProgressCard analysis={analysis} transport={transport} />
      <ProgressActions projectId={projectId} analysisId={analysisId} analysis={analysis} />
    </section>
  );
}

/**
 * Once the run is completed: the project's last audit, its trend and «what changed», the list and the board
 * move with it; after {@link MOVE_ON_DELAY_MS} at 100 % the results open.
 */
function useResultsWhenCompleted(projectId: string, analysisId: string, completed: boolean) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!completed) return;
    void queryClient.invalidateQueries({ queryKey: projectKeys.all });
    void queryClient.invalidateQueries({ queryKey: auditChangeKeys.board });
  }, [completed, queryClient]);
  useEffect(() => {
    if (!completed) return;
    const timer = setTimeout(() => {
      void navigate({ to: '/projects/$id/analysis/$analysisId/results', params: { id: projectId, analysisId }, replace: true });
    }, MOVE_ON_DELAY_MS);
    return () => clearTimeout(timer);
  }, [completed, navigate, projectId, analysisId]);
}

/** The stage, the bar and its percent, and how the run ended. */
function ProgressCard({ analysis, transport }: { analysis: NonNullable<Progress['analysis']>; transport: Progress['transport'] }) {
  const completed = analysis.status === 'completed';
  const running = analysis.status === 'queued' || analysis.status === 'running';
  const percent = Math.max(0, Math.min(100, Math.round(completed ? 100 : analysis.progress)));
  const detail = analysis.progress_detail;
  return (
    <div className="card analysis-progress__card">
      <p className="analysis-progress__stage" data-testid="analysis-stage">
        {completed ? analysisStageLabels.done : stageLabel(analysis.stage)}
      </p>
      <div className="analysis-progress__bar" role="progressbar" aria-label="Ход анализа" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className={`analysis-progress__fill analysis-progress__fill--${analysis.status}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="analysis-progress__numbers">
        <strong data-testid="analysis-percent">{percent} %</strong>
        {running && detail && detail.total > 0 && (
          <span className="muted">
            {' '}
            · {formatCount(detail.done)} из {formatCount(detail.total)}
          </span>
        )}
      </p>
      {running && (
        <p className="muted analysis-progress__transport">
          {transport === 'stream' ? 'Обновляется в реальном времени' : 'Обновляется каждые 2 секунды'} · списано {formatTokens(analysis.cost)}
        </p>
      )}
      {completed && <p className="form-success">Анализ завершён. Открываем результаты…</p>}
      {analysis.status === 'failed' && (
        <div className="form-error" role="alert">
          <p>{failureMessage(analysis)}</p>
        </div>
      )}
      {analysis.status === 'cancelled' && (
        <p className="muted" role="status">
          Анализ отменён. {REFUND_NOTE}.
        </p>
      )}
    </div>
  );
}

/** Cancel (confirmed first) while it runs; the results, or a new run, once it is over; the history always. */
function ProgressActions({ projectId, analysisId, analysis }: { projectId: string; analysisId: string; analysis: NonNullable<Progress['analysis']> }) {
  const queryClient = useQueryClient();
  const tokensMoved = useTokensMoved();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelAnalysis(analysisId),
    onSuccess: (updated) => {
      queryClient.setQueryData(analysisKeys.detail(analysisId), updated);
      tokensMoved();
      setConfirming(false);
    },
  });
  const running = analysis.status === 'queued' || analysis.status === 'running';
  return (
    <>
      {cancel.isError && (
        <p className="form-error" role="alert">
          Не удалось отменить анализ: {cancel.error.message}
        </p>
      )}

      <div className="analysis-actions">
        {running && (
          <button type="button" className="btn btn--secondary" onClick={() => setConfirming(true)} disabled={cancel.isPending}>
            Отменить анализ
          </button>
        )}
        {analysis.status === 'completed' && (
          <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId }} className="btn btn--primary">
            К результатам
          </Link>
        )}
        {(analysis.status === 'failed' || analysis.status === 'cancelled') && (
          <Link to="/projects/$id/analysis/new" params={{ id: projectId }} className="btn btn--primary">
            Запустить заново
          </Link>
        )}
        <Link to="/projects/$id/analysis/history" params={{ id: projectId }} className="btn btn--ghost">
          История анализов
        </Link>
      </div>

      {confirming && (
        <ConfirmDialog
          title="Отменить анализ?"
          confirmLabel="Отменить анализ"
          cancelLabel="Продолжить"
          danger
          busy={cancel.isPending}
          onConfirm={() => cancel.mutate()}
          onCancel={() => setConfirming(false)}
        >
          Анализ остановится, списанные токены вернутся на баланс.
        </ConfirmDialog>
      )}
    </>
  );
}
