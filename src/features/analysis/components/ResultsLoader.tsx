import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PagedResults } from '@contract/analysis-pages.js';
import { PageLoading } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { useOnlineStatus } from '@/lib/useOnlineStatus';
import { resultsQueryOptions } from '@/lib/analysis-results';
import { AnalysisGate } from './AnalysisGate';

/**
 * Loads an analysis' results answer (summary + first findings page) for the screens built on it
 * (results, suggestions, plan) and hands it to `children` once there is one. Meanwhile a spinner; for a
 * run still going, failed, cancelled or missing (the server answers 409/404), the same gate on every
 * screen; offline without a saved copy, a note instead of a spinner that never ends.
 */
export function ResultsLoader({
  projectId,
  analysisId,
  loadingLabel,
  children,
}: {
  projectId: string;
  analysisId: string;
  loadingLabel: string;
  children: (data: PagedResults) => ReactNode;
}) {
  const online = useOnlineStatus();
  const results = useQuery(resultsQueryOptions(analysisId));
  if (results.isPending) {
    if (!online || results.fetchStatus === 'paused') {
      return (
        <section className="page analysis-page">
          <div className="state-card" role="status" data-testid="results-offline">
            <h1>Нет подключения к сети</h1>
            <p className="muted">Результаты этого анализа ещё не открывались на этом устройстве: они загрузятся, когда связь появится.</p>
          </div>
        </section>
      );
    }
    return <PageLoading label={loadingLabel} />;
  }
  if (results.isError) {
    return (
      <section className="page analysis-page">
        <AnalysisGate projectId={projectId} analysisId={analysisId} error={results.error}>
          <QueryError error={results.error} onRetry={() => void results.refetch()} />
        </AnalysisGate>
      </section>
    );
  }
  if (results.data.analysis.status !== 'completed' || !results.data.summary) {
    return (
      <section className="page analysis-page">
        <AnalysisGate projectId={projectId} analysisId={analysisId} analysis={results.data.analysis} />
      </section>
    );
  }
  return <>{children(results.data)}</>;
}
