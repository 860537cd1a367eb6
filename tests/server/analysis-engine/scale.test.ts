/**
 * What the engines do to stay within memory on a big account must not change what they find:
 * - the checks keep only an item's part of a per-entity finding that can only become an item
 *   (FindingCollector), and the aggregation gives the same findings as from the full ones;
 * - the thread takes its input as UTF-8 bytes and drops each text once parsed;
 * - the rows of a result are the same whether its lists are emptied as they go out or not, and the
 *   thread's path (bytes in, batches out over a port) writes the same rows as the engines run directly.
 */
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { EntityRef, Finding } from '../../../contract/analysis-results.js';
import { aggregateFindings, FindingCollector } from '../../../server/engines/scoring/aggregate.js';
import { checks, makeFinding } from '../../../server/engines/scoring/registry.js';
import { copyText, resultRowBatches, type ResultRowBatch } from '../../../server/analysis/result-rows.js';
import { campaignDataOf, runAudit, runAuditInThread, takeCampaignData, type AuditThreadMessage, type RawAuditInput } from '../../../server/analysis/run-audit.js';
import { generateAccount } from '../../../bench/analysis.js';

const campaignRef = (index: number): EntityRef => ({ level: 'campaign', key: `c${index}`, campaignIndex: index, campaignName: `Кампания ${index}`, label: `Кампания ${index}` });
const adRef = (campaign: number, group: number, ad: number): EntityRef => ({
  level: 'ad',
  key: `c${campaign}g${group}a${ad}`,
  campaignIndex: campaign,
  groupIndex: group,
  adIndex: ad,
  campaignName: `Кампания ${campaign}`,
  groupName: `Группа ${group}`,
  label: `Объявление ${ad}`,
});
const keywordRef = (campaign: number, keyword: number): EntityRef => ({ level: 'keyword', key: `c${campaign}g0k${keyword}`, campaignIndex: campaign, groupIndex: 0, keywordIndex: keyword, campaignName: `Кампания ${campaign}`, groupName: 'Группа 0', label: `фраза ${keyword}` });

describe('FindingCollector', () => {
  const perEntity = (): Finding[] => [
    // Campaign 0: «no UTM» on three ads (one ad twice: two fields), each with a suggestion.
    makeFinding(checks.adNoUtm, adRef(0, 0, 0), { explanation: 'a0', fix: 'f', evidence: [{ label: 'UTM-меток', value: 0, threshold: 1, unit: 'count' }], suggestionIds: ['s0'] }),
    makeFinding(checks.adHeadlineTooLong, adRef(0, 0, 0), { explanation: 'h0', fix: 'f', evidence: [{ label: 'Заголовок 1', value: 60, threshold: 56, unit: 'chars' }], suffix: 'headline:0' }),
    makeFinding(checks.adNoUtm, adRef(0, 0, 1), { explanation: 'a1', fix: 'f', evidence: [{ label: 'UTM-меток', value: 0, threshold: 1, unit: 'count' }], suggestionIds: ['s1'] }),
    makeFinding(checks.adHeadlineTooLong, adRef(0, 0, 1), { explanation: 'h1a', fix: 'f', evidence: [{ label: 'Заголовок 1', value: 70, threshold: 56, unit: 'chars' }], suffix: 'headline:0' }),
    makeFinding(checks.adHeadlineTooLong, adRef(0, 0, 1), { explanation: 'h1b', fix: 'f', evidence: [{ label: 'Заголовок 2', value: 40, threshold: 30, unit: 'chars' }], suffix: 'headline:1' }),
    makeFinding(checks.adNoUtm, adRef(0, 1, 0), { explanation: 'a2', fix: 'f', evidence: [{ label: 'UTM-меток', value: 0, threshold: 1, unit: 'count' }] }),
    // Campaign 1: one ad with two findings of one check: no aggregation, both pass through whole.
    makeFinding(checks.adHeadlineTooLong, adRef(1, 0, 0), { explanation: 'x', fix: 'f', evidence: [{ label: 'Заголовок 1', value: 60, threshold: 56, unit: 'chars' }], suffix: 'headline:0' }),
    makeFinding(checks.adHeadlineTooLong, adRef(1, 0, 0), { explanation: 'y', fix: 'f', evidence: [{ label: 'Заголовок 2', value: 31, threshold: 30, unit: 'chars' }], suffix: 'headline:1' }),
    // Priced per-keyword findings: aggregated («N фраз») with money, and never-aggregated stop decisions.
    makeFinding(checks.expensiveClicks, keywordRef(1, 0), { explanation: 'e0', fix: 'f', evidence: [{ label: 'Клики', value: 9, unit: 'clicks' }], money: 100, monthFactor: 2, period: { from: '2024-03-01', to: '2024-03-31' } }),
    makeFinding(checks.expensiveClicks, keywordRef(1, 1), { explanation: 'e1', fix: 'f', evidence: [{ label: 'Клики', value: 12, unit: 'clicks' }], money: 300, monthFactor: 2 }),
    makeFinding(checks.keywordStop, keywordRef(1, 2), { explanation: 'stop', fix: 'f', evidence: [], money: 500, monthFactor: 2 }),
    makeFinding(checks.keywordStop, keywordRef(1, 3), { explanation: 'stop', fix: 'f', evidence: [], money: 700, monthFactor: 2 }),
    // An account-level finding (no campaign) passes through.
    makeFinding(checks.adNoUtm, { level: 'account', key: 'account', label: 'Аккаунт' }, { explanation: 'acc', fix: 'f', evidence: [] }),
  ];
  const campaigns = new Map([0, 1].map((index) => [index, campaignRef(index)]));

  it('aggregates to exactly the findings of the full per-entity findings', () => {
    const collector = new FindingCollector(campaigns);
    for (const finding of perEntity()) collector.push(finding);
    expect(aggregateFindings(collector.list, campaigns)).toEqual(aggregateFindings(perEntity(), campaigns));
  });

  it('drops the texts of the findings that can only become items, keeps money and the last pushed finding', () => {
    const collector = new FindingCollector(campaigns);
    for (const finding of perEntity()) collector.push(finding);
    expect(collector.length).toBe(13);
    const byExplanation = collector.list.map((finding) => finding.explanation ?? null);
    // The first entity of each check and campaign stays whole; the others lose their texts.
    expect(byExplanation).toEqual(['a0', 'h0', null, null, null, null, 'x', 'y', 'e0', null, 'stop', 'stop', 'acc']);
    expect(collector.list[9]).toEqual({ checkId: 'stats.expensive_clicks', target: keywordRef(1, 1), evidence: [{ label: 'Клики', value: 12, unit: 'clicks' }], money: 300, moneyPerMonth: 600 });
    expect(collector.last()?.explanation).toBe('acc');
  });
});

