import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import type { AnalysisResults, AuditResult } from '../../../contract/analysis.js';
import { severityLabels, type Severity } from '../../../contract/analysis-results.js';
import { adPlatformLabels } from '../../../contract/campaigns.js';
import { BackToProjectLink } from '../../../components/ui/BackToProjectLink';
import { downloadExport, exportOptions, type ExportFormat, type ExportPlatform } from '../api';
import { formatCount, formatPeriod, formatRub, formatRubPerMonth, formatTokens, pluralRu } from '../format';
import { acceptedSummary, nonTargetQueriesCoveredBy, nonTargetQueriesOf, severityGroups, type SeverityGroup } from '../result-model';
import { AuditResultLoader } from './AuditResultLoader';
import { BarChart, ScoreGauge } from './charts';
import { FindingCard } from './FindingCard';

const severityTone: Record<Severity, string> = { high: 'danger', medium: 'warning', low: 'muted' };

/** /projects/{id}/analysis/{analysisId}/results: money first, then scores, issues, charts and export. */
export function ResultsView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <AuditResultLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка результатов">
      {(data, audit) => <ResultsScreen projectId={projectId} analysisId={analysisId} data={data} audit={audit} />}
    </AuditResultLoader>
  );
}

function ResultsScreen({ projectId, analysisId, data, audit }: { projectId: string; analysisId: string; data: AnalysisResults; audit: AuditResult }) {
  const { scoring } = audit;
  const groups = severityGroups(audit);
  const accepted = acceptedSummary(audit, data.decisions);
  const period = formatPeriod(scoring.period);
  const pricedChecks = scoring.byCheck
    .filter((check) => check.moneyPerMonth > 0)
    .sort((a, b) => b.moneyPerMonth - a.moneyPerMonth)
    .slice(0, 6);

  return (
    <section className="page analysis-page analysis-results">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Результаты аудита</h1>
        <p className="muted">
          {adPlatformLabels[scoring.platform]} · {formatCount(scoring.counts.campaigns)} {pluralRu(scoring.counts.campaigns, ['кампания', 'кампании', 'кампаний'])}
          {period && ` · статистика за ${period}`} · стоимость {formatTokens(data.analysis.cost)}
        </p>
      </header>

      <section className="card analysis-money" aria-labelledby="money-title">
        <h2 id="money-title" className="card__title">
          Расход без конверсий
        </h2>
        <p className="analysis-money__value" data-testid="wasted-per-month">
          {formatRubPerMonth(scoring.wastedSpend.perMonth)}
        </p>
        <p className="muted">
          Оценка по фразам с кликами и без конверсий{period ? ` за ${period}, пересчитано на месяц` : ''}.
        </p>
        <NonTargetQueriesFigure projectId={projectId} analysisId={analysisId} audit={audit} accepted={data.decisions.accepted} />
        <ul className="analysis-money__severities">
          {groups.map((group) => (
            <li key={group.severity} className={`severity-chip badge--${severityTone[group.severity]}`}>
              {severityLabels[group.severity]}: {formatCount(group.count)}
              {group.moneyPerMonth > 0 && ` · ${formatRubPerMonth(group.moneyPerMonth)}`}
            </li>
          ))}
        </ul>
        {pricedChecks.length > 0 && (
          <BarChart
            title="Где теряются деньги, ₽ в месяц"
            data={pricedChecks.map((check) => ({ key: check.checkId, label: check.title, value: check.moneyPerMonth, valueText: formatRubPerMonth(check.moneyPerMonth), tone: severityTone[check.severity] }))}
          />
        )}
      </section>

      {scoring.notices.length > 0 && (
        <div className="analysis-notices" role="note">
          {scoring.notices.map((notice) => (
            <p key={notice.code} className="muted analysis-notice">
              {notice.message}
            </p>
          ))}
        </div>
      )}

      <div className="analysis-scores">
        <section className="card" aria-labelledby="score-title">
          <h2 id="score-title" className="card__title">
            Оценка аккаунта
          </h2>
          <ScoreGauge score={scoring.account.score} />
          <p className="muted">
            {formatCount(scoring.findings.length)} {pluralRu(scoring.findings.length, ['замечание', 'замечания', 'замечаний'])}
          </p>
        </section>
        <section className="card" aria-labelledby="campaign-scores-title">
          <h2 id="campaign-scores-title" className="card__title">
            Оценки кампаний
          </h2>
          <BarChart
            title="Оценки кампаний из 100"
            max={100}
            data={scoring.campaigns.map((campaign) => ({
              key: campaign.target.key,
              label: campaign.target.campaignName ?? campaign.target.label ?? campaign.target.key,
              value: campaign.score,
              valueText: String(Math.round(campaign.score)),
              tone: campaign.score >= 80 ? 'good' : campaign.score >= 50 ? 'warning' : 'danger',
            }))}
          />
          <ul className="visually-hidden">
            {scoring.campaigns.map((campaign) => (
              <li key={campaign.target.key}>
                {campaign.target.campaignName ?? campaign.target.label}: {Math.round(campaign.score)} из 100
              </li>
            ))}
          </ul>
        </section>
      </div>

      {groups.map((group) => (
        <SeveritySection key={group.severity} group={group} />
      ))}

      <section className="card analysis-export" aria-labelledby="export-title">
        <h2 id="export-title" className="card__title">
          Выгрузка изменений
        </h2>
        {accepted.total > 0 ? (
          <p>
            Принято {formatCount(accepted.total)} {pluralRu(accepted.total, ['изменение', 'изменения', 'изменений'])}: минус-слова — {formatCount(accepted.negatives)}, кросс-минусовка и
            дубли — {formatCount(accepted.crossMinus)}, объявления — {formatCount(accepted.adFixes)}.
            {accepted.savingsPerMonth !== null && accepted.savingsPerMonth > 0 && <> Минус-слова отсекут запросы на {formatRubPerMonth(accepted.savingsPerMonth)}.</>}
          </p>
        ) : (
          <p className="muted">Пока не принято ни одного предложения: выгружать нечего.</p>
        )}
        <ExportButtons analysisId={analysisId} disabled={accepted.total === 0} />
        <div className="analysis-actions">
          <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className="btn btn--secondary">
            Изменить решения
          </Link>
          <Link
            to="/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId"
            params={{ id: projectId, analysisId, aiAnalysisId: analysisId }}
            className="btn btn--secondary"
          >
            AI-анализ
          </Link>
          <Link to="/projects/$id/analysis/history" params={{ id: projectId }} className="btn btn--ghost">
            История анализов
          </Link>
        </div>
      </section>
    </section>
  );
}

