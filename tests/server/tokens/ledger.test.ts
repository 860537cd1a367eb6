import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLedgerEntry, getBalance } from '../../../server/tokens/ledger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';

// The ledger is the only way a balance moves. These tests hit it the way real traffic does: many
// transactions at once on the run's PostgreSQL (embedded, or TEST_DATABASE_URL in CI).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('applyLedgerEntry under concurrency', () => {
  it('lets exactly 50 of 100 concurrent debits through a balance of 50, and never goes below zero', async () => {
    const user = await createUser(t.app, { balance: 0 });
    await applyLedgerEntry(t.app.db, { userId: user.id, organizationId: user.organizationId, type: 'welcome', amount: 50, idempotencyKey: 'welcome' });

    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        applyLedgerEntry(t.app.db, { userId: user.id, organizationId: user.organizationId, type: 'analysis_debit', amount: -1, idempotencyKey: `debit-${i}` }),
      ),
    );

    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(succeeded).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const failure of refused) expect(failure.reason).toMatchObject({ statusCode: 402, code: 'INSUFFICIENT_TOKENS' });
    expect(await getBalance(t.app.db, user.id)).toBe(0);

    const debits = await t.app.db.selectFrom('token_ledger').select(['amount', 'balance_after']).where('user_id', '=', user.id).where('type', '=', 'analysis_debit').execute();
    expect(debits).toHaveLength(50);
    // Every balance from 49 down to 0 was recorded exactly once: the debits were serialised.
    expect(debits.map((d) => d.balance_after).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('applies one idempotency key once when it is used 20 times at the same moment', async () => {
    const user = await createUser(t.app, { balance: 10 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        applyLedgerEntry(t.app.db, { userId: user.id, organizationId: user.organizationId, type: 'analysis_debit', amount: -3, idempotencyKey: 'start-analysis-42' }),
      ),
    );

    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(await getBalance(t.app.db, user.id)).toBe(7);
    const entries = await t.app.db.selectFrom('token_ledger').select('id').where('user_id', '=', user.id).execute();
    expect(entries).toHaveLength(1);
  });

  it('refuses a key reused for a different amount, and rolls a refused debit back entirely', async () => {
    const user = await createUser(t.app, { balance: 5 });
    await applyLedgerEntry(t.app.db, { userId: user.id, organizationId: null, type: 'analysis_debit', amount: -2, idempotencyKey: 'k1' });
    await expect(applyLedgerEntry(t.app.db, { userId: user.id, organizationId: null, type: 'analysis_debit', amount: -4, idempotencyKey: 'k1' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await expect(applyLedgerEntry(t.app.db, { userId: user.id, organizationId: null, type: 'analysis_debit', amount: -4, idempotencyKey: 'k2' })).rejects.toMatchObject({ statusCode: 402 });

    expect(await getBalance(t.app.db, user.id)).toBe(3);
    const keys = await t.app.db.selectFrom('token_ledger').select('idempotency_key').where('user_id', '=', user.id).execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual(['k1']);
  });

  it('keeps a change inside a caller transaction that rolls back out of the balance', async () => {
    const user = await createUser(t.app, { balance: 5 });
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await applyLedgerEntry(trx, { userId: user.id, organizationId: null, type: 'analysis_debit', amount: -5, idempotencyKey: 'in-trx' });
        throw new Error('enqueue failed');
      }),
    ).rejects.toThrow('enqueue failed');
    expect(await getBalance(t.app.db, user.id)).toBe(5);
  });
});
