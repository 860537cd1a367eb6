import pg from 'pg';
import type { AiPlan } from '../../../src/contract/ai-plan.js';
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
export async function waitForPlanRow(url: string, id: string, ready: (row: { status: AiPlan['status'] } & Record<string, unknown>) => boolean) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('LISTEN ai_plan_progress');
    const read = async () => (await client.query(`SELECT * FROM ai_plans WHERE id = $1`, [id])).rows[0];
    return await new Promise<Record<string, unknown>>((resolve, reject) => {
      let checking = Promise.resolve();
      const check = () => {
        checking = checking.then(async () => {
          const row = await read();
          if (row && ready(row)) resolve(row);
        }, reject);
      };
      client.on('notification', (message) => message.payload === id && check());
      check();
    });
  } finally {
    await client.end();
  }
}

export const finished = (row: { status: string }) => row.status === 'completed' || row.status === 'failed';
