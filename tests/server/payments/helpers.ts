import { sql } from 'kysely';
import { vi } from 'vitest';
import type { DB } from '../../../server/db/database.js';
import { YOOKASSA_CHECK_QUEUE } from '../../../server/payments/notification-check.js';

/** Waits (polling, no fixed sleep) until no check of a YooKassa notification is queued, retried or running. */
export async function notificationChecksDone(db: DB, timeout = 10_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${YOOKASSA_CHECK_QUEUE} AND state IN ('created', 'retry', 'active')`.execute(db);
      if (rows[0]!.n > 0) throw new Error(`${rows[0]!.n} notification checks pending`);
    },
    { timeout, interval: 25 },
  );
}
