import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeItem, ChangeSet } from '../../../contract/changes.js';
import { changeMessages } from '../../../contract/messages.js';
import { CHANGE_SET_STALE_SECONDS, recoverLostChangeSets } from '../../../server/changes/recovery.js';
import { CHANGE_SETS_CHANNEL } from '../../../server/changes/lifecycle.js';
import { startFakeDirect, teplodomBidsSitesAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { auditedApiProject } from './helpers.js';

/**
 * Bids under manual strategies (`keywordbids.set`), a campaign's excluded network sites (`campaigns.update
 * ExcludedSites`, within 1 000), items kept or left out of a preview (keyword pauses one by one), and a set
 * whose job is lost. The fake records every write call and changes its account as Direct would.
 */

const DIRECT_TOKEN = 'y0_bids-token';
let fake: FakeDirect;
let t: TestApp;
let owner: FixtureUser;
let analysisId: string;

const keyword = (id: number) => fake.account.keywords.find((item) => item.Id === id)!;
const campaign = (id: number) => fake.account.campaigns.find((item) => item.Id === id)!;
const MANUAL = { Search: { BiddingStrategyType: 'HIGHEST_POSITION', PlacementTypes: { SearchResults: 'YES', ProductGallery: 'YES', DynamicPlaces: 'YES' } }, Network: { BiddingStrategyType: 'SERVING_OFF' } };
const AUTOMATIC = { Search: { BiddingStrategyType: 'WB_MAXIMUM_CLICKS', WbMaximumClicks: { WeeklySpendLimit: 5_000_000_000 } }, Network: { BiddingStrategyType: 'SERVING_OFF' } };
const setStrategy = (id: number, strategy: unknown) => ((campaign(id).TextCampaign as Record<string, unknown>).BiddingStrategy = strategy);

beforeAll(async () => {
  fake = await startFakeDirect(teplodomBidsSitesAccount(), { token: DIRECT_TOKEN });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url }, jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 100_000 });
  ({ analysisId } = await auditedApiProject(t.app, owner.token, DIRECT_TOKEN));
}, 120_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const preview = (body: { pause_keywords?: boolean; bids?: boolean; exclude_sites?: boolean }) => call<ChangeSet>(t.app, 'POST', `/api/v1/analyses/${analysisId}/change-sets`, { token: owner.token, body });
const apply = (id: string) => call<ChangeSet>(t.app, 'POST', `/api/v1/change-sets/${id}/apply`, { token: owner.token });
const undo = (id: string, itemIds?: string[]) => call<ChangeSet>(t.app, 'POST', `/api/v1/change-sets/${id}/undo`, { token: owner.token, body: itemIds ? { item_ids: itemIds } : {} });
const select = (id: string, itemIds: string[], selected: boolean) => call<ChangeSet>(t.app, 'PUT', `/api/v1/change-sets/${id}/selection`, { token: owner.token, body: { item_ids: itemIds, selected } });

