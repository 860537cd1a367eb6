import { Link } from '@tanstack/react-router';
import type { AnalysisResults, AuditResult } from '../../../contract/analysis.js';
import { moneyCauseLabels, severityLabels } from '../../../contract/analysis-results.js';
import { formatDateTime } from '../../../lib/format';
import { formatCount, formatPeriod, formatRub, formatRubPerMonth, pluralRu } from '../format';
import { actionPlan, planMoneyStory, type CheckPlanStep, type NegativesPlanStep } from '../result-model';
import { AuditResultLoader } from './AuditResultLoader';
import { FindingCard } from './FindingCard';
import { BackToResultsLink, PlanNextSteps } from './PlanLinks';

export const PLAN_TITLE = 'План действий по результатам аудита';

/**
 * /projects/{id}/analysis/{analysisId}/ai-analysis/{aiAnalysisId}. No language model runs on this
 * server, so this screen does not pretend to be one: it is the audit's own findings and automatic
 * negatives (priced by the queries they block) turned into an ordered plan, the biggest money leaks
 * first, and it says so. Its total is the money story's «Теряете ≈ X ₽ в месяц».
 */
export function ActionPlanView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <AuditResultLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка плана">
      {(data, audit) => <PlanScreen projectId={projectId} analysisId={analysisId} data={data} audit={audit} />}
    </AuditResultLoader>
  );
}

function PlanScreen({ projectId, analysisId, data, audit }: { projectId: string; analysisId: string; data: AnalysisResults; audit: AuditResult }) {
  const steps = actionPlan(audit, data.decisions);
  // The total is the money story's figure, the same as on the results screen and in the AI plan. For a
  // result stored before it: the priced checks' sum, without the negatives' queries (part of the same spend).
  const story = planMoneyStory(audit);
  const priced = steps.filter((step) => step.kind === 'check' && step.moneyPerMonth > 0);
  const totalPerMonth = priced.reduce((sum, step) => sum + step.moneyPerMonth, 0);
  const negativesIndex = steps.findIndex((step) => step.kind === 'negatives' && step.moneyPerMonth > 0);
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

      {story
        ? story.perMonth > 0 && (
            <p className="analysis-plan__total" data-testid="plan-money-story">
              Теряете ≈ <strong>{formatRubPerMonth(story.perMonth)}</strong>:{' '}
              {story.causes.map((cause) => `${moneyCauseLabels[cause.cause].toLowerCase()} — ${formatRub(cause.perMonth)}`).join(', ')}. Шаги ниже
              возвращают эти деньги.
            </p>
          )
        : priced.length > 0 && (
            <p className="analysis-plan__total">
              Исправив пункты с оценкой в деньгах, вы перестанете терять около <strong>{formatRubPerMonth(totalPerMonth)}</strong>.
            </p>
          )}
      {negativesIndex >= 0 && (
        <p className="analysis-plan__total" data-testid="plan-negatives-total">
          Минус-слова (шаг {negativesIndex + 1}) отсекут нецелевые запросы на <strong>{formatRubPerMonth(steps[negativesIndex]!.moneyPerMonth)}</strong>
          {story
            ? story.perMonth > 0
              ? ' — в сумме выше из них учтены только запросы фраз, которые не попали в «Фразы без конверсий»: рубль не считается дважды.'
              : '.'
            : priced.length > 0
              ? ' — это часть того же расхода, поэтому к сумме выше не добавлено.'
              : '.'}
        </p>
      )}

      {steps.length === 0 ? (
        <div className="state-card">
          <p>Аудит не нашёл замечаний — действовать не нужно.</p>
        </div>
      ) : (
        <ol className="plan-steps">
          {steps.map((step, index) =>
            step.kind === 'negatives' ? (
              <NegativesStep key={step.key} number={index + 1} step={step} projectId={projectId} analysisId={analysisId} />
            ) : (
              <CheckStep key={step.key} number={index + 1} step={step} />
            ),
          )}
        </ol>
      )}

      <PlanNextSteps projectId={projectId} analysisId={analysisId} acceptIsMainAction />
    </section>
  );
}

function CheckStep({ number, step }: { number: number; step: CheckPlanStep }) {
  return (
    <li className="card plan-step" data-testid="plan-step">
      <h2 className="plan-step__title">
        <span className="plan-step__number">{number}.</span> {step.title}
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
  );
}

/** Negatives named in the step's text; the rest are on the semantic screen. */
const NAMED_NEGATIVES = 5;

function NegativesStep({ number, step, projectId, analysisId }: { number: number; step: NegativesPlanStep; projectId: string; analysisId: string }) {
  const { negatives, queries, accepted } = step;
  const named = negatives.slice(0, NAMED_NEGATIVES).map((item) => `-${item.text}`).join(', ');
  const period = formatPeriod(queries.period);
  return (
    <li className="card plan-step" data-testid="plan-step">
      <h2 className="plan-step__title">
        <span className="plan-step__number">{number}.</span> Нецелевые запросы: добавьте минус-слова
      </h2>
      <p className="plan-step__meta">
        {step.moneyPerMonth > 0 && <strong>{formatRubPerMonth(step.moneyPerMonth)} · </strong>}
        {formatCount(queries.queries)} {pluralRu(queries.queries, ['запрос', 'запроса', 'запросов'])} без конверсий
      </p>
      <p>
        <strong>Что сделать:</strong> Добавьте минус-слова: {named}
        {negatives.length > NAMED_NEGATIVES ? ' …' : ''} ({formatCount(negatives.length)} шт.) —{' '}
        <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className="link">
          на экране предложений
        </Link>
        .
      </p>
      {accepted.negatives > 0 && (
        <p data-testid="plan-negatives-accepted">
          Вы уже приняли {formatCount(accepted.negatives)} из {formatCount(negatives.length)}: они отсекут {formatCount(accepted.queries)} из{' '}
          {formatCount(queries.queries)} {pluralRu(queries.queries, ['запроса', 'запросов', 'запросов'])} — {formatRubPerMonth(accepted.costPerMonth)}.
        </p>
      )}
      <p className="muted">
        Слова на уровне кампаний отсекают целые категории (бесплатное, вакансии, другая география…), фразы на уровне групп — запросы без конверсий
        с достаточным числом кликов. {formatRub(queries.cost)}
        {period ? ` за ${period}` : ' за период'}; запрос, который отсекают два минус-слова, посчитан один раз.
      </p>
    </li>
  );
}
