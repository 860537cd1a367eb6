/**
 * A 100 000-keyword Yandex Direct account read through the API (issue 22) against the same account from
 * files, in the same run, on the production app (bench-app.ts, job workers in the process):
 *
 *   API:   POST import-preview/direct-api → the import job reads the fake Direct API (campaigns with their
 *          strategies and daily budgets, groups with regions and shared negative sets, ads, keywords,
 *          sitelinks, callouts, the statistics and search-query reports) → save → audit
 *   files: the same account as Commander's export files (account-files.ts) → preview → save → audit
 *
 * The account is bench/analysis.ts's generator (10 campaigns × 500 groups × 20 phrases, 4 ads a group, a
 * search-query report); the fake Direct API (tests/fakes) answers pages of 10 000 objects as the real one.
 * Printed per path: wall time of each stage, the process's CPU time (all its threads: the API, the import
 * and engine threads, and the fake API, which runs in this process too; PostgreSQL is its own process and
 * not counted) and the peak RSS of the stage (VmHWM, reset before each stage).
 *
 * `npx tsx bench/run.ts direct-api-import` after `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { CampaignData } from '../contract/campaigns.js';
import { startFakeDirect, type ApiObject, type FakeDirectAccount } from '../tests/fakes/yandex-direct-fake.js';
import { accountFiles } from './account-files.js';
import { generateAccount } from './analysis.js';
import type { BenchApp } from './bench-app.js';

const CAMPAIGNS = 10;
const GROUPS_PER_CAMPAIGN = 500;
const TOKEN = 'bench-direct-token';
const MICROS = 1_000_000;

/** The strategies the campaigns take in turn: manual bids, max clicks with a weekly budget, pay for conversions. */
function strategyOf(index: number): Record<string, unknown> {
  const search =
    index % 3 === 0
      ? { BiddingStrategyType: 'HIGHEST_POSITION' }
      : index % 3 === 1
        ? { BiddingStrategyType: 'WB_MAXIMUM_CLICKS', WbMaximumClicks: { WeeklySpendLimit: 50_000 * MICROS, BidCeiling: 120 * MICROS } }
        : { BiddingStrategyType: 'PAY_FOR_CONVERSION', PayForConversion: { Cpa: 900 * MICROS, GoalId: 12345, WeeklySpendLimit: 80_000 * MICROS } };
  return { BiddingStrategy: { Search: search, Network: { BiddingStrategyType: 'SERVING_OFF' } } };
}

