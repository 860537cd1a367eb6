import type { AiPlanResult, AiPlanStatus } from '../../../contract/ai-plan.js';
import type { NullableJson, PaidRunColumns } from './columns.js';

/** One paid AI plan of a completed audit. */
export interface AiPlansTable extends PaidRunColumns<AiPlanStatus> {
  /** The completed audit (`analyses.id`) the plan is written for. */
  analysis_id: string;
  model: string;
  prompt_chars: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  plan: NullableJson<AiPlanResult>;
}

export interface AiPlanTables {
  ai_plans: AiPlansTable;
}
