import { Link } from '@tanstack/react-router';
import type { PagedResults } from '@contract/analysis-pages.js';
import { readMoneyStory, severityLabels, type MoneyStory } from '@contract/analysis-results.js';
import { formatDateTime } from '@contract/format';
import { formatCount, formatPeriod, formatRub, formatRubPerMonth, moneyHeadline, pluralRu } from '@/lib/analysis-format';
import { actionPlan, type CheckPlanStep, type NegativesPlanStep, type PlanStep } from '@/features/analysis/result-model';
import { savingHeadline } from './MoneyStory';
import { ResultsLoader } from './ResultsLoader';
import { FindingCard } from './FindingCard';
import { BackToResultsLink, PlanNextSteps } from './PlanLinks';

export const PLAN_TITLE = 'План действий по результатам аудита';

/**
 * /projects/{id}/analysis/{analysisId}/ai-plan/{aiPlanId}. No language model runs on this
 * server, so this screen does not pretend to be one: it is the audit's own findings and automatic
 * negatives (priced by the queries they block) turned into an ordered plan, the biggest money leaks
 * first, and it says so.
 */
export function ActionPlanView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <ResultsLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка плана">
      {(data) => <ActionPlanBody projectId={projectId} analysisId={analysisId} data={data} />}
    </ResultsLoader>
  );
}

function ActionPlanBody({ projectId, analysisId, data }: { projectId: string; analysisId: string; data: PagedResults }) {
  const { summary } = data;
  const steps = actionPlan(summary, data.decisions);
  const money = summary.money ? readMoneyStory(summary.money, summary.settings.targetCpa) : null;
  const numbersOf = (match: (step: PlanStep) => boolean) => steps.flatMap((step, index) => (match(step) ? [index + 1] : []));
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

      {money ? (
        <PlanTotals money={money} lostSteps={numbersOf((step) => step.counted?.kind === 'lost')} savingSteps={numbersOf((step) => step.counted?.kind === 'saving')} uncountedSteps={numbersOf((step) => step.moneyPerMonth > 0 && !step.counted)} />
      ) : (
        // A summary stored before the money story: the priced checks' sum, as the plan said then.
        <OlderPlanTotal steps={steps} />
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
              <CheckStep key={step.key} number={index + 1} step={step} story={money !== null} />
            ),
          )}
        </ol>
      )}

      <PlanNextSteps projectId={projectId} analysisId={analysisId} acceptIsMainAction />
    </section>
  );
}

/** «шаг 2», «шаги 1, 3 и 4». */
function stepsText(numbers: number[]): string {
  if (numbers.length === 1) return `шаг ${numbers[0]}`;
  return `шаги ${numbers.slice(0, -1).join(', ')} и ${numbers[numbers.length - 1]}`;
}

/**
 * The plan's money is the results header's, never a sum of its own: the steps' counted money adds up to
 * the headline (money lost) and, apart, to the money that could be saved; the steps whose money the
 * story does not count are named, with why.
 */
function PlanTotals({ money, lostSteps, savingSteps, uncountedSteps }: { money: MoneyStory; lostSteps: number[]; savingSteps: number[]; uncountedSteps: number[] }) {
  const hasLoss = Math.round(money.perMonth) > 0;
  const hasSaving = Math.round(money.saving.perMonth) > 0;
  if (!hasLoss && !hasSaving && uncountedSteps.length === 0) return null;
  return (
    <div className="analysis-plan__totals">
      {hasLoss && (
        <p className="analysis-plan__total" data-testid="plan-total">
          {moneyHeadline(money.perMonth)}: расход без единой конверсии{lostSteps.length > 0 ? ` — ${stepsText(lostSteps)} вместе` : ''}.
        </p>
      )}
      {hasSaving && (
        <p className="analysis-plan__total" data-testid="plan-saving">
          {savingHeadline(money.saving.perMonth)} на конверсиях дороже{money.saving.reference === 'target' ? ' целевой цены' : ' средней цены в аккаунте'}
          {savingSteps.length > 0 ? ` — ${stepsText(savingSteps)}` : ''}. Это не потери: к сумме выше не прибавляется.
        </p>
      )}
      {uncountedSteps.length > 0 && (
        <p className="muted" data-testid="plan-uncounted">
          Суммы {uncountedSteps.length === 1 ? 'шага' : 'шагов'} {uncountedSteps.join(', ')} в итог не входят: это деньги под вопросом (случайные клики,
          клики дороже медианы, фразы с малым числом кликов) или расход, уже посчитанный в шагах выше.
        </p>
      )}
    </div>
  );
}

function OlderPlanTotal({ steps }: { steps: PlanStep[] }) {
  const totalPerMonth = steps.filter((step) => step.kind === 'check' && step.moneyPerMonth > 0).reduce((sum, step) => sum + step.moneyPerMonth, 0);
  if (totalPerMonth <= 0) return null;
  return (
    <p className="analysis-plan__total" data-testid="plan-total">
      Исправив пункты с оценкой в деньгах, вы перестанете терять около <strong>{formatRubPerMonth(totalPerMonth)}</strong>.
    </p>
  );
}

/** A step's money as the story counts it: lost, to save, or outside the totals (`story`: the analysis has a money story; older ones show the step's money as it is). */
function StepMoney({ step, story }: { step: PlanStep; story: boolean }) {
  if (step.moneyPerMonth <= 0) return null;
  if (!story) return <strong>{formatRubPerMonth(step.moneyPerMonth)} · </strong>;
  if (!step.counted) return <strong>{formatRubPerMonth(step.moneyPerMonth)} под вопросом, не входит в итог · </strong>;
  const label = step.counted.kind === 'lost' ? 'потери' : 'можно сэкономить';
  return <strong>{label} {formatRubPerMonth(step.counted.perMonth)} · </strong>;
}

function CheckStep({ number, step, story }: { number: number; step: CheckPlanStep; story: boolean }) {
  return (
    <li className="card plan-step" data-testid="plan-step">
      <h2 className="plan-step__title">
        <span className="plan-step__number">{number}.</span> {step.title}
      </h2>
      <p className="plan-step__meta">
        <StepMoney step={step} story={story} />
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
        {step.counted ? <StepMoney step={step} story /> : step.moneyPerMonth > 0 && <strong>{formatRubPerMonth(step.moneyPerMonth)} · </strong>}
        {formatCount(queries.queries)} {pluralRu(queries.queries, ['запрос', 'запроса', 'запросов'])} без конверсий
        {step.counted && Math.round(step.moneyPerMonth) > Math.round(step.counted.perMonth) && (
          <span data-testid="plan-negatives-inside"> на {formatRubPerMonth(step.moneyPerMonth)}: остальное уже в расходе фраз без конверсий</span>
        )}
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
