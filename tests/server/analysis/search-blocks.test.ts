import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NegativeKeywordSuggestion } from '../../../contract/analysis-results.js';
import { defaultStorageLimits } from '../../../server/analysis/result-rows.js';
import { textBlocks } from '../../../server/analysis/results-pages.js';
import { campaignDataOf, runAudit } from '../../../server/analysis/run-audit.js';
import { blocksHoldingAll, moneyRanks, SEARCH_BLOCK_ROWS, SearchBloom, slotBytes, trigramSlots } from '../../../server/analysis/search-blocks.js';
import { analysisStorageLimits, auditRunner, runAuditInWorkerThread } from '../../../server/analysis/worker.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { eventsUntilDone, projectWithCampaigns, storingRunner } from './helpers.js';

/** The blocks a bloom says may hold `text` (the reader's and-ing of its slots' slices). */
function blocksOf(bloom: SearchBloom, text: string) {
  const stride = slotBytes(bloom.blocks);
  const bits = bloom.bits;
  return blocksHoldingAll(trigramSlots(text).map((slot) => bits.subarray(slot * stride, (slot + 1) * stride)), bloom.blocks);
}

describe('search blocks (the text filter skips the stretches of the money order that cannot hold the text)', () => {
  it('ranks rows by money, highest first, then by position', () => {
    const money = [0, 5, 0, 7.5, -1, 5, 0, 0.01];
    const ranks = moneyRanks(money);
    const expected = money.map((_, i) => i).sort((a, b) => money[b]! - money[a]! || a - b);
    expect([...ranks]).toEqual(money.map((_, i) => expected.indexOf(i)));
  });

  it('a block holding a row that contains the text is always among the blocks it gives; a block holding none is left out', () => {
    const rows = 5 * SEARCH_BLOCK_ROWS;
    const bloom = new SearchBloom(rows);
    const texts: string[] = [];
    for (let rank = 0; rank < rows; rank++) {
      // Blocks 0–2 and 4: one kind of text; block 3 alone: another.
      const text = (rank >> 10) === 3 ? `диваны -купить ${rank} группа` : `запросы без конверсий минус${rank} ёжик 🙂`;
      texts.push(text);
      bloom.add(text, rank);
    }
    expect(blocksOf(bloom, '-купить')).toMatchObject({ first: 3, last: 3, count: 1 });
    expect(blocksOf(bloom, 'нет такого')).toBeNull();
    expect(blocksOf(bloom, 'ёжик 🙂')).toMatchObject({ first: 0, last: 4, count: 4 });
    // Every substring of every row: its block is given.
    for (let rank = 0; rank < rows; rank += 97) {
      const text = texts[rank]!;
      const from = rank % 7;
      const piece = text.slice(from, from + 3 + (rank % 11));
      const held = blocksOf(bloom, piece)!;
      expect(held.bits[(rank >> 10) >> 3]! & (1 << ((rank >> 10) & 7)), piece).not.toBe(0);
    }
    expect(trigramSlots('ку')).toEqual([]);
  });
});

