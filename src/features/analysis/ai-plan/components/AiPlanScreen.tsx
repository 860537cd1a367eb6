import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { aiPlanStatusLabels, isAiPlanFinished, type AiPlan, type AiPlanOverview, type AiPlanStatus } from '@contract/ai-plan.js';
import { aiPlanRoutes } from '@contract/routes/ai-plan.js';
import { PageLoading, useWaitsForNetwork } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@contract/format';
import { ActionPlanView } from '@/features/analysis/components/ActionPlanView';
import { AnalysisGate } from '@/features/analysis/components/AnalysisGate';
import { BackToResultsLink, PlanNextSteps } from '@/features/analysis/components/PlanLinks';
import { formatCount, formatTokens } from '@/lib/analysis-format';
import { useLiveRun } from '@/lib/live-run';
import { useTokensMovedWhenRunEnds } from '@/lib/paid-runs';
import { aiPlanKeys, aiPlanOverviewQueryOptions, aiPlanQueryOptions } from '@/features/analysis/ai-plan/api';
import { AiPlanSteps } from '@/features/analysis/ai-plan/components/AiPlanSteps';
import { RequestAiPlan } from '@/features/analysis/ai-plan/components/RequestAiPlan';

export const AI_PLAN_TITLE = 'ИИ-план действий';

interface Props {
  projectId: string;
  analysisId: string;
  /** An AI plan's id, or the audit's own id (the link from the results screen: no plan chosen yet). */
  aiPlanId: string;
}

/**
 * /projects/{id}/analysis/{analysisId}/ai-plan/{aiPlanId}: the AI (LLM) analysis of an audit.
 * With a plan's id it shows that plan (live while the model works, src/lib/live-run.ts); with the audit's own id it offers
 * to ask for one. When the server has no language model, it says so and shows the plan built from the
 * audit's rules (ActionPlanView) — never a pretend AI answer.
 */
export function AiPlanScreen({ projectId, analysisId, aiPlanId }: Props) {
  if (aiPlanId === analysisId) return <AiPlanEntry projectId={projectId} analysisId={analysisId} />;
  return <AiPlanDetail projectId={projectId} analysisId={analysisId} aiPlanId={aiPlanId} />;
}

const statusTone: Record<AiPlanStatus, string> = { queued: 'badge--muted', running: '', completed: 'badge--success', failed: 'badge--danger', cancelled: 'badge--muted' };