describe('the thread’s input and output at scale', () => {
  // Two campaigns of the bench account's shape (20 keywords and 4 ads per group, a report of 10 queries per group).
  const data = generateAccount({ campaigns: 2, groupsPerCampaign: 40 });
  const raw = (encode: boolean): RawAuditInput => {
    const text = (value: unknown) => (encode ? new TextEncoder().encode(JSON.stringify(value)) : JSON.stringify(value));
    return {
      platform: data.platform,
      period: data.period ?? null,
      campaigns: data.campaigns.map(text),
      searchQueries: [text(data.searchQueries.slice(0, 300)), text(data.searchQueries.slice(300))],
      settings: { competitors: ['икея'] },
      targetCpa: 500,
      region: 'Москва',
    };
  };
  const texts = (batches: Iterable<ResultRowBatch>) => [...batches].map((batch) => `${batch.table}:${batch.rows}:${batch.kind === 'copy' ? copyText(batch) : batch.columns.join('\u0001')}`);

  it('takes the account from UTF-8 bytes as from strings, and drops each text once parsed', () => {
    const bytes = raw(true);
    expect(takeCampaignData(bytes)).toEqual(campaignDataOf(raw(false)));
    expect(bytes.campaigns).toEqual([]);
    expect(bytes.searchQueries).toEqual([]);
  });

  it('writes the same rows whether the result’s lists are emptied as they go out or not', async () => {
    const input = { data: campaignDataOf(raw(false)), settings: { competitors: ['икея'] }, targetCpa: 500, region: 'Москва' };
    const kept = await runAudit(input);
    const handedOver = await runAudit({ ...input, data: campaignDataOf(raw(false)) });
    expect(texts(resultRowBatches(handedOver, undefined, { release: true, compactRefs: true }))).toEqual(texts(resultRowBatches(kept, undefined, { compactRefs: true })));
    expect(handedOver.scoring.findings).toEqual([]);
    expect(handedOver.scoring.keywords).toEqual([]);
    expect(handedOver.semantic.negatives).toEqual([]);
    expect(kept.scoring.findings.length).toBeGreaterThan(10);
  });

  it('the thread’s path (bytes in, batches over a port) writes the rows of the engines run directly', async () => {
    const direct = await runAudit({ data: campaignDataOf(raw(false)), settings: { competitors: ['икея'] }, targetCpa: 500, region: 'Москва' });
    // The thread stores entity refs compactly (entity-refs.ts), with the names they need.
    const expected = texts(resultRowBatches(direct, undefined, { compactRefs: true }));
    expect(expected.some((batch) => batch.startsWith('analysis_entity_names:'))).toBe(true);
    const { port1, port2 } = new MessageChannel();
    const received: ResultRowBatch[] = [];
    port1.on('message', (message: AuditThreadMessage) => {
      if (message.type !== 'batch') return;
      received.push(message.batch);
      port1.postMessage({ type: 'ack' });
    });
    const output = await runAuditInThread(raw(true), port2);
    port1.close();
    expect(texts(received)).toEqual(expected);
    expect(output.rows).toBe(received.reduce((sum, batch) => sum + batch.rows, 0));
    expect(output.engineMemory?.peakHeapUsed).toBeGreaterThan(0);
  });
});