/** The generated account in the API's shapes: money in millionths, a keyword's minus-words in its text. */
export function toApiAccount(data: CampaignData): FakeDirectAccount {
  const account: FakeDirectAccount = { campaigns: [], adGroups: [], ads: [], keywords: [], sitelinksSets: [], adExtensions: [], adImages: [], negativeKeywordSharedSets: [], reportRows: { CUSTOM_REPORT: [], SEARCH_QUERY_PERFORMANCE_REPORT: [] } };
  account.negativeKeywordSharedSets!.push({ Id: 70_001, Name: 'Общие минус-слова', NegativeKeywords: ['бесплатно', 'вакансии', 'своими руками', 'б/у'], Associated: 'YES' });
  account.sitelinksSets.push({ Id: 50_001, Sitelinks: [{ Title: 'Каталог', Href: 'https://bench.example.ru/catalog' }, { Title: 'Доставка', Href: 'https://bench.example.ru/delivery' }, { Title: 'Контакты', Href: 'https://bench.example.ru/contacts' }] });
  account.adExtensions.push({ Id: 60_001, Type: 'CALLOUT', Status: 'ACCEPTED', Callout: { CalloutText: 'Доставка за 1 день' } });
  let groupId = 300_000;
  let adId = 5_000_000;
  let keywordId = 10_000_000;
  const stats = account.reportRows.CUSTOM_REPORT!;
  data.campaigns.forEach((campaign, c) => {
    const campaignId = 51_000_000 + c;
    const campaignObject: ApiObject = {
      Id: campaignId, Name: campaign.name, Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', StartDate: '2024-01-01', TimeZone: 'Europe/Moscow',
      DailyBudget: c % 2 === 0 ? { Amount: 3_000 * MICROS, Mode: 'STANDARD' } : null,
      NegativeKeywords: campaign.negativeKeywords.length > 0 ? { Items: campaign.negativeKeywords } : null,
      TextCampaign: strategyOf(c),
    };
    account.campaigns.push(campaignObject);
    campaign.groups.forEach((group, g) => {
      const id = ++groupId;
      account.adGroups.push({
        Id: id, Name: group.name, CampaignId: campaignId, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: g % 50 === 0 ? 'RARELY_SERVED' : 'ELIGIBLE', RegionIds: [213],
        NegativeKeywords: group.negativeKeywords.length > 0 ? { Items: group.negativeKeywords } : null,
        NegativeKeywordSharedSetIds: g % 4 === 0 ? { Items: [70_001] } : null,
      });
      const adIds = group.ads.map((ad) => {
        const ads = ++adId;
        account.ads.push({
          Id: ads, AdGroupId: id, CampaignId: campaignId, State: 'ON', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
          TextAd: { Title: ad.headlines[0] ?? '', Title2: ad.headlines[1] ?? null, Text: ad.texts[0] ?? '', Href: ad.finalUrl ?? 'https://bench.example.ru/', Mobile: 'NO', SitelinkSetId: 50_001, AdExtensions: [{ AdExtensionId: 60_001, Type: 'CALLOUT' }] },
        });
        return ads;
      });
      for (const keyword of group.keywords) {
        const kid = ++keywordId;
        const text = [keyword.phrase, ...keyword.negativeWords.map((word) => `-${word}`)].join(' ');
        account.keywords.push({ Id: kid, Keyword: text, AdGroupId: id, CampaignId: campaignId, Bid: Math.round((keyword.bid ?? 25) * MICROS), ContextBid: 0, State: 'ON', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE' });
        const s = keyword.stats;
        if (s && s.impressions > 0) {
          stats.push({ CampaignId: campaignId, AdGroupId: id, AdId: adIds[0] ?? '--', CriterionId: kid, CriterionType: 'KEYWORD', AdNetworkType: 'SEARCH', Impressions: s.impressions, Clicks: s.clicks, Cost: s.cost.toFixed(2), Conversions: s.conversions ?? '--' });
        }
      }
    });
  });
  account.reportRows.SEARCH_QUERY_PERFORMANCE_REPORT = data.searchQueries.map((query) => ({
    CampaignName: query.campaignName ?? '', AdGroupName: query.groupName ?? '', Criterion: query.keyword ?? '', Query: query.query,
    Impressions: query.stats.impressions, Clicks: query.stats.clicks, Cost: query.stats.cost.toFixed(2), Conversions: query.stats.conversions ?? 0,
  }));
  return account;
}

// ------------------------------------------------------------------------------------ measuring

interface StageFigures {
  name: string;
  wallMs: number;
  cpuMs: number;
  peakRss: number;
}

/** Resets the kernel's peak-RSS mark of this process to its current RSS (Linux), so a stage's own peak can be read. */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: the peak is then the process's so far.
  }
}

function peakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

async function stage<T>(figures: StageFigures[], name: string, action: () => Promise<T>): Promise<T> {
  resetPeak();
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    return await action();
  } finally {
    const used = process.cpuUsage(cpu);
    figures.push({ name, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, peakRss: peakRss() });
  }
}

async function api<T>(bench: BenchApp, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${bench.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${text.slice(0, 400)}`);
  return JSON.parse(text) as T;
}

/** Asks until `done` says the answer is final (the bench's own polling: a person's screen polls too). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface SavedProject {
  id: string;
  campaigns: { id: string }[];
  counts: { campaigns: number; groups: number; ads: number; keywords: number };
}

async function saveAndAudit(bench: BenchApp, figures: StageFigures[], draftId: string, label: string): Promise<{ project: SavedProject; findings: number }> {
  const project = await stage(figures, 'save as a project', () => api<SavedProject>(bench, 'POST', '/projects', { name: label, site_url: 'bench.example.ru', platform: 'yandex_direct', draft_id: draftId }));
  const findings = await stage(figures, 'audit (start → completed)', async () => {
    const started = await api<{ analysis: { id: string } }>(bench, 'POST', `/projects/${project.id}/analyses`, { campaign_ids: project.campaigns.map((c) => c.id), idempotency_key: `bench-${label}-${Date.now()}` });
    const { analysis } = await until(
      () => api<{ analysis: { status: string; error: string | null } }>(bench, 'GET', `/analyses/${started.analysis.id}`),
      ({ analysis: a }) => a.status !== 'queued' && a.status !== 'running',
    );
    if (analysis.status !== 'completed') throw new Error(`audit ${analysis.status}: ${analysis.error ?? ''}`);
    const results = await api<{ summary: { findingsTotal: number } }>(bench, 'GET', `/analyses/${started.analysis.id}/results`);
    return results.summary.findingsTotal;
  });
  return { project, findings };
}

async function viaFiles(bench: BenchApp, data: CampaignData): Promise<{ figures: StageFigures[]; project: SavedProject; findings: number }> {
  const figures: StageFigures[] = [];
  const generated = accountFiles(data);
  const preview = await stage(figures, 'upload + parse → preview', async () => {
    const form = new FormData();
    form.append('platform', 'yandex_direct');
    for (const file of generated.files) form.append('files', new Blob([file.text], { type: 'text/tab-separated-values' }), file.name);
    const answer = await fetch(`${bench.url}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${bench.accessToken}` }, body: form });
    const body = (await answer.json()) as { draft_id: string };
    if (!answer.ok) throw new Error(`import-preview: HTTP ${answer.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  });
  return { figures, ...(await saveAndAudit(bench, figures, preview.draft_id, 'Бенч: файлы')) };
}

