/**
 * A big account uploaded the way Commander exports it: several structure files and several search-query
 * report files in ONE preview. The draft is rows (a campaign a row, queries in chunks of 10 000), never one
 * jsonb value; saving moves them into the project (append/replace as before), the project's report stays
 * in chunks, and the draft's rows go with the draft (saved, expired, failed or refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFiles } from '../../../bench/account-files.js';
import { generateAccount } from '../../../bench/analysis.js';
import { campaignDataOf } from '../../../server/analysis/run-audit.js';
import { MessageChannel } from 'node:worker_threads';
import { receiveDraftRows, SEARCH_QUERY_CHUNK, sendDraftRows } from '../../../server/projects/draft-rows.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, insertDraft, sampleCampaignData, upload } from './helpers.js';

let t: TestApp;
let user: FixtureUser;
let stranger: FixtureUser;

/** 3 campaigns × 500 groups × 20 keywords, 6 000 ads and its query report, as 3 structure files + 2 report files. */
const account = generateAccount({ campaigns: 3, groupsPerCampaign: 500 });
const generated = accountFiles(account, { rowsPerFile: 10_000, reportRowsPerFile: 12_000 });
/** The report summed per query, campaign and group, in first-seen order, as the importer keeps it. */
const reportQueries = [...new Map(account.searchQueries.map((q) => [[q.query.toLowerCase(), q.campaignName, q.groupName].join('\u0001'), q.query])).values()];
const queryCount = reportQueries.length;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.app);
  stranger = await createUser(t.app);
});
afterAll(() => t.close());

const previewAll = (token: string) =>
  upload(
    t.app,
    '/api/v1/projects/import-preview',
    token,
    generated.files.map((file) => ({ name: file.name, content: file.text })),
    { platform: 'yandex_direct' },
  );

async function draftRows(draftId: string) {
  const db = t.database.db;
  const [campaigns, queries] = await Promise.all([
    db.selectFrom('import_draft_campaigns').select('position').where('draft_id', '=', draftId).orderBy('position').execute(),
    db.selectFrom('import_draft_search_queries').select(['position', 'rows_count']).where('draft_id', '=', draftId).orderBy('position').execute(),
  ]);
  return { campaigns: campaigns.map((row) => row.position), queryChunks: queries.map((row) => row.rows_count) };
}

