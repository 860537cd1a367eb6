/** The per-user import lease (server/projects/import-lease.ts): one holder at a time, across processes, expiring on its own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeImportLease } from '../../../server/projects/import-lease.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('import lease', () => {
  it('is held by one import of a user at a time and free again once released', async () => {
    const { id } = await createUser(t.app);
    const { id: other } = await createUser(t.app);
    const release = await takeImportLease(t.app.db, id, 60_000);
    expect(release).not.toBeNull();
    expect(await takeImportLease(t.app.db, id, 60_000)).toBeNull();
    const otherRelease = await takeImportLease(t.app.db, other, 60_000);
    expect(otherRelease).not.toBeNull();
    await release!();
    const again = await takeImportLease(t.app.db, id, 60_000);
    expect(again).not.toBeNull();
    await again!();
    await otherRelease!();
  });

  it("expires on its own (its process died), and the dead holder's late release leaves the new lease alone", async () => {
    const { id } = await createUser(t.app);
    // Taken with a lifetime already over: what a lease of a crashed process looks like once its time has passed.
    const dead = await takeImportLease(t.app.db, id, -1_000);
    expect(dead).not.toBeNull();
    const live = await takeImportLease(t.app.db, id, 60_000);
    expect(live).not.toBeNull();
    await dead!();
    expect(await takeImportLease(t.app.db, id, 60_000)).toBeNull();
    await live!();
  });
});
