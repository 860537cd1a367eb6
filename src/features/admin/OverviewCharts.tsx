import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { runKindLabels, runKinds, runStatuses, type AdminStats, type RunStatus } from '@contract/admin.js';
import { analysisStatusLabels } from '@contract/analysis.js';
import { formatNumber } from '@contract/format';
import { adminStatsQuery, FIRST_STATS_DAYS } from './api';
import { DailyChart } from './charts';
import { QueryState } from './components';

const PERIODS = [7, 30, 90] as const;
const statusLabel = (status: RunStatus) => analysisStatusLabels[status];

/** Sign-ups, tokens credited and spent per day, and the runs of the period by kind and status. */
export function OverviewCharts() {
  const [days, setDays] = useState<number>(FIRST_STATS_DAYS);
  const stats = useQuery(adminStatsQuery(days));
  return (
    <section className="card" aria-labelledby="admin-charts-title">
      <div className="card__header">
        <h2 className="card__title" id="admin-charts-title">
          Динамика
        </h2>
        <label className="admin-filters">
          <span>Период</span>
          <select className="input input--small" value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {PERIODS.map((period) => (
              <option key={period} value={period}>
                {period} дней
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState isPending={stats.isPending} error={stats.error} emptyText="" onRetry={() => void stats.refetch()}>
        {stats.data && <Charts stats={stats.data} />}
      </QueryState>
    </section>
  );
}

function Charts({ stats }: { stats: AdminStats }) {
  const days = stats.signups.map((point) => point.date);
  const count = (kind: string, status: string) => stats.runs.find((row) => row.kind === kind && row.status === status)?.count ?? 0;
  return (
    <div className="stack">
      <div className="admin-charts">
        <DailyChart title="Регистрации по дням" days={days} series={[{ key: 'signups', label: 'Регистрации', tone: 'primary', values: stats.signups.map((point) => point.count) }]} />
        <DailyChart
          title="Токены по дням"
          days={stats.tokens.map((point) => point.date)}
          series={[
            { key: 'credited', label: 'Начислено', tone: 'success', values: stats.tokens.map((point) => point.credited) },
            { key: 'spent', label: 'Потрачено', tone: 'danger', values: stats.tokens.map((point) => point.spent) },
          ]}
        />
      </div>
      <div className="table-wrap">
        <table className="table">
          <caption className="admin-chart__title">Запуски за период по видам и статусам</caption>
          <thead>
            <tr>
              <th scope="col">Вид</th>
              {runStatuses.map((status) => (
                <th key={status} scope="col">
                  {statusLabel(status)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {runKinds.map((kind) => (
              <tr key={kind}>
                <th scope="row" data-label="Вид">
                  {runKindLabels[kind]}
                </th>
                {runStatuses.map((status) => (
                  <td key={status} data-label={statusLabel(status)}>
                    {formatNumber(count(kind, status))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
