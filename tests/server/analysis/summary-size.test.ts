import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityScore, Finding, NegativeKeywordSuggestion } from '../../../contract/analysis-results.js';
import type { AuditResult } from '../../../contract/analysis.js';
import { buildResultsSummary, SUMMARY_MAX_BYTES } from '../../../server/analysis/result-rows.js';
import { auditOf } from './helpers.js';

/** A long name of the kind real accounts carry (Direct allows 255 characters). */
const longName = (what: string, n: number) => `${what} ${n} — Москва и область, все категории, поиск, ретаргетинг, распродажа, акция недели, `.repeat(4).slice(0, 250);

/**
 * The sample account's real result grown to the shape of an account of `keywords` keywords: a campaign
 * per 10 000 keywords (at least ten, each with a 250-character name), a finding per 100 keywords with long
 * texts and items, a negative per 2 keywords with many queries, a verdict per keyword.
 */
function grown(base: AuditResult, keywords: number): AuditResult {
  const result = structuredClone(base);
  const { scoring, semantic } = result;
  const campaignCount = Math.max(10, keywords / 10_000);
  const campaignScore = scoring.campaigns[0]!;
  scoring.campaigns = Array.from({ length: campaignCount }, (_, c): EntityScore => ({
    ...campaignScore,
    target: { level: 'campaign', key: `c${c}`, campaignIndex: c, campaignName: longName('Кампания', c), label: longName('Кампания', c) },
    score: (c * 37) % 100,
  }));
  const finding = scoring.findings[0]!;
  for (let n = 0; n < keywords / 100; n++) {
    const campaignIndex = n % campaignCount;
    const grownFinding: Finding = {
      ...finding,
      id: `grown-${n}`,
      title: longName('Фразы без конверсий', n),
      fix: longName('Остановите фразы', n),
      target: { level: 'campaign', key: `c${campaignIndex}`, campaignIndex, campaignName: longName('Кампания', campaignIndex) },
      moneyPerMonth: 1000 + n,
      count: 40,
      items: Array.from({ length: 40 }, (_, k) => ({ target: { level: 'keyword', key: `c${campaignIndex}g0k${k}`, label: longName('фраза', k) }, evidence: [{ label: 'Расход', value: 40 - k }], moneyPerMonth: 40 - k })),
    };
    scoring.findings.push(grownFinding);
  }
  const queries = Array.from({ length: 200 }, (_, q) => ({ query: longName('запрос', q), clicks: 3, cost: 120, conversions: 0 }));
  for (let n = 0; n < keywords / 2; n++) {
    const negative: NegativeKeywordSuggestion = {
      id: `neg-${n}`,
      kind: 'negative_keyword',
      level: 'campaign',
      target: { level: 'campaign', key: `c${n % campaignCount}`, campaignIndex: n % campaignCount, campaignName: longName('Кампания', n % campaignCount) },
      text: `минус${n}`,
      category: 'query',
      status: 'ready',
      source: 'queries',
      reason: longName('Запросы без конверсий', n),
      queries,
      clicks: 600,
      cost: n,
      costPerMonth: n,
      evidence: [],
    };
    semantic.negatives.push(negative);
  }
  scoring.keywordVerdicts = new Array(keywords).fill(scoring.keywordVerdicts[0]);
  return result;
}

describe('the results summary stays under 100 KB at any account size', () => {
  let base: AuditResult;
  beforeAll(async () => {
    base = await auditOf();
  });

  for (const keywords of [10_000, 100_000, 1_000_000]) {
    it(`${keywords.toLocaleString('ru-RU')} keywords`, () => {
      const result = grown(base, keywords);
      const summary = buildResultsSummary(result);
      const bytes = Buffer.byteLength(JSON.stringify(summary));
      expect(bytes).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
      expect(SUMMARY_MAX_BYTES).toBeLessThan(100_000);
      // Nothing a header shows is lost: the totals count everything, the lists keep their first entries.
      expect(summary.findingsTotal).toBe(result.scoring.findings.length);
      expect(summary.suggestions.total).toBe(result.scoring.suggestions.length + result.semantic.crossMinus.length + result.semantic.negatives.length);
      expect(summary.scores.campaignsTotal).toBe(result.scoring.campaigns.length);
      expect(summary.scores.campaigns[0]!.score).toBe(Math.min(...result.scoring.campaigns.map((c) => c.score)));
      expect(summary.semantic.counts.keywordVerdicts).toBe(keywords);
      expect(summary.top.findings[0]!.moneyPerMonth).toBe(Math.max(...result.scoring.findings.map((f) => f.moneyPerMonth ?? 0)));
      expect(summary.top.suggestions.length).toBeGreaterThanOrEqual(3);
      expect(summary.top.findings.length).toBeGreaterThanOrEqual(3);
    }, 120_000);
  }
});