function AiPlanEntry({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  const overview = useQuery(aiPlanOverviewQueryOptions(analysisId));
  const offline = useWaitsForNetwork(overview);
  if (offline) {
    // Offline and never asked on this device: the audit's own plan (its results are kept) still reads.
    return (
      <>
        <div className="page ai-plan-unknown">
          <p className="muted" role="status" data-testid="needs-network">
            Нет подключения к сети: ИИ-планы этого аудита загрузятся, когда связь появится. Ниже — план из проверок аудита.
          </p>
        </div>
        <ActionPlanView projectId={projectId} analysisId={analysisId} />
      </>
    );
  }
  if (overview.isPending) return <PageLoading label="Загрузка ИИ-анализа" />;
  if (overview.error instanceof ApiError && overview.error.status === 404) {
    return (
      <section className="page analysis-page">
        <AnalysisGate projectId={projectId} analysisId={analysisId} error={overview.error} />
      </section>
    );
  }
  if (overview.error) {
    // Whether a model is configured is unknown (offline, a server error): the audit's own plan still helps.
    return (
      <>
        <div className="page ai-plan-unknown">
          <QueryError error={overview.error} onRetry={() => void overview.refetch()} />
        </div>
        <ActionPlanView projectId={projectId} analysisId={analysisId} />
      </>
    );
  }
  if (!overview.data.available) return <ActionPlanView projectId={projectId} analysisId={analysisId} />;
  return (
    <section className="page analysis-page analysis-plan ai-plan">
      <BackToResultsLink projectId={projectId} analysisId={analysisId} />
      <header className="page-header">
        <h1>ИИ-анализ</h1>
      </header>
      <p className="muted">
        Языковая модель прочитает результаты аудита — оценки, самые дорогие замечания и принятые вами предложения — и составит план действий по шагам. Суммы
        в рублях в плане берутся из аудита, а не придумываются моделью.
      </p>
      <RequestAiPlan projectId={projectId} analysisId={analysisId} overview={overview.data} label="Запросить ИИ-план" />
      <EarlierPlans projectId={projectId} analysisId={analysisId} overview={overview.data} />
    </section>
  );
}

function EarlierPlans({ projectId, analysisId, overview, current }: { projectId: string; analysisId: string; overview: AiPlanOverview; current?: string }) {
  const others = overview.items.filter((item) => item.id !== current);
  if (others.length === 0) return null;
  return (
    <section className="card ai-plan-history" aria-labelledby="ai-plan-history-title">
      <h2 id="ai-plan-history-title" className="card__title">
        {current ? 'Другие ИИ-планы этого аудита' : 'Запрошенные ИИ-планы'}
      </h2>
      <ul className="plain-list">
        {others.map((item) => (
          <li key={item.id} className="ai-plan-history__item">
            <Link to="/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId" params={{ id: projectId, analysisId, aiPlanId: item.id }} className="link">
              {formatDateTime(item.created_at)}
            </Link>{' '}
            <span className={`badge ${statusTone[item.status]}`}>{aiPlanStatusLabels[item.status]}</span> <span className="muted">{item.model}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The plan in an event's body (`{ai_plan}`, as its GET answers). */
const planOfEvent = (body: unknown) => {
  const plan = (body as { ai_plan?: AiPlan } | null)?.ai_plan;
  return typeof plan?.id === 'string' && typeof plan.status === 'string' ? plan : null;
};
const isPlanFinished = (plan: AiPlan) => isAiPlanFinished(plan.status);

function AiPlanDetail({ projectId, analysisId, aiPlanId }: { projectId: string; analysisId: string; aiPlanId: string }) {
  const queryClient = useQueryClient();
  const plan = useLiveRun({ query: aiPlanQueryOptions(aiPlanId), events: aiPlanRoutes.events, id: aiPlanId, fromEvent: planOfEvent, finished: isPlanFinished });
  const overview = useQuery(aiPlanOverviewQueryOptions(analysisId));
  const status = plan.data?.status;

  // A plan that just finished changed the list (its status); a failed or cancelled one was refunded.
  useEffect(() => {
    if (!status || !isAiPlanFinished(status)) return;
    void queryClient.invalidateQueries({ queryKey: aiPlanKeys.overview(analysisId) });
  }, [status, analysisId, queryClient]);
  useTokensMovedWhenRunEnds(status && isAiPlanFinished(status));

  if (plan.isPending) return <PageLoading label="Загрузка ИИ-плана" query={plan} offlineText="Этот ИИ-план ещё не открывался на этом устройстве: он загрузится, когда связь появится." />;
  if (plan.error) {
    const notFound = plan.error instanceof ApiError && plan.error.status === 404;
    return (
      <section className="page analysis-page">
        {notFound ? (
          <div className="state-card state-card--error" role="alert">
            <h1>ИИ-план не найден</h1>
            <Link to="/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId" params={{ id: projectId, analysisId, aiPlanId: analysisId }} className="btn btn--primary">
              К ИИ-анализу аудита
            </Link>
          </div>
        ) : (
          <QueryError error={plan.error} onRetry={() => void plan.refetch()} />
        )}
      </section>
    );
  }

  const data = plan.data;
  return (
    <section className="page analysis-page analysis-plan ai-plan">
      <BackToResultsLink projectId={projectId} analysisId={analysisId} />
      <header className="page-header">
        <h1>{AI_PLAN_TITLE}</h1>
      </header>
      <PlanFacts plan={data} />
      {data.status === 'queued' || data.status === 'running' ? (
        <div className="state-card ai-plan-progress" aria-live="polite">
          <span className="spinner" role="status" aria-label={aiPlanStatusLabels[data.status]} />
          <p>{data.status === 'queued' ? 'Запрос в очереди: языковая модель скоро возьмётся за план.' : 'Языковая модель читает аудит и составляет план. Обычно это занимает до минуты.'}</p>
        </div>
      ) : data.status === 'failed' ? (
        <div className="state-card state-card--error" role="alert">
          <h2>ИИ-план не построен</h2>
          <p>{data.error}</p>
        </div>
      ) : data.status === 'cancelled' ? (
        <div className="state-card" role="status">
          <h2>ИИ-план отменён</h2>
          <p>Токены возвращены на баланс.</p>
        </div>
      ) : data.plan ? (
        <AiPlanSteps plan={data.plan} />
      ) : null}

      {isAiPlanFinished(data.status) && overview.data && (
        <RequestAiPlan projectId={projectId} analysisId={analysisId} overview={overview.data} label={data.status === 'failed' || data.status === 'cancelled' ? 'Попробовать ещё раз' : 'Запросить новый ИИ-план'} />
      )}
      {overview.data && <EarlierPlans projectId={projectId} analysisId={analysisId} overview={overview.data} current={data.id} />}
      <PlanNextSteps projectId={projectId} analysisId={analysisId} />
    </section>
  );
}

/** Who asked, when, which model, how big the prompt was and what it cost. */
function PlanFacts({ plan }: { plan: AiPlan }) {
  const facts = [
    `Запрошен ${formatDateTime(plan.created_at)}${plan.author ? `, ${plan.author.full_name}` : ''}`,
    `модель ${plan.model}`,
    plan.prompt_chars !== null ? `запрос ${formatCount(plan.prompt_chars)} симв.` : null,
    plan.usage?.total_tokens != null ? `модель потратила ${formatCount(plan.usage.total_tokens)} ток.` : null,
    plan.status === 'failed' || plan.status === 'cancelled' ? `стоимость ${formatTokens(plan.cost)} возвращена` : `стоимость ${formatTokens(plan.cost)}`,
  ].filter(Boolean);
  return (
    <p className="muted ai-plan__facts" data-testid="ai-plan-facts">
      <span className={`badge ${statusTone[plan.status]}`}>{aiPlanStatusLabels[plan.status]}</span> {facts.join(' · ')}
    </p>
  );
}
