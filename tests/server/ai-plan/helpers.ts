import type { AiPlan } from '../../../contract/ai-plan.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import type { FakeChatRequest, FakeReply } from '../../fakes/openai-fake.js';

/** The codes (F1, F2…) the prompt listed, read from the user message the way a model would see them. */
export function promptCodes(request: FakeChatRequest): string[] {
  const user = request.body.messages?.find((message) => message.role === 'user')?.content ?? '';
  return [...user.matchAll(/^(F\d+)\. /gm)].map((match) => match[1]!);
}

/** A well-behaved "model": a plan whose steps cite the first codes of the prompt. */
export function planReply(request: FakeChatRequest): FakeReply {
  const codes = promptCodes(request);
  return {
    content: JSON.stringify({
      summary: 'Главная утечка — фразы без конверсий.',
      steps: [
        { title: 'Остановите фразы без конверсий', why: 'Они тратят бюджет без заказов', expected_effect: 'Расход без результата уйдёт', findings: codes.slice(0, 2) },
        { title: 'Исправьте остальное', why: 'Аудит нашёл ещё замечания', expected_effect: null, findings: codes.slice(2, 3) },
      ],
    }),
  };
}

/** Waits, without polling, until the AI plan's row satisfies `ready`: re-checked on every NOTIFY of its run. */
export function waitForPlanRow(url: string, id: string, ready: (row: { status: AiPlan['status'] } & Record<string, unknown>) => boolean) {
  return waitForNotifiedRow<{ status: AiPlan['status'] } & Record<string, unknown>>(url, { channel: 'ai_plan_progress', table: 'ai_plans', id }, ready);
}

export const finished = (row: { status: string }) => row.status === 'completed' || row.status === 'failed';
