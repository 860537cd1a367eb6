import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { formatNumber } from '../../../../../lib/format';
import { adminAnalysisResultsQuery } from '../../-api';
import { AdminBackLink, DetailList, NestedBlocks, QueryState } from '../../-components';

export const Route = createFileRoute('/_app/admin/analyses/$analysisId/results')({
  component: AdminAnalysisResults,
});

function AdminAnalysisResults() {
  const { analysisId } = Route.useParams();
  const results = useQuery(adminAnalysisResultsQuery(analysisId));
  const score = typeof results.data?.score === 'number' ? results.data.score : null;
  const isEmpty = results.data !== undefined && Object.keys(results.data).length === 0;

  return (
    <div className="stack">
      <AdminBackLink to="/admin/analyses/$analysisId" params={{ analysisId }}>
        Анализ
      </AdminBackLink>
      <h1>Результаты анализа</h1>
      <QueryState
        isPending={results.isPending}
        error={results.error}
        isEmpty={isEmpty}
        emptyText="Результатов пока нет: анализ ещё идёт или завершился без данных."
        onRetry={() => void results.refetch()}
      >
        {results.data && (
          <>
            {score !== null && (
              <div className="stat stat--large">
                <span className="stat__value">{formatNumber(score)}</span>
                <span className="stat__label">оценка аккаунта из 100</span>
              </div>
            )}
            <section className="card">
              <DetailList record={results.data} omit={['score']} />
            </section>
            <NestedBlocks record={results.data} />
          </>
        )}
      </QueryState>
    </div>
  );
}
