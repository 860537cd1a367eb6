import type { AnalysisResults, AuditResult } from '../../../contract/analysis.js';
import { severityLabels } from '../../../contract/analysis-results.js';
import { formatDateTime } from '../../../lib/format';
import { formatCount, formatRubPerMonth, pluralRu } from '../format';
import { actionPlan } from '../result-model';
import { AuditResultLoader } from './AuditResultLoader';
import { FindingCard } from './FindingCard';
import { BackToResultsLink, PlanNextSteps } from './PlanLinks';

export const PLAN_TITLE = 'План действий по результатам аудита';

/**
 * /projects/{id}/analysis/{analysisId}/ai-analysis/{aiAnalysisId}. No language model runs on this
 * server, so this screen does not pretend to be one: it is the audit's own findings turned into an
 * ordered plan, the biggest money leaks first, and it says so.
 */
export function ActionPlanView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <AuditResultLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка плана">
      {(data, audit) => <PlanScreen projectId={projectId} analysisId={analysisId} data={data} audit={audit} />}
    </AuditResultLoader>
  );
}

function PlanScreen({ projectId, analysisId, data, audit }: { projectId: string; analysisId: string; data: AnalysisResults; audit: AuditResult }) {
  const steps = actionPlan(audit);
  const priced = steps.filter((step) => step.moneyPerMonth > 0);
  const totalPerMonth = priced.reduce((sum, step) => sum + step.moneyPerMonth, 0);
  return (
    <section className="page analysis-page analysis-plan">
      <BackToResultsLink projectId={projectId} analysisId={analysisId} />
      <header className="page-header">
        <h1>{PLAN_TITLE}</h1>
      </header>
      <p className="muted">
        Аудит от {formatDateTime(data.analysis.created_at)}, оценка аккаунта {Math.round(audit.scoring.account.score)} из 100.
      </p>
      <p className="analysis-plan__honest" role="note">
        AI-анализ с языковой моделью на этом сервере не подключён. План ниже собран из проверок аудита без генерации текста: сначала то, что стоит
        больше всего рублей в месяц, затем остальные замечания по важности.
      </p>

      {priced.length > 0 && (
        <p className="analysis-plan__total">
          Исправив пункты с оценкой в деньгах, вы перестанете терять около <strong>{formatRubPerMonth(totalPerMonth)}</strong>.
        </p>
      )}

      {steps.length === 0 ? (
        <div className="state-card">
          <p>Аудит не нашёл замечаний — действовать не нужно.</p>
        </div>
      ) : (
        <ol className="plan-steps">
          {steps.map((step, index) => (
            <li key={step.checkId} className="card plan-step" data-testid="plan-step">
              <h2 className="plan-step__title">
                <span className="plan-step__number">{index + 1}.</span> {step.title}
              </h2>
              <p className="plan-step__meta">
                {step.moneyPerMonth > 0 && <strong>{formatRubPerMonth(step.moneyPerMonth)} · </strong>}
                {severityLabels[step.severity]} · {formatCount(step.count)} {pluralRu(step.count, ['место', 'места', 'мест'])}
              </p>
              <p>
                <strong>Что сделать:</strong> {step.fix}
              </p>
              <p className="muted">{step.explanation}</p>
              <details>
                <summary>Примеры ({formatCount(step.examples.length)})</summary>
                {step.examples.map((finding) => (
                  <FindingCard key={finding.id} finding={finding} />
                ))}
              </details>
            </li>
          ))}
        </ol>
      )}

      <PlanNextSteps projectId={projectId} analysisId={analysisId} acceptIsMainAction />
    </section>
  );
}