async function settled(id: string): Promise<ChangeSet> {
  await waitForNotifiedRow<{ status: string }>(t.database.url, { channel: CHANGE_SETS_CHANNEL, table: 'change_sets', id }, (row) => row.status !== 'applying' && row.status !== 'undoing');
  return (await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${id}`, { token: owner.token })).body;
}

const itemOf = (set: ChangeSet, kind: ChangeItem['kind'], objectId: string) => set.items.find((item) => item.kind === kind && item.object_id === objectId)!;
const writesSince = (before: number) => fake.writes().slice(before);

describe('bids under a manual strategy', () => {
  it('previews the advised bids read with keywordbids.get, writes exactly them with keywordbids.set, and an undo writes the old bids back', async () => {
    const answer = await preview({ bids: true });
    expect(answer.status).toBe(201);
    const set = answer.body;
    // The audit: «купить» converts at 2 400 ₽ (lower by the 30 % step), the two cheap ones get +20 %.
    expect(set.items.map((item) => [item.kind, item.object_id, item.before, item.after])).toEqual([
      ['keyword_bids', '10001', { SearchBid: '25000000' }, { SearchBid: '30000000' }],
      ['keyword_bids', '10002', { SearchBid: '30500000' }, { SearchBid: '36600000' }],
      ['keyword_bids', '10012', { SearchBid: '15000000' }, { SearchBid: '10500000' }],
    ]);
    expect(set.items.every((item) => item.selected)).toBe(true);
    expect(fake.writes()).toEqual([]);
    expect(fake.requests.some((request) => request.service === 'keywordbids' && request.method === 'get')).toBe(true);

    // The person leaves one bid out: it is never written, and the points are counted without it.
    const kept = await select(set.id, [itemOf(set, 'keyword_bids', '10002').id], false);
    expect(kept.status).toBe(200);
    expect(itemOf(kept.body, 'keyword_bids', '10002').selected).toBe(false);
    expect(kept.body.units_estimate).toBeLessThan(set.units_estimate);

    const before = fake.writes().length;
    expect((await apply(set.id)).status).toBe(202);
    const done = await settled(set.id);
    expect(done.status).toBe('applied');
    expect(writesSince(before)).toEqual([{ service: 'keywordbids', method: 'set', params: { KeywordBids: [{ KeywordId: 10001, SearchBid: 30_000_000 }, { KeywordId: 10012, SearchBid: 10_500_000 }] } }]);
    expect(keyword(10001).Bid).toBe(30_000_000);
    expect(keyword(10002).Bid).toBe(30_500_000);
    expect(itemOf(done, 'keyword_bids', '10002').status).toBe('pending');
    // The journal keeps the bid read before the write.
    const journal = (await call(t.app, 'GET', `/api/v1/change-sets/${set.id}/journal`, { token: owner.token })).body.entries as { replaced: unknown; written: unknown }[];
    expect(journal.map((entry) => [entry.replaced, entry.written])).toEqual([
      [{ SearchBid: '25000000' }, { SearchBid: '30000000' }],
      [{ SearchBid: '15000000' }, { SearchBid: '10500000' }],
    ]);

    // Someone set the bid of «купить» by hand in Direct since: its undo is refused and says so; the other is written back.
    keyword(10012).Bid = 12_000_000;
    const undoFrom = fake.writes().length;
    await undo(set.id);
    const undone = await settled(set.id);
    expect(itemOf(undone, 'keyword_bids', '10001').status).toBe('undone');
    expect(itemOf(undone, 'keyword_bids', '10012')).toMatchObject({ status: 'undo_refused', message: changeMessages.changedSince.replace('{what}', 'Ставка на поиске: «10,50 ₽» → «12,00 ₽»') });
    expect(writesSince(undoFrom)).toEqual([{ service: 'keywordbids', method: 'set', params: { KeywordBids: [{ KeywordId: 10001, SearchBid: 25_000_000 }] } }]);
    expect(keyword(10001).Bid).toBe(25_000_000);
    expect(keyword(10012).Bid).toBe(12_000_000);
    keyword(10012).Bid = 15_000_000;
  });

  it('never writes a bid under an automatic strategy: none is offered, and one turned automatic after the preview fails with the reason', async () => {
    setStrategy(701, AUTOMATIC);
    const refused = await preview({ bids: true });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe(changeMessages.nothingApplicable.replace('{reasons}', changeMessages.automaticStrategy.replace('{strategy}', 'стратегия «Максимум кликов»')));
    setStrategy(701, MANUAL);

    const set = (await preview({ bids: true })).body;
    setStrategy(701, AUTOMATIC);
    const before = fake.writes().length;
    await apply(set.id);
    const done = await settled(set.id);
    expect(done.status).toBe('failed');
    expect(done.items.every((item) => item.status === 'failed' && item.message === changeMessages.automaticStrategy.replace('{strategy}', 'стратегия «Максимум кликов»'))).toBe(true);
    expect(writesSince(before)).toEqual([]);
    setStrategy(701, MANUAL);
  });
});

describe('excluded network sites', () => {
  it('merges the sites into the whole list read from Direct (nothing there lost), and an undo writes the old list back', async () => {
    const set = (await preview({ exclude_sites: true })).body;
    const sites = itemOf(set, 'campaign_excluded_sites', '702');
    // «old-site.example» is excluded already: the audit leaves it out.
    expect(sites).toMatchObject({ label: 'Тёплый пол — РСЯ', before: { ExcludedSites: ['old-site.example'] }, after: { ExcludedSites: ['old-site.example', 'games-one.example', 'weather.example', 'com.puzzle.game'] }, warning: null });

    // A site added in Direct after the preview is kept.
    campaign(702).ExcludedSites = { Items: ['old-site.example', 'added-by-hand.example'] };
    const before = fake.writes().length;
    await apply(set.id);
    const done = await settled(set.id);
    expect(done.status).toBe('applied');
    expect(writesSince(before)).toEqual([
      { service: 'campaigns', method: 'update', params: { Campaigns: [{ Id: 702, ExcludedSites: { Items: ['old-site.example', 'added-by-hand.example', 'games-one.example', 'weather.example', 'com.puzzle.game'] } }] } },
    ]);
    expect(itemOf(done, 'campaign_excluded_sites', '702').replaced).toEqual({ ExcludedSites: ['old-site.example', 'added-by-hand.example'] });

    await undo(set.id);
    const undone = await settled(set.id);
    expect(itemOf(undone, 'campaign_excluded_sites', '702').status).toBe('undone');
    expect(campaign(702).ExcludedSites).toEqual({ Items: ['old-site.example', 'added-by-hand.example'] });
  });

  it('keeps within 1 000 sites a campaign and says in Russian which did not fit', async () => {
    const existing = Array.from({ length: 998 }, (_, index) => `site-${index + 1}.example`);
    campaign(702).ExcludedSites = { Items: existing };
    const set = (await preview({ exclude_sites: true })).body;
    const item = itemOf(set, 'campaign_excluded_sites', '702');
    const notFitted = changeMessages.sitesNotFitted.replace('{limit}', (1000).toLocaleString('ru-RU')).replace('{sites}', 'com.puzzle.game');
    expect(item.after).toEqual({ ExcludedSites: [...existing, 'games-one.example', 'weather.example'] });
    expect(item.warning).toBe(notFitted);

    const before = fake.writes().length;
    await apply(set.id);
    const done = await settled(set.id);
    const written = writesSince(before);
    expect(written).toHaveLength(1);
    expect(written[0]!.params.Campaigns[0].ExcludedSites.Items).toEqual([...existing, 'games-one.example', 'weather.example']);
    expect(itemOf(done, 'campaign_excluded_sites', '702')).toMatchObject({ status: 'applied', message: notFitted });
    expect((campaign(702).ExcludedSites as { Items: string[] }).Items).toHaveLength(1000);

    // Full already: nothing to write, said instead of an empty item.
    const full = await preview({ exclude_sites: true });
    expect(full.status).toBe(422);
    expect(full.body.error).toBe(changeMessages.nothingApplicable.replace('{reasons}', changeMessages.sitesNotFitted.replace('{limit}', (1000).toLocaleString('ru-RU')).replace('{sites}', 'com.puzzle.game')));
    await undo(set.id);
    await settled(set.id);
    campaign(702).ExcludedSites = { Items: ['old-site.example'] };
  });
});

describe('keyword pauses chosen one by one', () => {
  it('a pause left out of the preview is not written; the rest of the set is', async () => {
    const set = (await preview({ pause_keywords: true, exclude_sites: true })).body;
    const pause = itemOf(set, 'keyword_state', '10011');
    expect(pause).toMatchObject({ after: { State: 'SUSPENDED' }, selected: true });
    await select(set.id, [pause.id], false);
    const before = fake.writes().length;
    await apply(set.id);
    const done = await settled(set.id);
    expect(done.status).toBe('applied');
    expect(writesSince(before).map((write) => `${write.service}.${write.method}`)).toEqual(['campaigns.update']);
    expect(keyword(10011).State).toBe('ON');
    expect(itemOf(done, 'keyword_state', '10011')).toMatchObject({ status: 'pending', selected: false });
    // Once applied, the choice is closed.
    const late = await select(set.id, [pause.id], true);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(changeMessages.notPreview);
    await undo(set.id);
    await settled(set.id);
  });

  it('nothing kept: the apply is refused with the reason', async () => {
    const set = (await preview({ pause_keywords: true })).body;
    await select(set.id, set.items.map((item) => item.id), false);
    const refused = await apply(set.id);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe(changeMessages.nothingSelected);
  });
});

describe('a set whose job is lost', () => {
  /** As a process that died mid-apply leaves it: applying, its job gone from the queue, the heartbeat written `at`. */
  async function lostMidApply(at: Date): Promise<ChangeSet> {
    const set = (await preview({ bids: true })).body;
    await t.app.db
      .updateTable('change_sets')
      .set({ status: 'applying', job_id: randomUUID(), job_data: JSON.stringify({ action: 'apply', userId: owner.id }), heartbeat_at: at })
      .where('id', '=', set.id)
      .execute();
    // The first item had been applied and journalled before the process died.
    const first = set.items[0]!;
    await t.app.db.updateTable('change_items').set({ status: 'applied', applied_at: at, replaced: JSON.stringify(first.before), written: JSON.stringify(first.after) }).where('id', '=', first.id).execute();
    keyword(Number(first.object_id)).Bid = Number(first.after.SearchBid);
    return set;
  }

  it('ends once the heartbeat is older than the timeout (a controllable clock): the rest marked in Russian, and applying again continues without writing twice', async () => {
    const start = new Date();
    const set = await lostMidApply(start);
    // Within the timeout the job may still be alive: nothing happens.
    expect(await recoverLostChangeSets(t.app.db, { now: new Date(start.getTime() + (CHANGE_SET_STALE_SECONDS - 10) * 1000), changeSetId: set.id })).toEqual([]);
    expect((await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${set.id}`, { token: owner.token })).body.status).toBe('applying');

    expect(await recoverLostChangeSets(t.app.db, { now: new Date(start.getTime() + (CHANGE_SET_STALE_SECONDS + 10) * 1000) })).toEqual([set.id]);
    const ended = (await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${set.id}`, { token: owner.token })).body;
    expect(ended).toMatchObject({ status: 'partly_applied', error: changeMessages.jobLost.replace('{minutes}', '2') });
    expect(ended.items.map((item) => [item.status, item.message])).toEqual([
      ['applied', null],
      ['pending', changeMessages.itemInterrupted],
      ['pending', changeMessages.itemInterrupted],
    ]);
    // A second sweep finds nothing more.
    expect(await recoverLostChangeSets(t.app.db, { now: new Date(start.getTime() + 3600_000) })).toEqual([]);

    const before = fake.writes().length;
    expect((await apply(set.id)).status).toBe(202);
    const resumed = await settled(set.id);
    expect(resumed.status).toBe('applied');
    expect(writesSince(before)).toEqual([{ service: 'keywordbids', method: 'set', params: { KeywordBids: [{ KeywordId: 10002, SearchBid: 36_600_000 }, { KeywordId: 10012, SearchBid: 10_500_000 }] } }]);
    await undo(set.id);
    await settled(set.id);
  });

  it('someone reading a set whose heartbeat is long stale ends it there', async () => {
    const set = await lostMidApply(new Date(Date.now() - 10 * 60_000));
    const read = (await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${set.id}`, { token: owner.token })).body;
    expect(read.status).toBe('partly_applied');
    expect(read.error).toBe(changeMessages.jobLost.replace('{minutes}', '2'));
    const rows = await t.app.db.selectFrom('change_sets').select(['job_id', 'heartbeat_at']).where('id', '=', set.id).executeTakeFirstOrThrow();
    expect(rows).toEqual({ job_id: null, heartbeat_at: null });
    await t.app.db.updateTable('change_items').set({ applied_at: sql<Date>`now() - interval '31 days'` }).where('change_set_id', '=', set.id).execute();
  });
});
