import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Analysis } from '@contract/analysis.js';
import { AnalysisNotFound } from '@/components/ui/PageStates';
import { ApiError } from '@/lib/api-client';
import { analysisQueryOptions } from '@/features/analysis/api';
import { failureMessage } from '@/features/analysis/outcome';

/**
 * What a results screen shows when there are no results to show: the run is still going (a link to
 * its progress), failed or was cancelled (tokens refunded), or does not exist.
 */
export function AnalysisGate({
  projectId,
  analysisId,
  analysis: given,
  error,
  children,
}: {
  projectId: string;
  analysisId: string;
  analysis?: Analysis;
  error?: Error | null;
  children?: ReactNode;
}) {
  const notFound = error instanceof ApiError && error.status === 404;
  // A results call refused for an unfinished run says little: ask the run itself.
  const lookup = useQuery({ ...analysisQueryOptions(analysisId), enabled: !given && Boolean(error) && !notFound });
  const analysis = given ?? lookup.data;

  if (notFound) return <AnalysisNotFound projectId={projectId} />;
  if (analysis && (analysis.status === 'queued' || analysis.status === 'running')) {
    return (
      <div className="state-card">
        <h1>Анализ ещё выполняется</h1>
        <p className="muted">Результаты появятся, когда он завершится.</p>
        <Link to="/projects/$id/analysis/$analysisId/scoring-progress" params={{ id: projectId, analysisId }} className="btn btn--primary">
          К ходу анализа
        </Link>
      </div>
    );
  }
  if (analysis && (analysis.status === 'failed' || analysis.status === 'cancelled')) {
    return (
      <div className="state-card state-card--error" role="alert">
        <h1>{analysis.status === 'failed' ? 'Анализ не выполнен' : 'Анализ отменён'}</h1>
        <p>{analysis.status === 'failed' ? failureMessage(analysis) : 'Токены возвращены на баланс.'}</p>
        <Link to="/projects/$id/analysis/new" params={{ id: projectId }} className="btn btn--primary">
          Запустить заново
        </Link>
      </div>
    );
  }
  return <>{children ?? <p className="muted">Результатов пока нет.</p>}</>;
}
