import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import type { PageCheck } from '../../../contract/page-check.js';
import { call } from '../helpers/app.js';

/** The caller's token balance as the API shows it. */
export const balanceOf = async (app: FastifyInstance, token: string): Promise<number> => (await call(app, 'GET', '/api/v1/tokens/balance', { token })).body.balance as number;

/** The page check once it has ended (completed or failed), as its owner reads it. */
export async function finishedPageCheck(app: FastifyInstance, token: string, id: string): Promise<PageCheck> {
  let check!: PageCheck;
  await vi.waitFor(
    async () => {
      check = (await call(app, 'GET', `/api/v1/page-checks/${id}`, { token })).body.analysis;
      expect(['completed', 'failed']).toContain(check.status);
    },
    { timeout: 25_000, interval: 100 },
  );
  return check;
}
