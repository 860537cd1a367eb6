/**
 * The campaign list says where a Direct text campaign shows: a network campaign whose export type is
 * «Текстово-графическое объявление» is not badged with what reads as an ad format (issue 28, §Why 7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignData } from '../../../contract/campaigns.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { createProject, insertDraft, sampleCampaignData } from './helpers.js';

let t: TestApp;
let user: FixtureUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.app);
});
afterAll(() => t.close());

describe('campaign list: placement of a campaign', () => {
  it('comes from the type or the name; none when neither says', async () => {
    const data: CampaignData = sampleCampaignData('Цветы');
    const [first, second] = data.campaigns;
    data.campaigns = [
      { ...first!, name: 'Цветы — РСЯ', type: 'текстово-графическое объявление' },
      { ...second!, name: 'Цветы — Поиск', type: 'текстово-графические объявления' },
      { ...first!, name: 'Цветы', type: 'текстово-графические объявления' },
      { ...second!, name: 'Баннеры', type: 'смарт-баннеры' },
    ];
    const project = await createProject(t.app, user.token, { draft_id: await insertDraft(t.app, user, data) });
    const response = await call(t.app, 'GET', `/api/v1/projects/${project.id}`, { token: user.token });
    expect(response.status).toBe(200);
    const campaigns = response.body.campaigns as { name: string; placement: string | null }[];
    expect(campaigns.map((campaign) => [campaign.name, campaign.placement])).toEqual([
      ['Цветы — РСЯ', 'networks'],
      ['Цветы — Поиск', 'search'],
      ['Цветы', null],
      ['Баннеры', 'networks'],
    ]);
  });
});
