/**
 * The AI-plan calls of the PWA and their React Query definitions. A plan's state is kept live while the
 * model works on it by the one live channel of every run (src/lib/live-run.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import type { AiPlan } from '@contract/ai-plan.js';
import { aiPlanRoutes } from '@contract/routes/ai-plan.js';
import { callApi } from '@/lib/call-api';

export const aiPlanKeys = {
  all: ['ai-plans'] as const,
  overview: (analysisId: string) => ['ai-plans', 'overview', analysisId] as const,
  detail: (id: string) => ['ai-plans', 'detail', id] as const,
};

/** Can a plan be asked for (is a model configured), at what price, and the audit's earlier plans. */
export const aiPlanOverviewQueryOptions = (analysisId: string) =>
  queryOptions({
    queryKey: aiPlanKeys.overview(analysisId),
    queryFn: ({ signal }) => callApi(aiPlanRoutes.overview, { params: { id: analysisId }, signal }),
    // Kept on disk (a few plans' dates and the price): the plan screen of an audit once opened reads offline.
    meta: { persist: true },
  });

export const aiPlanQueryOptions = (id: string) =>
  queryOptions({
    queryKey: aiPlanKeys.detail(id),
    queryFn: ({ signal }) => callApi(aiPlanRoutes.get, { params: { id }, signal }).then((answer) => answer.ai_plan),
    // Kept on disk: a plan once opened reads offline (its steps are a few kilobytes of text).
    meta: { persist: true },
  });

export const startAiPlan = (analysisId: string, idempotencyKey: string, expectedCost: number): Promise<AiPlan> =>
  callApi(aiPlanRoutes.start, { params: { id: analysisId }, body: { idempotency_key: idempotencyKey, expected_cost: expectedCost } }).then((answer) => answer.ai_plan);
