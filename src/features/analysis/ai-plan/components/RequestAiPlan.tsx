import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { PaidStartButton, PaidStartWaitHint } from '@/components/ui/PaidStartButton';
import type { AiPlanOverview } from '@contract/ai-plan.js';
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
  const waitHintId = useId();
  const start = usePaidRunStart((idempotencyKey, _: void, expectedCost) => startAiPlan(analysisId, idempotencyKey, expectedCost), {
    price: overview.available ? overview.price : null,
    onPriceChanged: () => void queryClient.invalidateQueries({ queryKey: aiPlanKeys.overview(analysisId) }),
    onStarted: (plan) => {
      queryClient.setQueryData(aiPlanKeys.detail(plan.id), plan);
      void queryClient.invalidateQueries({ queryKey: aiPlanKeys.overview(analysisId) });
      void navigate({ to: '/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId', params: { id: projectId, analysisId, aiPlanId: plan.id } });
    },
  });

  if (!overview.available) return <p className="muted">{overview.unavailable_reason}</p>;
  const short = overview.price > overview.balance;
  return (
    <div className="ai-plan-request">
      <PaidStartButton
        wait={start.wait}
        pending={start.isPending}
        disabled={short}
        label={`${label} · ${formatTokens(overview.price)}`}
        pendingLabel="Отправляем запрос…"
        hintId={waitHintId}
        onClick={() => start.mutate()}
      />
      <PaidStartWaitHint wait={start.wait} id={waitHintId} />
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
