/**
 * The statistics period of an import: read from the files where they say it (a date column, a report's
 * header line), shown on the preview with the rows read, asked for where not (PUT on the preview), and
 * stored with the import — the project's period, from which the analysis turns money into money per month.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMessages } from '../../../contract/messages.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { upload } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/imports/${name}`, import.meta.url));
const structure = { name: 'direct-export-utf8.tsv', content: fixture('direct-export-utf8.tsv') };
const statsWithPeriod = { name: 'yandex-stats.csv', content: fixture('yandex-stats.csv') };
/** The same report without its header lines and its date column: nothing in it says the period. */
const statsWithoutPeriod = {
  name: 'статистика.csv',
  content: fixture('yandex-stats.csv')
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\n')
    .slice(3)
    .filter((line) => !line.startsWith('Итого'))
    .map((line) => line.split(';').slice(1).join(';'))
    .join('\n'),
};

let t: TestApp;
let user: FixtureUser;
let stranger: FixtureUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.app);
  stranger = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('the statistics period of an import', () => {
  it('reads the period from the report and shows it on the preview with the rows read; the project keeps it', async () => {
    const preview = await upload(t.app, '/api/v1/projects/import-preview', user.token, [structure, statsWithPeriod], { platform: 'yandex_direct' });
    expect(preview.status).toBe(200);
    expect(preview.body.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(preview.body.statistics_rows).toBe(7);

    const created = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Диваны', site_url: 'divany.example.ru', platform: 'yandex_direct', draft_id: preview.body.draft_id },
    });
    expect(created.status).toBe(201);
    expect(created.body.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });

  it('asks for the period where the files do not say it: the period entered is saved with the import', async () => {
    const preview = await upload(t.app, '/api/v1/projects/import-preview', user.token, [structure, statsWithoutPeriod], { platform: 'yandex_direct' });
    expect(preview.status).toBe(200);
    expect(preview.body.period).toBeNull();
    expect(preview.body.statistics_rows).toBe(7);
    const url = `/api/v1/projects/import-drafts/${preview.body.draft_id}/period`;

    const malformed = await call(t.app, 'PUT', url, { token: user.token, body: { from: '2026-02-30', to: 'вчера' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail.map((item: { msg: string }) => item.msg)).toEqual([projectMessages.statsPeriodDateInvalid, projectMessages.statsPeriodDateInvalid]);
    const reversed = await call(t.app, 'PUT', url, { token: user.token, body: { from: '2026-10-14', to: '2026-10-01' } });
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'to'], msg: projectMessages.statsPeriodOrder })]);
    // Someone else's preview is not found.
    expect((await call(t.app, 'PUT', url, { token: stranger.token, body: { from: '2026-10-01', to: '2026-10-14' } })).status).toBe(404);

    const set = await call(t.app, 'PUT', url, { token: user.token, body: { from: '2026-10-01', to: '2026-10-14' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ period: { from: '2026-10-01', to: '2026-10-14' } });

    const created = await call(t.app, 'POST', '/api/v1/projects', {
      token: user.token,
      body: { name: 'Диваны 2', site_url: 'divany.example.ru', platform: 'yandex_direct', draft_id: preview.body.draft_id },
    });
    expect(created.status).toBe(201);
    expect(created.body.period).toEqual({ from: '2026-10-01', to: '2026-10-14' });
    const stored = await t.app.db.selectFrom('project_imports').select('period').where('project_id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(stored.period).toEqual({ from: '2026-10-01', to: '2026-10-14' });
  });

  it('says a structure-only upload has no statistics', async () => {
    const preview = await upload(t.app, '/api/v1/projects/import-preview', user.token, [structure], { platform: 'yandex_direct' });
    expect(preview.body).toMatchObject({ period: null, statistics_rows: 0 });
  });
});
