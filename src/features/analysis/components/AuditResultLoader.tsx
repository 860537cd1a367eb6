import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AnalysisResults, AuditResult } from '../../../contract/analysis.js';
import { PageLoading } from '../../../components/ui/PageStates';
import { QueryError } from '../../../components/ui/QueryError';
import { resultsQueryOptions } from '../api';
import { auditResultOf } from '../result-model';
import { AnalysisGate } from './AnalysisGate';

/**
 * Loads an analysis' results for the screens built on them (suggestions, results, plan) and hands
 * the audit to `children` only once there is one: meanwhile a spinner, and for a run still going,
 * failed, cancelled or missing, the same gate on every screen.
 */
export function AuditResultLoader({
  projectId,
  analysisId,
  loadingLabel,
  children,
}: {
  projectId: string;
  analysisId: string;
  loadingLabel: string;
  children: (data: AnalysisResults, audit: AuditResult) => ReactNode;
}) {
  const results = useQuery(resultsQueryOptions(analysisId));
  if (results.isPending) {
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
  const audit = auditResultOf(results.data.result);
  if (!audit) {
    return (
      <section className="page analysis-page">
        <AnalysisGate projectId={projectId} analysisId={analysisId} analysis={results.data.analysis} />
      </section>
    );
  }
  return <>{children(results.data, audit)}</>;
}