describe('text filter along the search blocks: the same pages as the plain walk', () => {
  let t: TestApp;
  let user: FixtureUser;
  let analysisId: string;
  const get = (path: string) => call(t.app, 'GET', `/api/v1/analyses/${analysisId}${path}`, { token: user.token });

  beforeAll(async () => {
    t = await createTestApp({ jobQueue: { runWorkers: true } });
    user = await createUser(t.app, { balance: 100_000 });
    const project = await projectWithCampaigns(t.app, user);
    // Every table gets its ranks and blooms, however small.
    analysisStorageLimits.searchBlocksFrom = 1;
    auditRunner.run = storingRunner(async (input) => {
      const result = await runAudit({ data: campaignDataOf(input), settings: input.settings, targetCpa: input.targetCpa, region: input.region });
      // 5 000 negatives with money, then 1 500 at 0 ₽ whose reason alone says «Купить Ёлку»: at the bottom of the money order.
      for (let n = 0; n < 6_500; n++) {
        const cheap = n >= 5_000;
        const negative: NegativeKeywordSuggestion = {
          id: `neg-${n}`,
          kind: 'negative_keyword',
          level: 'campaign',
          target: { level: 'campaign', key: `c${n % 2}`, campaignIndex: n % 2 },
          text: `минус${n}`,
          category: 'query',
          status: 'ready',
          source: 'queries',
          reason: cheap ? 'Запрос «Купить Ёлку» 100% _дёшево_' : 'Запросы без конверсий',
          queries: [{ query: `запрос минус${n}`, clicks: 3, cost: cheap ? 0 : 1 + (n % 997), conversions: 0 }],
          clicks: 3,
          cost: cheap ? 0 : 1 + (n % 997),
          costPerMonth: cheap ? 0 : 1 + (n % 997),
          evidence: [],
        };
        result.semantic.negatives.push(negative);
      }
      return result;
    });
    const started = await call(t.app, 'POST', `/api/v1/projects/${project.projectId}/analyses`, {
      token: user.token,
      body: { campaign_ids: project.campaignIds, idempotency_key: randomUUID() },
    });
    analysisId = started.body.analysis.id as string;
    const events = await eventsUntilDone(t.app, user.token, analysisId);
    expect(events.at(-1)!.analysis.status).toBe('completed');
  }, 120_000);
  afterAll(async () => t.close());
  afterEach(() => {
    auditRunner.run = runAuditInWorkerThread;
    Object.assign(analysisStorageLimits, defaultStorageLimits);
  });

  it('stores the money ranks in the pages order and narrows a text at the bottom to its blocks', async () => {
    const byRank = await sql<{ position: number }>`SELECT position FROM analysis_suggestions WHERE analysis_id = ${analysisId} ORDER BY money_rank`.execute(t.app.db);
    const byMoney = await sql<{ position: number }>`SELECT position FROM analysis_suggestions WHERE analysis_id = ${analysisId} ORDER BY cost_per_month DESC, position`.execute(t.app.db);
    expect(byRank.rows.map((row) => row.position)).toEqual(byMoney.rows.map((row) => row.position));
    const blocks = await textBlocks(t.app.db, analysisId, 'suggestions', 'КУПИТЬ ЁЛКУ');
    expect(blocks).toMatchObject({ first: 4 });
    expect(await textBlocks(t.app.db, analysisId, 'suggestions', 'нет такого текста')).toBe('none');
    expect(await textBlocks(t.app.db, analysisId, 'suggestions', 'ку')).toBeNull();
  });

  it('gives the pages and counts the plain walk gives, case and ё as before', async () => {
    const texts = ['купить', 'КУПИТЬ ЁЛКУ', 'елку', 'ёлку', '«купить', 'минус2999', 'минус', 'запрос', 'нет такого текста', 'ку', '100%', '_дешево_', 'у_п'];
    const queries = texts.flatMap((text) => {
      const q = `text=${encodeURIComponent(text)}`;
      return [`/suggestions?${q}`, `/suggestions?${q}&page=2&page_size=50`, `/suggestions?${q}&page=30&page_size=50`, `/suggestions?${q}&decision=undecided&page=3&page_size=20`, `/findings?${q}&page_size=5`];
    });
    const pages = async () => {
      const answers: unknown[] = [];
      for (const query of queries) {
        const answer = await get(query);
        expect(answer.status, query).toBe(200);
        answers.push({ query, total: answer.body.total, capped: answer.body.total_capped, ids: answer.body.items.map((item: { id: string }) => item.id) });
      }
      return answers;
    };
    const narrowed = await pages();
    expect(narrowed.find((page) => (page as { query: string }).query.endsWith(`text=${encodeURIComponent('купить')}&page=2&page_size=50`))).toMatchObject({ total: 1_500, ids: expect.arrayContaining(['neg-5050']) });
    // Without its blooms the analysis reads as one saved before them: the plain walk.
    await sql`DELETE FROM analysis_search_blooms WHERE analysis_id = ${analysisId}`.execute(t.app.db);
    expect(await textBlocks(t.app.db, analysisId, 'suggestions', 'купить')).toBeNull();
    expect(narrowed).toEqual(await pages());
  });
});