async function viaApi(bench: BenchApp): Promise<{ figures: StageFigures[]; project: SavedProject; findings: number; units: number }> {
  const figures: StageFigures[] = [];
  const job = await stage(figures, 'API read (import job) → preview', async () => {
    const started = await api<{ id: string }>(bench, 'POST', '/projects/import-preview/direct-api', { token: TOKEN });
    return until(
      () => api<{ status: string; error?: string; preview?: { draft_id: string }; progress: { units: { spent: number } } }>(bench, 'GET', `/projects/import-jobs/${started.id}`),
      (value) => value.status === 'completed' || value.status === 'failed',
    );
  });
  if (job.status !== 'completed' || !job.preview) throw new Error(`API import ${job.status}: ${job.error ?? ''}`);
  return { figures, ...(await saveAndAudit(bench, figures, job.preview.draft_id, 'Бенч: API')), units: job.progress.units.spent };
}

function print(title: string, figures: StageFigures[]): void {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const total = figures.reduce((sum, f) => ({ wall: sum.wall + f.wallMs, cpu: sum.cpu + f.cpuMs }), { wall: 0, cpu: 0 });
  console.log(`  ${title}`);
  for (const f of figures) console.log(`    ${f.name.padEnd(34)} wall ${(f.wallMs / 1000).toFixed(1).padStart(6)} s   CPU ${(f.cpuMs / 1000).toFixed(1).padStart(6)} s   peak RSS ${mb(f.peakRss)}`);
  console.log(`    ${'whole path'.padEnd(34)} wall ${(total.wall / 1000).toFixed(1).padStart(6)} s   CPU ${(total.cpu / 1000).toFixed(1).padStart(6)} s   peak RSS ${mb(Math.max(...figures.map((f) => f.peakRss)))}`);
}

export async function run(): Promise<void> {
  const data = generateAccount({ campaigns: CAMPAIGNS, groupsPerCampaign: GROUPS_PER_CAMPAIGN });
  const apiAccount = toApiAccount(data);
  const direct = await startFakeDirect(apiAccount, { token: TOKEN, pageSize: 10_000, units: { available: 10_000_000, daily: 10_000_000, perRequest: 10 } });
  const { startBenchApp } = await import('./bench-app.js');
  const bench = await startBenchApp({ jobs: true, balance: 1_000_000, env: { YANDEX_DIRECT_API_URL: direct.url } });
  try {
    console.log(
      `direct-api-import (${bench.source}): ${apiAccount.campaigns.length} campaigns, ${apiAccount.adGroups.length} groups, ${apiAccount.keywords.length} keywords, ${apiAccount.ads.length} ads, ` +
        `${apiAccount.reportRows.CUSTOM_REPORT!.length} statistics rows, ${apiAccount.reportRows.SEARCH_QUERY_PERFORMANCE_REPORT!.length} search queries`,
    );
    const files = await viaFiles(bench, data);
    data.campaigns = [];
    const fromApi = await viaApi(bench);
    print(`files (baseline): ${JSON.stringify(files.project.counts)}, ${files.findings} findings`, files.figures);
    print(`Direct API: ${JSON.stringify(fromApi.project.counts)}, ${fromApi.findings} findings, ${direct.requests.length} API requests, ${fromApi.units} points`, fromApi.figures);
  } finally {
    await bench.close();
    await direct.close();
  }
}

// `npx tsx bench/direct-api-import.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
