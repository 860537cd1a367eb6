import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NegativeKeywordSuggestion, Suggestion } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { exportAcceptedChanges } from '../../../server/engines/export/export-changes.js';
import { campaignDataOf, runAudit } from '../../../server/analysis/run-audit.js';
import { auditRunner, runAuditInWorkerThread } from '../../../server/analysis/worker.js';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { eventsUntilDone, projectWithCampaigns, storingRunner } from './helpers.js';

const CAMPAIGNS = 2;
const GROUPS = 2_500;
const NEGATIVES_PER_GROUP = 20;

/** An account of 5 000 groups, so 100 000 group negatives are 20 to a group (a cell Direct takes). */
function wideAccount(): CampaignData {
  return {
    platform: 'yandex_direct',
    searchQueries: [],
    campaigns: Array.from({ length: CAMPAIGNS }, (_, c) => ({
      name: `Кампания ${c}`,
      externalId: String(1000 + c),
      negativeKeywords: [],
      groups: Array.from({ length: GROUPS }, (_, g) => ({
        name: `Группа ${c}-${g}`,
        externalId: String(100_000 + c * GROUPS + g),
        negativeKeywords: [],
        keywords: [{ phrase: `окна ${g}`, externalId: String(1_000_000 + c * GROUPS + g), negativeWords: [], matchType: 'broad' as const }],
        ads: [{ kind: 'text' as const, externalId: String(2_000_000 + c * GROUPS + g), headlines: ['Окна', 'Быстро'], texts: ['Пластиковые окна от производителя'], finalUrl: 'https://example.ru/', sitelinks: [], callouts: [] }],
      })),
    })),
  };
}

const negativeText = (n: number) => `минус${n}`;

describe('export of 100 000 accepted changes, streamed from the rows', () => {
  let t: TestApp;
  let user: FixtureUser;
  let analysisId: string;
  /** The engines' suggestions as stored, in the engine's order. */
  let storedSuggestions: Suggestion[] = [];
  const total = CAMPAIGNS * GROUPS * NEGATIVES_PER_GROUP;

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: 1_000_000 });
    const project = await projectWithCampaigns(t.app, user, wideAccount());
    // The engines' result of the account, with 100 000 group negatives added, stored through the real row path (COPY).
    auditRunner.run = storingRunner(async (input) => {
      const result = await runAudit({ data: campaignDataOf(input), settings: input.settings, targetCpa: input.targetCpa, region: input.region });
      for (let n = 0; n < total; n++) {
        const campaignIndex = n % CAMPAIGNS;
        const groupIndex = Math.floor(n / CAMPAIGNS) % GROUPS;
        const negative: NegativeKeywordSuggestion = {
          id: `neg-${n}`,
          kind: 'negative_keyword',
          level: 'group',
          target: { level: 'group', key: `c${campaignIndex}g${groupIndex}`, campaignIndex, groupIndex, campaignName: `Кампания ${campaignIndex}`, groupName: `Группа ${campaignIndex}-${groupIndex}` },
          text: negativeText(n),
          category: 'query',
          status: 'ready',
          source: 'queries',
          reason: 'Запросы без конверсий',
          queries: [],
          clicks: 1,
          cost: 10,
          costPerMonth: 10,
          evidence: [],
        };
        result.semantic.negatives.push(negative);
      }
      storedSuggestions = [...result.scoring.suggestions, ...result.semantic.crossMinus, ...result.semantic.negatives];
      return result;
    });
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    analysisId = started.body.analysis.id;
    const events = await eventsUntilDone(t.app, user.token, analysisId);
    expect(events.at(-1)!.analysis.status).toBe('completed');
    const bulk = await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/decisions/bulk`, {
      token: user.token,
      body: { filter: { kind: 'negative_keyword', category: 'query' }, decision: 'accepted' },
    });
    expect(bulk.body.updated).toBe(total);
  }, 300_000);
  afterAll(async () => t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
  });

  /** Every group negative of an imported file, as `campaign/group → texts`. */
  const negativesOf = (data: CampaignData) => {
    const found = new Set<string>();
    for (const campaign of data.campaigns) for (const group of campaign.groups) for (const text of group.negativeKeywords) found.add(text);
    return found;
  };

  it('streams the same CSV, byte for byte, as the whole account changed in memory', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/analyses/${analysisId}/export?format=csv`, headers: { authorization: `Bearer ${user.token}` } });
    expect(response.statusCode).toBe(200);
    const accepted = storedSuggestions.filter((suggestion) => suggestion.kind === 'negative_keyword' && suggestion.category === 'query').map((suggestion) => ({ id: suggestion.id }));
    const whole = await exportAcceptedChanges(wideAccount(), storedSuggestions, accepted, ['csv']);
    expect(response.rawPayload.equals(whole.files[0]!.content)).toBe(true);
  }, 300_000);

  /** The files of an export reply: the file itself, or each XLSX of the ZIP the Direct XLSX of several campaigns is. */
  const filesOf = (fileName: string, bytes: Buffer) => {
    const whole = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return fileName.endsWith('.zip') ? Object.entries(unzipSync(whole)).map(([name, content]) => ({ name, bytes: content })) : [{ name: fileName, bytes: whole }];
  };

  for (const [format, fileName] of [
    ['csv', 'direct-changes.csv'],
    ['xlsx', 'direct-changes-xlsx.zip'],
  ] as const) {
    it(`streams the ${format.toUpperCase()} of the touched campaigns, which our importer reads back (file by file) with every accepted negative`, async () => {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/analyses/${analysisId}/export?format=${format}`, headers: { authorization: `Bearer ${user.token}` } });
      expect(response.statusCode).toBe(200);
      // Streamed: no length known up front.
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers['content-disposition']).toContain(fileName);
      const files = filesOf(fileName, response.rawPayload);
      // The Direct web interface takes one campaign per XLSX: two campaigns, two files.
      expect(files.map((file) => file.name)).toEqual(format === 'csv' ? [fileName] : ['01 Кампания 0.xlsx', '02 Кампания 1.xlsx']);
      const parts = await Promise.all(files.map((file) => importCampaignFiles([file], { platform: 'yandex_direct' })));
      expect(parts.flatMap((part) => part.problems.filter((problem) => problem.severity === 'error'))).toEqual([]);
      const data: CampaignData = { ...parts[0]!.data!, campaigns: parts.flatMap((part) => part.data!.campaigns) };
      expect(data.campaigns.map((campaign) => campaign.name)).toEqual(['Кампания 0', 'Кампания 1']);
      expect(data.campaigns.reduce((sum, campaign) => sum + campaign.groups.length, 0)).toBe(CAMPAIGNS * GROUPS);
      const negatives = negativesOf(data);
      expect(negatives.size).toBe(total);
      for (const n of [0, 1, 4_999, 77_777, total - 1]) expect(negatives.has(negativeText(n)), negativeText(n)).toBe(true);
      // Each negative went to its own group, with the platform's ids kept.
      const group = data.campaigns[1]!.groups[7]!;
      expect(group.externalId).toBe(String(100_000 + GROUPS + 7));
      expect(group.negativeKeywords).toHaveLength(NEGATIVES_PER_GROUP);
      expect(group.negativeKeywords).toContain(negativeText(1 + 7 * CAMPAIGNS));
    }, 300_000);
  }
});
