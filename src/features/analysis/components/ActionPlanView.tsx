import { Link } from '@tanstack/react-router';
import type { PagedResults } from '../../../contract/analysis-pages.js';
import { severityLabels } from '../../../contract/analysis-results.js';
import { formatDateTime } from '../../../lib/format';
import { formatCount, formatPeriod, formatRub, formatRubPerMonth, moneyHeadline, pluralRu } from '@/lib/analysis-format';
import { actionPlan, type CheckPlanStep, type NegativesPlanStep } from '../result-model';
import { ResultsLoader } from './ResultsLoader';
import { FindingCard } from './FindingCard';
import { BackToResultsLink, PlanNextSteps } from './PlanLinks';

export const PLAN_TITLE = 'План действий по результатам аудита';

/**
 * /projects/{id}/analysis/{analysisId}/ai-analysis/{aiAnalysisId}. No language model runs on this
 * server, so this screen does not pretend to be one: it is the audit's own findings and automatic
 * negatives (priced by the queries they block) turned into an ordered plan, the biggest money leaks
 * first, and it says so.
 */
export function ActionPlanView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <ResultsLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка плана">
      {(data) => <PlanScreen projectId={projectId} analysisId={analysisId} data={data} />}
    </ResultsLoader>
  );
}

function PlanScreen({ projectId, analysisId, data }: { projectId: string; analysisId: string; data: PagedResults }) {
  const { summary } = data;
  const steps = actionPlan(summary, data.decisions);
  // The one money figure of the analysis (the results header's), never a sum of the plan's own: the
  // negatives' queries are part of the keywords' spend, so their money stands on its step. Summaries
  // stored before the money story sum the priced checks, as the plan did then.
  const priced = steps.filter((step) => step.kind === 'check' && step.moneyPerMonth > 0);
  const totalPerMonth = summary.money ? summary.money.perMonth : priced.reduce((sum, step) => sum + step.moneyPerMonth, 0);
  const negativesIndex = steps.findIndex((step) => step.kind === 'negatives' && step.moneyPerMonth > 0);
  return (
    <section className="page analysis-page analysis-plan">
      <BackToResultsLink projectId={projectId} analysisId={analysisId} />
      <header className="page-header">
        <h1>{PLAN_TITLE}</h1>
      </header>
      <p className="muted">
        Аудит от {formatDateTime(data.analysis.created_at)}, оценка аккаунта {Math.round(summary.scores.account.score)} из 100.
      </p>
      <p className="analysis-plan__honest" role="note">
        ИИ-анализ с языковой моделью на этом сервере не подключён. План ниже собран из проверок аудита без генерации текста: сначала то, что стоит
        больше всего рублей в месяц, затем остальные замечания по важности.
      </p>

      {totalPerMonth > 0 && (
        <p className="analysis-plan__total" data-testid="plan-total">
          {summary.money ? (
            <>
              {moneyHeadline(totalPerMonth)}. Исправив пункты с оценкой в деньгах, вы перестанете их терять.
            </>
          ) : (
            <>
              Исправив пункты с оценкой в деньгах, вы перестанете терять около <strong>{formatRubPerMonth(totalPerMonth)}</strong>.
            </>
          )}
        </p>
      )}
      {negativesIndex >= 0 && (
        <p className="analysis-plan__total" data-testid="plan-negatives-total">
          Минус-слова (шаг {negativesIndex + 1}) отсекут нецелевые запросы на <strong>{formatRubPerMonth(steps[negativesIndex]!.moneyPerMonth)}</strong>
          {totalPerMonth > 0 ? ' — это часть той же суммы, а не добавка к ней.' : '.'}
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
      {step.examples.length > 0 && (
        <details>
          <summary>Примеры ({formatCount(step.examples.length)})</summary>
          {step.examples.map((finding) => (
            <FindingCard key={finding.id} finding={finding} />
          ))}
        </details>
      )}
    </li>
  );
}

/** Negatives named in the step's text; the rest are on the semantic screen. */
const NAMED_NEGATIVES = 5;

function NegativesStep({ number, step, projectId, analysisId }: { number: number; step: NegativesPlanStep; projectId: string; analysisId: string }) {
  const { negatives, queries, accepted } = step;
  const named = step.named.slice(0, NAMED_NEGATIVES).map((item) => `-${item.text}`).join(', ');
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
        <strong>Что сделать:</strong> Добавьте минус-слова{named ? `: ${named}` : ''}
        {negatives > Math.min(NAMED_NEGATIVES, step.named.length) ? ' …' : ''} ({formatCount(negatives)} шт.) —{' '}
        <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className="link">
          на экране предложений
        </Link>
        .
      </p>
      {accepted && accepted.queries > 0 && (
        <p data-testid="plan-negatives-accepted">
          Принятые минус-слова отсекут {formatCount(accepted.queries)} из {formatCount(queries.queries)} {pluralRu(queries.queries, ['запроса', 'запросов', 'запросов'])} —{' '}
          {formatRubPerMonth(accepted.costPerMonth)}.
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
