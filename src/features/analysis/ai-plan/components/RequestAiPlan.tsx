import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { AiPlanOverview } from '@/contract/ai-plan.js';
import { formatTokens } from '@/lib/analysis-format';
import { usePaidRunStart } from '@/lib/paid-runs';
import { aiPlanKeys, startAiPlan } from '@/features/analysis/ai-plan/api';

/**
 * «Запросить ИИ-план · 10 токенов»: starts a paid plan and opens it. One idempotency key per button
 * until a start succeeds, so a retry after a lost answer is the same plan, charged once.
 */
export function RequestAiPlan({ projectId, analysisId, overview, label }: { projectId: string; analysisId: string; overview: AiPlanOverview; label: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const start = usePaidRunStart((idempotencyKey) => startAiPlan(analysisId, idempotencyKey), {
    onStarted: (plan) => {
      queryClient.setQueryData(aiPlanKeys.detail(plan.id), plan);
      void queryClient.invalidateQueries({ queryKey: aiPlanKeys.overview(analysisId) });
      void navigate({ to: '/projects/$id/analysis/$analysisId/ai-analysis/$aiAnalysisId', params: { id: projectId, analysisId, aiAnalysisId: plan.id } });
    },
  });

  if (!overview.available) return <p className="muted">{overview.unavailable_reason}</p>;
  const short = overview.price > overview.balance;
  return (
    <div className="ai-plan-request">
      <button type="button" className="btn btn--primary" disabled={start.isPending || short} onClick={() => start.mutate()}>
        {start.isPending ? 'Отправляем запрос…' : `${label} · ${formatTokens(overview.price)}`}
      </button>
      <p className="muted ai-plan-request__balance">
        На балансе {formatTokens(overview.balance)}.{short && ' Этого не хватает: пополните баланс на странице «Токены».'}
      </p>
      {start.error && (
        <p className="form-error" role="alert">
          {start.error.message}
        </p>
      )}
    </div>
  );
}