/** What the analysis reads for the project (worker.ts loadAuditInput): the report's chunks in order. */
async function auditQueries(projectId: string) {
  const rows = await t.database.db
    .selectFrom('project_search_queries')
    .select(['data', 'rows_count'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('import_id')
    .orderBy('position')
    .execute();
  const data = campaignDataOf({ platform: 'yandex_direct', period: null, campaigns: [], searchQueries: rows.map((row) => JSON.stringify(row.data)) });
  return { chunks: rows.map((row) => row.rows_count), queries: data.searchQueries };
}

const chunksOf = (total: number) => Array.from({ length: Math.ceil(total / SEARCH_QUERY_CHUNK) }, (_, i) => Math.min(SEARCH_QUERY_CHUNK, total - i * SEARCH_QUERY_CHUNK));

describe('several export files of a big account in one preview', () => {
  it('previews all files at once into draft rows, with a small answer, and saves them into the project', async () => {
    expect(generated.files.map((file) => file.name)).toEqual(['account-1.csv', 'account-2.csv', 'account-3.csv', 'search-queries-1.csv', 'search-queries-2.csv']);
    expect(queryCount).toBeGreaterThan(SEARCH_QUERY_CHUNK);

    const preview = await previewAll(user.token);
    expect(preview.status).toBe(200);
    // (The generated account repeats a few phrases within a group; the importer keeps one of each.)
    const keywords = preview.body.counts.keywords;
    expect(keywords).toBeGreaterThan(29_000);
    expect(preview.body.counts).toEqual({ campaigns: 3, groups: 1500, ads: generated.ads, keywords, searchQueries: queryCount });
    expect(preview.body.file_names).toEqual(generated.files.map((file) => file.name));
    expect(preview.body.problems).toEqual([]);
    // The answer is the summary, whatever the size of the account: no campaign documents, no queries.
    expect(JSON.stringify(preview.body).length).toBeLessThan(5_000);
    expect(preview.body.campaigns.map((c: { name: string; groups: number }) => [c.name, c.groups])).toEqual(account.campaigns.map((c) => [c.name, 500]));

    // The draft is a row per campaign and the queries in chunks.
    expect(await draftRows(preview.body.draft_id)).toEqual({ campaigns: [0, 1, 2], queryChunks: chunksOf(queryCount) });

    const project = await createProject(t.app, user.token, { draft_id: preview.body.draft_id });
    expect(project.counts).toEqual({ campaigns: 3, groups: 1500, ads: generated.ads, keywords });
    expect(project.search_queries).toBe(queryCount);
    expect(project.period).toEqual({ from: '2024-03-01', to: '2024-03-31' });
    expect(project.campaigns.map((c: { name: string }) => c.name)).toEqual(account.campaigns.map((c) => c.name));

    // Saved: the draft and its rows are gone; the project's report is chunks, read back whole and in order.
    expect(await draftRows(preview.body.draft_id)).toEqual({ campaigns: [], queryChunks: [] });
    expect(await t.database.db.selectFrom('import_drafts').select('id').where('id', '=', preview.body.draft_id).execute()).toEqual([]);
    const read = await auditQueries(project.id);
    expect(read.chunks).toEqual(chunksOf(queryCount));
    expect(read.queries.map((q) => q.query)).toEqual(reportQueries);

    const document = await call(t.app, 'GET', `/api/v1/projects/${project.id}/campaigns/${project.campaigns[1].id}`, { token: user.token });
    expect(document.body.campaign.groups).toHaveLength(500);
    expect(document.body.campaign.groups[499].keywords.length).toBeGreaterThan(15);
  }, 120_000);

  it('appends a report to the one there, and a replace leaves only the new one', async () => {
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user) });
    expect(project.search_queries).toBe(1);

    const big = { ...sampleCampaignData('Двери'), searchQueries: account.searchQueries.slice(0, SEARCH_QUERY_CHUNK + 5) };
    const appended = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: await insertDraft(t.app, user, big), mode: 'append' } });
    expect(appended.status).toBe(201);
    expect(appended.body.search_queries).toBe(1 + SEARCH_QUERY_CHUNK + 5);
    expect(appended.body.counts.campaigns).toBe(4);
    const afterAppend = await auditQueries(project.id);
    expect(afterAppend.chunks).toEqual([1, SEARCH_QUERY_CHUNK, 5]);
    expect(afterAppend.queries[0]!.query).toBe('пластиковые окна цена');
    expect(afterAppend.queries.slice(1).map((q) => q.query)).toEqual(big.searchQueries.map((q) => q.query));

    const replaced = await call(t.app, 'POST', `/api/v1/projects/${project.id}/imports`, { token: user.token, body: { draft_id: await insertDraft(t.app, user, sampleCampaignData('Крыши')), mode: 'replace' } });
    expect(replaced.status).toBe(201);
    expect(replaced.body.search_queries).toBe(1);
    expect(replaced.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Крыши — поиск', 'Крыши — сети']);
    expect((await auditQueries(project.id)).chunks).toEqual([1]);
  });

  it('lets nobody else save the draft: another organization gets 404 and the draft stays for its owner', async () => {
    const draftId = await insertDraft(t.app, user);
    const theirs = await call(t.app, 'POST', '/api/v1/projects', { token: stranger.token, body: { name: 'Чужой', site_url: 'other.example', platform: 'yandex_direct', draft_id: draftId } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('DRAFT_NOT_FOUND');
    const strangersProject = await createProject(t.app, stranger.token);
    const into = await call(t.app, 'POST', `/api/v1/projects/${strangersProject.id}/imports`, { token: stranger.token, body: { draft_id: draftId, mode: 'append' } });
    expect(into.status).toBe(404);
    expect(await draftRows(draftId)).toEqual({ campaigns: [0, 1], queryChunks: [1] });
    expect((await createProject(t.app, user.token, { draft_id: draftId })).counts.campaigns).toBe(2);
  });

  it('does not save a draft the import thread is still writing', async () => {
    const draftId = await insertDraft(t.app, user);
    await t.database.db.updateTable('import_drafts').set({ ready: false }).where('id', '=', draftId).execute();
    const response = await call(t.app, 'POST', '/api/v1/projects', { token: user.token, body: { name: 'Рано', site_url: 'early.example', platform: 'yandex_direct', draft_id: draftId } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('DRAFT_NOT_FOUND');
  });

  it('removes an expired draft with its rows at the next preview, and keeps no rows of a refused upload', async () => {
    const expired = await insertDraft(t.app, user, { ...sampleCampaignData(), searchQueries: account.searchQueries.slice(0, 15_000) }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await draftRows(expired)).toEqual({ campaigns: [0, 1], queryChunks: [10_000, 5_000] });
    const drafts = async () => Number((await t.database.db.selectFrom('import_drafts').select(t.database.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const draftCampaigns = async () => Number((await t.database.db.selectFrom('import_draft_campaigns').select(t.database.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = { drafts: await drafts(), rows: await draftCampaigns() };

    // A file with an error: 422, and neither a draft nor rows of it are left.
    const refused = await upload(t.app, '/api/v1/projects/import-preview', user.token, [
      { name: 'account-1.csv', content: generated.files[0]!.text },
      { name: 'notes.csv', content: 'что-то;совсем;другое\n1;2;3\n' },
    ]);
    expect(refused.status).toBe(422);
    expect(await draftRows(expired)).toEqual({ campaigns: [], queryChunks: [] });
    expect(await drafts()).toBe(before.drafts - 1);
    expect(await draftCampaigns()).toBe(before.rows - 2);
  });

  it('stops the sending side at the first piece the database refuses', async () => {
    const { port1, port2 } = new MessageChannel();
    // A draft that does not exist (say, discarded meanwhile): its rows are refused by the foreign key.
    const receiver = receiveDraftRows(t.database.db, '00000000-0000-4000-8000-000000000000', port1);
    const data = { ...sampleCampaignData(), searchQueries: account.searchQueries.slice(0, 25_000) };
    await expect(sendDraftRows(data, port2)).rejects.toThrow(/could not be stored/);
    await expect(receiver.finished()).rejects.toThrow(/foreign key/);
    port1.close();
  });
});
