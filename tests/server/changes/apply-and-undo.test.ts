import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../../contract/changes.js';
import { changeMessages, directApiMessages } from '../../../contract/messages.js';
import { CHANGE_SETS_CHANNEL } from '../../../server/changes/lifecycle.js';
import { startFakeDirect, teplodomApplyAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { waitForNotifiedRow } from '../helpers/database.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { auditedApiProject } from './helpers.js';

/**
 * Applying an audit's accepted suggestions to a Direct account through the API (the fake records every
 * write and changes its account as Direct would), the journal, and undo.
 */

const DIRECT_TOKEN = 'y0_apply-token';
let fake: FakeDirect;
let t: TestApp;
let owner: FixtureUser;
let analysisId: string;
let projectId: string;

const campaign = (id: number) => fake.account.campaigns.find((item) => item.Id === id)!;
const group = (id: number) => fake.account.adGroups.find((item) => item.Id === id)!;
const keyword = (id: number) => fake.account.keywords.find((item) => item.Id === id)!;
const ad = (id: number) => fake.account.ads.find((item) => item.Id === id)! as unknown as { TextAd: Record<string, unknown>; Status: string };

const ORIGINAL_CAMPAIGN_NEGATIVES = ['бесплатно', 'своими руками', 'вакансии'];
const ACCEPTED_NEGATIVES = ['скачать', 'схема', 'как сделать', 'торрент', 'инструкция'];

beforeAll(async () => {
  fake = await startFakeDirect(teplodomApplyAccount(), { token: DIRECT_TOKEN });
  t = await createTestApp({ config: { yandexDirectApiUrl: fake.url }, jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 100_000 });
  ({ analysisId, projectId } = await auditedApiProject(t.app, owner.token, DIRECT_TOKEN));
  const accepted = ['neg:c0|скачать', 'neg:c0|схема', 'neg:c0|как сделать', 'neg:c0|торрент', 'neg:c0|инструкция', 'xm:grp:c0g0', 'xm:kw:c0g0k4', 'ad:c0g0a1:headline:0'];
  const decided = await call(t.app, 'PUT', `/api/v1/analyses/${analysisId}/decisions`, { token: owner.token, body: { accepted, rejected: [] } });
  expect(decided.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const preview = (body: { pause_keywords?: boolean } = {}) => call<ChangeSet>(t.app, 'POST', `/api/v1/analyses/${analysisId}/change-sets`, { token: owner.token, body });

/** Waits (on the job's NOTIFY, no polling) until the set's job has ended, then reads it through the API. */
async function settled(id: string, token = owner.token): Promise<ChangeSet> {
  await waitForNotifiedRow<{ status: string }>(t.database.url, { channel: CHANGE_SETS_CHANNEL, table: 'change_sets', id }, (row) => row.status !== 'applying' && row.status !== 'undoing');
  return (await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${id}`, { token })).body;
}

const itemOf = (set: ChangeSet, objectId: string) => set.items.find((item) => item.object_id === objectId)!;
const pauseOf = (set: ChangeSet) => set.items.find((item) => item.kind === 'keyword_state')!;

describe('preview, apply, journal, undo', () => {
  let set: ChangeSet;

  it('previews every change with the values read from the API now, and writes nothing', async () => {
    const answer = await preview();
    expect(answer.status).toBe(201);
    set = answer.body;
    expect(set.status).toBe('preview');
    expect(set.can_apply).toBe(true);
    expect(set.units_estimate).toBeGreaterThan(0);
    expect(set.items.map((item) => [item.kind, item.object_id])).toEqual([
      ['campaign_negatives', '701'],
      ['group_negatives', '8001'],
      ['keyword_phrase', '10011'],
      ['ad_texts', '9002'],
    ]);
    expect(itemOf(set, '701')).toMatchObject({ before: { NegativeKeywords: ORIGINAL_CAMPAIGN_NEGATIVES }, after: { NegativeKeywords: [...ORIGINAL_CAMPAIGN_NEGATIVES, ...ACCEPTED_NEGATIVES] }, status: 'pending' });
    expect(itemOf(set, '8001')).toMatchObject({ before: { NegativeKeywords: ['ремонт'] }, after: { NegativeKeywords: ['ремонт', 'теплый пол санкт петербург'] } });
    expect(itemOf(set, '10011')).toMatchObject({ before: { Keyword: 'тёплый пол' }, after: { Keyword: 'тёплый пол -электрический -купить -водяной' } });
    expect(itemOf(set, '9002')).toMatchObject({
      before: { Title: 'Тёплый пол в квартиру и частный дом с монтажом под ключ недорого' },
      after: { Title: 'Тёплый пол в квартиру и частный дом с монтажом под ключ' },
      warning: changeMessages.moderationWarning,
    });
    expect(fake.writes()).toEqual([]);
  });

  it('applies in a job: the exact write calls, whole lists merged with what Yandex holds at that moment', async () => {
    // Someone adds a negative in Direct between the preview and the apply: it must survive.
    campaign(701).NegativeKeywords = { Items: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь'] };
    const started = await call<ChangeSet>(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token });
    expect(started.status).toBe(202);
    expect(started.body.status).toBe('applying');
    const done = await settled(set.id);
    expect(done.status).toBe('applied');
    expect(done.items.every((item) => item.status === 'applied')).toBe(true);
    expect(done.units_spent).toBeGreaterThan(0);

    expect(fake.writes()).toEqual([
      { service: 'campaigns', method: 'update', params: { Campaigns: [{ Id: 701, NegativeKeywords: { Items: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь', ...ACCEPTED_NEGATIVES] } }] } },
      { service: 'adgroups', method: 'update', params: { AdGroups: [{ Id: 8001, NegativeKeywords: { Items: ['ремонт', 'теплый пол санкт петербург'] } }] } },
      { service: 'keywords', method: 'update', params: { Keywords: [{ Id: 10011, Keyword: 'тёплый пол -электрический -купить -водяной' }] } },
      {
        service: 'ads',
        method: 'update',
        params: { Ads: [{ Id: 9002, TextAd: { Title: 'Тёплый пол в квартиру и частный дом с монтажом под ключ' } }] },
      },
    ]);
    expect(campaign(701).NegativeKeywords).toEqual({ Items: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь', ...ACCEPTED_NEGATIVES] });
    expect(ad(9002).Status).toBe('MODERATION');
    // The journal keeps what was replaced (the list with «пермь», as it was at the apply), who and when.
    expect(itemOf(done, '701').replaced).toEqual({ NegativeKeywords: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь'] });
    const journal = await call(t.app, 'GET', `/api/v1/change-sets/${set.id}/journal`, { token: owner.token });
    expect(journal.body.entries).toHaveLength(4);
    expect(journal.body.entries[0]).toMatchObject({ action: 'apply', outcome: 'done', user: 'Иван Петров', replaced: { NegativeKeywords: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь'] } });
    // Applying twice is refused.
    expect((await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token })).status).toBe(409);
  });

  it('undo writes the replaced values back', async () => {
    const before = fake.writes().length;
    const started = await call<ChangeSet>(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} });
    expect(started.status).toBe(202);
    const done = await settled(set.id);
    expect(done.items.map((item) => item.status)).toEqual(['undone', 'undone', 'undone', 'undone']);
    expect(campaign(701).NegativeKeywords).toEqual({ Items: [...ORIGINAL_CAMPAIGN_NEGATIVES, 'пермь'] });
    expect(group(8001).NegativeKeywords).toEqual({ Items: ['ремонт'] });
    expect(keyword(10011).Keyword).toBe('тёплый пол');
    expect(ad(9002).TextAd.Title).toBe('Тёплый пол в квартиру и частный дом с монтажом под ключ недорого');
    expect(fake.writes().slice(before).map((call) => `${call.service}.${call.method}`)).toEqual(['campaigns.update', 'adgroups.update', 'keywords.update', 'ads.update']);
    const journal = await call(t.app, 'GET', `/api/v1/change-sets/${set.id}/journal`, { token: owner.token });
    expect(journal.body.entries.filter((entry: { action: string }) => entry.action === 'undo')).toHaveLength(4);
    // Nothing left to undo.
    expect((await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} })).status).toBe(422);
  });
});

describe('failures and refusals', () => {
  it('a half-failed batch: the items Yandex refused carry its reason, the rest are applied and journalled', async () => {
    const set = (await preview()).body;
    fake.failItems('ads', [9002], { Code: 5004, Message: 'Превышена допустимая длина строки', Details: 'Заголовок длиннее 56 символов' });
    fake.failItems('campaigns', [701], { Code: 6000, Message: 'Кампания в архиве', Details: 'Изменение архивной кампании невозможно' });
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token });
    const done = await settled(set.id);
    expect(done.status).toBe('partly_applied');
    expect(itemOf(done, '9002')).toMatchObject({ status: 'failed', message: 'Превышена допустимая длина строки. Заголовок длиннее 56 символов' });
    expect(itemOf(done, '701')).toMatchObject({ status: 'failed', message: 'Кампания в архиве. Изменение архивной кампании невозможно' });
    expect(itemOf(done, '8001').status).toBe('applied');
    expect(itemOf(done, '10011').status).toBe('applied');
    const journal = (await call(t.app, 'GET', `/api/v1/change-sets/${set.id}/journal`, { token: owner.token })).body.entries as { outcome: string }[];
    expect(journal.map((entry) => entry.outcome).sort()).toEqual(['done', 'done', 'failed', 'failed']);
    // Every item has exactly one outcome and one journal row: nothing half-recorded.
    const rows = await t.app.db.selectFrom('change_items').select(['status']).where('change_set_id', '=', set.id).execute();
    expect(rows.every((row) => row.status !== 'pending')).toBe(true);
    expect(ad(9002).TextAd.Title).toBe('Тёплый пол в квартиру и частный дом с монтажом под ключ недорого');

    // Undo refuses a list changed on Yandex's side since, and says what changed; the rest is undone.
    group(8001).NegativeKeywords = { Items: ['ремонт', 'теплый пол санкт петербург', 'укладка плитки'] };
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} });
    const undone = await settled(set.id);
    expect(itemOf(undone, '8001')).toMatchObject({ status: 'undo_refused', message: changeMessages.changedSince.replace('{what}', 'Минус-фразы: добавлено «укладка плитки»') });
    expect(group(8001).NegativeKeywords).toEqual({ Items: ['ремонт', 'теплый пол санкт петербург', 'укладка плитки'] });
    expect(itemOf(undone, '10011').status).toBe('undone');
    expect(keyword(10011).Keyword).toBe('тёплый пол');
  });

  it('a token refused mid-way leaves the rest pending and recorded; applying again continues without writing anything twice', async () => {
    const set = (await preview()).body;
    const before = fake.writes().length;
    fake.failNext('adgroups', { error_code: 53, error_string: 'Ошибка авторизации', error_detail: 'OAuth-токен отозван' });
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token });
    const stopped = await settled(set.id);
    expect(stopped).toMatchObject({ status: 'partly_applied', error: directApiMessages.invalidToken });
    expect(stopped.items.map((item) => item.status)).toEqual(['applied', 'failed', 'pending', 'pending']);
    expect(itemOf(stopped, '8001').message).toBe(changeMessages.batchFailed.replace('{reason}', directApiMessages.invalidToken));

    expect((await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token })).status).toBe(202);
    const resumed = await settled(set.id);
    expect(resumed.items.map((item) => item.status)).toEqual(['applied', 'failed', 'applied', 'applied']);
    expect(fake.writes().slice(before).map((write) => `${write.service}.${write.method}`)).toEqual(['campaigns.update', 'keywords.update', 'ads.update']);
    // Nothing is left to apply.
    expect((await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token })).status).toBe(409);
    // Back to the account as it was, for the tests after this one.
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} });
    await settled(set.id);
  });

  it('pauses the keywords the audit says to stop when asked, and an undo resumes them unless resumed in Direct already', async () => {
    const set = (await preview({ pause_keywords: true })).body;
    const pause = pauseOf(set);
    expect(set.items.filter((item) => item.kind === 'keyword_state')).toHaveLength(1);
    expect(pause).toMatchObject({ kind: 'keyword_state', label: 'тёплый пол', before: { State: 'ON' }, after: { State: 'SUSPENDED' } });
    const before = fake.writes().length;
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: owner.token });
    await settled(set.id);
    expect(fake.writes().slice(before)).toContainEqual({ service: 'keywords', method: 'suspend', params: { SelectionCriteria: { Ids: [10011] } } });
    expect(keyword(10011).State).toBe('SUSPENDED');

    // Resumed by someone in Direct: the undo leaves it and says so; the rest is undone.
    keyword(10011).State = 'ON';
    await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} });
    const undone = await settled(set.id);
    expect(pauseOf(undone)).toMatchObject({ status: 'undo_refused', message: changeMessages.changedSince.replace('{what}', 'Показы: «остановлены» → «идут»') });
    expect(fake.writes().slice(before).some((write) => write.method === 'resume')).toBe(false);

    // A clean round trip: paused, then resumed by the undo.
    const again = (await preview({ pause_keywords: true })).body;
    await call(t.app, 'POST', `/api/v1/change-sets/${again.id}/apply`, { token: owner.token });
    await settled(again.id);
    await call(t.app, 'POST', `/api/v1/change-sets/${again.id}/undo`, { token: owner.token, body: { item_ids: [pauseOf(again).id] } });
    const resumed = await settled(again.id);
    expect(pauseOf(resumed).status).toBe('undone');
    expect(fake.writes().at(-1)).toEqual({ service: 'keywords', method: 'resume', params: { SelectionCriteria: { Ids: [10011] } } });
    expect(keyword(10011).State).toBe('ON');
    await call(t.app, 'POST', `/api/v1/change-sets/${again.id}/undo`, { token: owner.token, body: {} });
    await settled(again.id);
  });

  it('only the roles the organization allows may apply; the owner sets it', async () => {
    const member = await createUser(t.app, { organizationId: owner.organizationId, firstName: 'Мария', lastName: 'Сидорова' });
    const set = (await preview()).body;
    const mine = await call<ChangeSet>(t.app, 'GET', `/api/v1/change-sets/${set.id}`, { token: member.token });
    expect(mine.body.can_apply).toBe(false);
    const refused = await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(changeMessages.notAllowed.replace('{who}', 'только владелец организации'));
    expect((await call(t.app, 'PUT', '/api/v1/organizations/current/apply-settings', { token: member.token, body: { apply_changes_role: 'member' } })).status).toBe(403);
    const changed = await call(t.app, 'PUT', '/api/v1/organizations/current/apply-settings', { token: owner.token, body: { apply_changes_role: 'member' } });
    expect(changed.body).toEqual({ apply_changes_role: 'member' });
    expect((await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/apply`, { token: member.token })).status).toBe(202);
    const done = await settled(set.id, member.token);
    expect(done.applied_by).toBe('Мария Сидорова');
    await call(t.app, 'PUT', '/api/v1/organizations/current/apply-settings', { token: owner.token, body: { apply_changes_role: 'owner' } });

    // Older than 30 days: no longer undoable.
    await t.app.db.updateTable('change_items').set({ applied_at: sql<Date>`now() - interval '31 days'` }).where('change_set_id', '=', set.id).execute();
    const late = await call(t.app, 'POST', `/api/v1/change-sets/${set.id}/undo`, { token: owner.token, body: {} });
    expect(late.status).toBe(422);
    expect(late.body.error).toBe(changeMessages.nothingToUndo.replace('{days}', '30'));
  });

  it('another organization sees none of it; a project without an API connection is told so', async () => {
    const stranger = await createUser(t.app);
    const list = await call(t.app, 'GET', `/api/v1/projects/${projectId}/change-sets`, { token: owner.token });
    expect(list.body.change_sets.length).toBeGreaterThanOrEqual(3);
    const someId = list.body.change_sets[0].id as string;
    expect((await call(t.app, 'GET', `/api/v1/change-sets/${someId}`, { token: stranger.token })).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/v1/change-sets/${someId}/undo`, { token: stranger.token, body: {} })).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/change-sets`, { token: stranger.token, body: {} })).status).toBe(404);
  });
});
