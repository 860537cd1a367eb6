/**
 * `npx tsx bench/settings-checks.ts` (or `npm run bench -- settings-checks`): what the settings checks
 * (issue 22) cost an audit of the 100 000-keyword bench account (bench/analysis.ts `generateAccount`)
 * given everything a Direct API import carries: a strategy per campaign (manual, «Максимум кликов»,
 * conversion strategies with targets and weekly budgets), a schedule, a daily budget and 31 days of
 * day-by-day statistics, group regions, bid adjustments on campaigns and groups, and an autotargeting
 * row with categories and statistics per group. In one process, on the same account:
 * - scoring the account without those settings (a file import: the checks find nothing to read);
 * - scoring it with them (engines CPU: scoring's, the settings checks' share measured alone).
 */
import type { BidAdjustment, Campaign, CampaignData, CampaignStrategy } from '../contract/campaigns.js';
import { defaultAnalysisSettings, type AnalysisSettings } from '../contract/analysis-results.js';
import { FindingCollector } from '../server/engines/scoring/aggregate.js';
import { runSettingsChecks } from '../server/engines/scoring/checks/settings.js';
import { runScoring } from '../server/engines/scoring/engine.js';
import { accountFacts } from '../server/engines/semantic/account-facts.js';
import { runSemanticEngine } from '../server/engines/semantic/engine.js';
import { createLemmatizer, loadMorphology } from '../server/engines/semantic/lemmatizer.js';
import { prepareAccount } from '../server/engines/semantic/prepare.js';
import { benchAccountSize, generateAccount } from './analysis.js';

const strategies: CampaignStrategy[] = [
  { search: { type: 'HIGHEST_POSITION', bidding: 'manual' }, networks: { type: 'SERVING_OFF', bidding: 'off' } },
  { search: { type: 'WB_MAXIMUM_CLICKS', bidding: 'automatic', weeklyBudget: 30_000 }, networks: { type: 'SERVING_OFF', bidding: 'off' } },
  { search: { type: 'AVERAGE_CPA', bidding: 'automatic', targetCpa: 400, weeklyBudget: 3_000, goalId: '1' }, networks: { type: 'SERVING_OFF', bidding: 'off' } },
  { search: { type: 'HIGHEST_POSITION', bidding: 'manual' }, networks: { type: 'NETWORK_DEFAULT', bidding: 'manual' } },
];
const weekdaysOnly = Array.from({ length: 7 }, (_, day) => Array<number>(24).fill(day < 5 ? 100 : 0));
const adjustments: BidAdjustment[] = [
  { type: 'mobile', percent: 0 },
  { type: 'demographics', percent: 700, condition: 'женщины 18–24' },
  { type: 'regional', percent: 150, condition: 'регион 2', regionId: 2 },
];

/** The bench account as a Direct API import would read it. */
function withSettings(data: CampaignData): CampaignData {
  const copy = structuredClone(data);
  copy.campaigns.forEach((campaign: Campaign, c) => {
    campaign.strategy = strategies[c % strategies.length];
    campaign.schedule = { days: weekdaysOnly };
    campaign.dailyBudget = 3_000;
    campaign.state = c % 5 === 4 ? 'suspended' : 'on';
    campaign.bidAdjustments = adjustments;
    const daily = Math.round((campaign.groups.reduce((sum, group) => sum + group.keywords.reduce((s, k) => s + (k.stats?.cost ?? 0), 0), 0) / 31) * 100) / 100;
    campaign.dailyStats = Array.from({ length: 31 }, (_, day) => ({ date: `2024-03-${String(day + 1).padStart(2, '0')}`, stats: { impressions: 1000, clicks: 50, cost: daily, conversions: day % 3 } }));
    campaign.groups.forEach((group, g) => {
      group.regionIds = g % 2 ? [225] : [213];
      group.region = group.regionIds.join(', ');
      if (g % 10 === 0) group.bidAdjustments = [{ type: 'demographics', percent: 5, condition: 'мужчины от 55' }];
      group.keywords.push({ phrase: '---autotargeting', negativeWords: [], matchType: 'broad', isAutotargeting: true, status: 'accepted', autotargetingCategories: ['exact', 'alternative', 'competitor', 'broader', 'accessory'], stats: { impressions: 900, clicks: 40, cost: 1_600 + g, conversions: 0 } });
      for (const keyword of group.keywords) keyword.status ??= 'accepted';
    });
  });
  return copy;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

async function scoringCpu(data: CampaignData, settings: AnalysisSettings) {
  const account = prepareAccount(data, createLemmatizer());
  const { result: semantic } = runSemanticEngine(account, settings);
  // The settings checks alone, on the same prepared account (their own collector, thrown away).
  const campaignRefs = new Map(account.campaigns.map((campaign) => [campaign.ref.campaignIndex!, campaign.ref]));
  const facts = accountFacts(account.data, settings);
  let started = process.cpuUsage();
  const findings = new FindingCollector(campaignRefs);
  runSettingsChecks({ account, semantic, settings, facts, findings, suggestions: [], verdicts: [] });
  const settingsChecks = cpuMs(process.cpuUsage(started));
  const settingsFindings = findings.take().length;
  started = process.cpuUsage();
  const scoring = runScoring(account, semantic, settings);
  return { scoring: cpuMs(process.cpuUsage(started)), settingsChecks, settingsFindings, findings: scoring.findings.length, keywords: scoring.counts.keywords };
}

export async function run(): Promise<void> {
  await loadMorphology();
  const plain = generateAccount(benchAccountSize(Number(process.env.BENCH_ANALYSIS_KEYWORDS ?? 100_000)));
  const settings: AnalysisSettings = { ...defaultAnalysisSettings, targetCpa: 1_000, homeRegionWords: ['москва'] };
  const before = await scoringCpu(plain, settings);
  const after = await scoringCpu(withSettings(plain), settings);
  console.log('Settings checks bench (engines CPU, one process, same account)');
  console.log(`  account: ${before.keywords.toLocaleString('en-US')} keywords`);
  console.log(`  scoring without settings (file import): ${ms(before.scoring)}, ${before.findings} findings; settings checks alone ${ms(before.settingsChecks)}`);
  console.log(`  scoring with settings (API import):     ${ms(after.scoring)}, ${after.findings} findings; settings checks alone ${ms(after.settingsChecks)} (${after.settingsFindings} settings findings before aggregation)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
