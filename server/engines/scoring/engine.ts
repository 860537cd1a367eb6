/**
 * The scoring engine: runs every check family over a prepared account (with the semantic result for
 * duplicates, intersections and relevance), reports a check that fires on many entities of a campaign
 * once there (aggregate.ts), then rolls findings up into 0–100 scores.
 * Deterministic. It spends the account: the keywords' parsed phrases are released once the checks that
 * read them have run (the rest of the account stays, for the money story).
 */
import type { AnalysisProgress, AnalysisSettings, CheckSummary, EntityRef, ScoringResult, SemanticResult, Severity } from '../../../contract/analysis-results.js';
import { accountFacts } from '../semantic/account-facts.js';
import { releaseKeywordPhrases, type PreparedAccount } from '../semantic/prepare.js';
import { headlinesWithoutKeywords, runAdChecks } from './checks/ads.js';
import { runCampaignChecks } from './checks/campaign.js';
import { runKeywordChecks } from './checks/keywords.js';
import { runModerationChecks } from './checks/moderation.js';
import { runServingChecks } from './checks/serving.js';
import { runSharedNegativeChecks } from './checks/shared-negatives.js';
import { runSettingsChecks } from './checks/settings.js';
import { informationalSearchKeywords, runStatisticsChecks } from './checks/statistics.js';
import { aggregateFindings, FindingCollector } from './aggregate.js';
import type { ScoringContext } from './context.js';
import { checkRegistry } from './registry.js';
import { rollUpScores } from './rollup.js';

const severityOrder: Record<Severity, number> = { high: 0, medium: 1, low: 2 };
const EXAMPLES_PER_CHECK = 5;
/** Items an aggregated example keeps in `byCheck` (the summary stays small; the full list is the finding's). */
const EXAMPLE_ITEMS = 5;
const checkTitles = new Map(checkRegistry.map((check) => [check.id, check.title]));

export function runScoring(account: PreparedAccount, semantic: SemanticResult, settings: AnalysisSettings, onProgress?: (progress: AnalysisProgress) => void): ScoringResult {
  const facts = accountFacts(account.data, settings);
  const campaignRefs = new Map(account.campaigns.map((campaign) => [campaign.ref.campaignIndex!, campaign.ref]));
  const context: ScoringContext = { account, semantic, settings, facts, findings: new FindingCollector(campaignRefs), suggestions: [], verdicts: [] };
  const total = 5;
  onProgress?.({ stage: 'scoring', done: 0, total });
  runKeywordChecks(context);
  onProgress?.({ stage: 'scoring', done: 1, total });
  // The keywords' parsed phrases (~375 MB at 1 000 000 keywords) are let go before the ad and
  // statistics checks pile their findings on top (prepare.ts releaseKeywordPhrases). The campaign checks
  // read them, so they run first, into a collector of their own whose findings join after the ads'
  // (the findings keep the order of keyword, ad, campaign, statistics checks; no check is in two
  // families, so each check's first entity per campaign is the same); of the ad and CTR checks only
  // one answer per ad or keyword is taken while the phrases are there.
  const campaignFindings = new FindingCollector(campaignRefs);
  runCampaignChecks({ ...context, findings: campaignFindings });
  runSharedNegativeChecks({ ...context, findings: campaignFindings });
  runSettingsChecks({ ...context, findings: campaignFindings });
  onProgress?.({ stage: 'scoring', done: 2, total });
  const headlineMisses = headlinesWithoutKeywords(context);
  const informational = informationalSearchKeywords(context);
  releaseKeywordPhrases(account);
  runAdChecks(context, headlineMisses);
  runModerationChecks(context);
  runServingChecks(context);
  for (const finding of campaignFindings.take()) context.findings.push(finding);
  onProgress?.({ stage: 'scoring', done: 3, total });
  const { wastedSpend } = runStatisticsChecks(context, informational);
  onProgress?.({ stage: 'scoring', done: 4, total });

  const findings = aggregateFindings(context.findings.take(), campaignRefs).sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || (b.moneyPerMonth ?? 0) - (a.moneyPerMonth ?? 0));
  const accountRef: EntityRef = { level: 'account', key: 'account', label: 'Аккаунт' };
  onProgress?.({ stage: 'rollup', done: 0, total: 1 });
  const scores = rollUpScores(account, findings, accountRef);

  const bySeverity: ScoringResult['bySeverity'] = {
    high: { count: 0, entities: 0, moneyPerMonth: 0 },
    medium: { count: 0, entities: 0, moneyPerMonth: 0 },
    low: { count: 0, entities: 0, moneyPerMonth: 0 },
  };
  const byCheck = new Map<string, CheckSummary & { entities: number }>();
  for (const finding of findings) {
    const entities = finding.count ?? 1;
    bySeverity[finding.severity].count++;
    bySeverity[finding.severity].entities! += entities;
    bySeverity[finding.severity].moneyPerMonth += finding.moneyPerMonth ?? 0;
    let summary = byCheck.get(finding.checkId);
    if (!summary) {
      summary = { checkId: finding.checkId, title: checkTitles.get(finding.checkId) ?? finding.title, severity: finding.severity, count: 0, entities: 0, moneyPerMonth: 0, examples: [] };
      byCheck.set(finding.checkId, summary);
    }
    summary.count++;
    summary.entities += entities;
    summary.moneyPerMonth += finding.moneyPerMonth ?? 0;
    // Findings are sorted by severity, then money: the first ones of a check are its worst.
    if (summary.examples.length < EXAMPLES_PER_CHECK) summary.examples.push(finding.items ? { ...finding, items: finding.items.slice(0, EXAMPLE_ITEMS) } : finding);
  }
  const round2 = (value: number) => Math.round(value * 100) / 100;
  for (const entry of Object.values(bySeverity)) entry.moneyPerMonth = round2(entry.moneyPerMonth);
  const checkSummaries = [...byCheck.values()]
    .map((summary) => ({ ...summary, moneyPerMonth: round2(summary.moneyPerMonth) }))
    .sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || b.moneyPerMonth - a.moneyPerMonth || b.count - a.count);
  onProgress?.({ stage: 'rollup', done: 1, total: 1 });

  const statsNeeded = (needs: string) => (needs === 'conversions' ? facts.hasConversions : needs === 'statistics' ? facts.hasStatistics : true);
  return {
    platform: account.platform,
    settings,
    period: facts.period,
    periodDays: facts.periodDays,
    monthFactor: round2(facts.monthFactor),
    notices: facts.notices,
    ...scores,
    findings,
    bySeverity,
    byCheck: checkSummaries,
    keywordVerdicts: context.verdicts,
    wastedSpend: { period: round2(wastedSpend), perMonth: round2(wastedSpend * facts.monthFactor) },
    suggestions: context.suggestions,
    checks: checkRegistry.filter((check) => statsNeeded(check.needs)),
    counts: {
      campaigns: account.campaigns.length,
      groups: account.groups.length,
      ads: account.ads.length,
      keywords: account.keywords.length,
      negativeKeywords: account.negativeKeywordCount,
      searchQueries: account.queries.length,
    },
  };
}