/**
 * The second money figure: what the non-target queries cost, that the suggested negatives cut off.
 * It is another view of the same spend (a query's cost is inside its keyword's), so it stands beside
 * the keyword figure with its own meaning and is never added to it. Results stored before the engine
 * had it show nothing here.
 */
function NonTargetQueriesFigure({ projectId, analysisId, audit, accepted }: { projectId: string; analysisId: string; audit: AuditResult; accepted: string[] }) {
  const summary = nonTargetQueriesOf(audit);
  if (!summary || summary.queries === 0) return null;
  const period = formatPeriod(summary.period);
  const covered = nonTargetQueriesCoveredBy(summary, accepted);
  return (
    <div className="analysis-money__queries" data-testid="non-target-queries">
      <h3 className="analysis-money__subtitle">Нецелевые запросы</h3>
      <p className="analysis-money__value analysis-money__value--second">{formatRubPerMonth(summary.costPerMonth)}</p>
      <p>
        {formatCount(summary.queries)} {pluralRu(summary.queries, ['запрос', 'запроса', 'запросов'])} без конверсий
        {period ? ` за ${period}` : ''} ({formatRub(summary.cost)} за период) — их отсекут предложенные минус-слова.
      </p>
      {covered.queries > 0 && (
        <p data-testid="non-target-accepted">
          Принятые минус-слова отсекут {formatCount(covered.queries)} из {formatCount(summary.queries)} {pluralRu(summary.queries, ['запроса', 'запросов', 'запросов'])} —{' '}
          {formatRubPerMonth(covered.costPerMonth)}.
        </p>
      )}
      <p className="muted">
        Это не добавка к расходу выше: запрос входит в расход фразы, по которой он показан, поэтому суммы не складываются.
      </p>
      <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className="link">
        Минус-слова и запросы
      </Link>
    </div>
  );
}

function SeveritySection({ group }: { group: SeverityGroup }) {
  const titleId = `severity-${group.severity}`;
  return (
    <section className={`card severity-section severity-section--${severityTone[group.severity]}`} aria-labelledby={titleId} data-testid={`severity-${group.severity}`}>
      <h2 id={titleId} className="card__title">
        {severityLabels[group.severity]} <span className="severity-section__count">{formatCount(group.count)}</span>
        {group.moneyPerMonth > 0 && <span className="severity-section__money"> · {formatRubPerMonth(group.moneyPerMonth)}</span>}
      </h2>
      {group.checks.length === 0 ? (
        <p className="muted">Замечаний нет.</p>
      ) : (
        <ul className="check-list">
          {group.checks.map((check) => (
            <li key={check.checkId}>
              <details className="check">
                <summary className="check__summary">
                  <span className="check__title">{check.title}</span>
                  <span className="check__meta">
                    {formatCount(check.count)}
                    {check.moneyPerMonth > 0 && ` · ${formatRubPerMonth(check.moneyPerMonth)}`}
                  </span>
                </summary>
                <div className="check__examples">
                  {check.examples.map((finding) => (
                    <FindingCard key={finding.id} finding={finding} />
                  ))}
                  {check.count > check.examples.length && (
                    <p className="muted">
                      И ещё {formatCount(check.count - check.examples.length)} {pluralRu(check.count - check.examples.length, ['такое место', 'таких места', 'таких мест'])}.
                    </p>
                  )}
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ExportButtons({ analysisId, disabled }: { analysisId: string; disabled: boolean }) {
  const download = useMutation({
    mutationFn: ({ platform, format }: { platform: ExportPlatform; format: ExportFormat }) => downloadExport(analysisId, platform, format),
    onSuccess: (fileName) => toast.success(`Файл ${fileName} скачан`),
    onError: (error) => toast.error(error.message),
  });
  return (
    <>
      <div className="analysis-export__buttons">
        {exportOptions.map((option) => (
          <button
            key={`${option.platform}:${option.format}`}
            type="button"
            className="btn btn--secondary"
            disabled={disabled || download.isPending}
            onClick={() => download.mutate({ platform: option.platform, format: option.format })}
          >
            {option.label}
          </button>
        ))}
      </div>
      {download.isError && (
        <p className="form-error" role="alert">
          {download.error.message}
        </p>
      )}
    </>
  );
}
