import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { severityLabels, type Severity } from '@contract/analysis-results.js';
import type { AnalysisSummary } from '@contract/analysis.js';
import { ApiError } from '@/lib/api-client';
import { formatNumber } from '@contract/format';
import { adminAnalysisResultsQuery } from '@/features/admin/api';
import { loadFirstData } from '@/lib/route-data';
import { AdminBackLink, QueryState, Stat, StatusBadge, Table, type Column } from '@/features/admin/components';

export const Route = createFileRoute('/_app/admin/analyses/$analysisId/results')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, adminAnalysisResultsQuery(params.analysisId)),
  component: AdminAnalysisResultsRoute,
});

const severities: Severity[] = ['high', 'medium', 'low'];
const roubles = (value: number) => `${formatNumber(Math.round(value))} ₽`;

type CampaignScore = AnalysisSummary['campaigns'][number] & { id: string };
const campaignColumns: Column<CampaignScore>[] = [
  { label: 'Кампания', cell: (row) => row.name },
  { label: 'Оценка', cell: (row) => formatNumber(row.score) },
  { label: 'Находок', cell: (row) => formatNumber(row.findings) },
  { label: 'Потери в месяц', cell: (row) => roubles(row.money_per_month) },
];

function AdminAnalysisResultsRoute() {
  const { analysisId } = Route.useParams();
  const results = useQuery(adminAnalysisResultsQuery(analysisId));
  // 409: the analysis exists but has no results yet (still running, failed or cancelled).
  const notReady = results.error instanceof ApiError && results.error.status === 409 ? results.error : null;
  const analysis = results.data?.analysis;
  const summary = analysis?.summary as AnalysisSummary | null | undefined;

  return (
    <div className="stack">
      <AdminBackLink to="/admin/analyses/$analysisId" params={{ analysisId }}>
        Анализ
      </AdminBackLink>
      <h1>Результаты анализа</h1>
      {notReady ? (
        <p className="state-card muted">{notReady.message || 'Результатов пока нет: анализ ещё идёт или завершился без них.'}</p>
      ) : (
        <QueryState
          isPending={results.isPending}
          error={results.error}
          isEmpty={results.data !== undefined && !summary}
          emptyText="Результатов пока нет: анализ ещё идёт или завершился без них."
          onRetry={() => void results.refetch()}
        >
          {analysis && summary && (
            <>
              <div className="stat-grid">
                <div className="stat stat--large">
                  <span className="stat__value">{formatNumber(summary.account_score)}</span>
                  <span className="stat__label">оценка аккаунта из 100</span>
                </div>
                <Stat value={summary.findings_count} label="Находок" />
                <Stat value={summary.suggestions_count} label="Предложений" />
                <div className="stat">
                  <span className="stat__value">{roubles(summary.wasted_spend.per_month)}</span>
                  <span className="stat__label">расход без конверсий в месяц</span>
                </div>
              </div>
              <section className="card">
                <h2 className="card__title">
                  Находки по важности <StatusBadge status={analysis.status} />
                </h2>
                <ul className="plain-list">
                  {severities.map((severity) => (
                    <li key={severity}>
                      {severityLabels[severity]}: {formatNumber(summary.by_severity[severity]?.count ?? 0)}
                      {(summary.by_severity[severity]?.money_per_month ?? 0) > 0 && `, ${roubles(summary.by_severity[severity]!.money_per_month)} в месяц`}
                    </li>
                  ))}
                </ul>
                {summary.notices.length > 0 && (
                  <ul className="plain-list muted">
                    {summary.notices.map((notice) => (
                      <li key={notice.code}>{notice.message}</li>
                    ))}
                  </ul>
                )}
              </section>
              <section className="card">
                <h2 className="card__title">Оценки кампаний</h2>
                <Table rows={summary.campaigns.map((campaign) => ({ ...campaign, id: campaign.key }))} columns={campaignColumns} caption="Оценки кампаний" />
              </section>
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}
