/**
 * Bench of the monitoring sweep (server/monitoring/sweep.ts): `BENCH_SWEEP_PROJECTS` projects (200 in the
 * issue's figure) of `BENCH_SWEEP_KEYWORDS` keywords each (10 000), every one connected to a Direct API
 * account (a fake on 127.0.0.1 serving a generated account of that size) and scheduled at the same hour.
 * The sweep is driven at the slot as the minute tick would (once a second here, so the bench does not wait
 * a minute between steps): each project is re-read through the API, its data replaced, audited and paid.
 * Meanwhile a client asks `GET /api/v1/tokens/balance` every 50 ms; printed: the time until every run is
 * closed, their outcomes, and the balance's p50/p99/max during the sweep.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMailer } from '../server/email/mailer.js';
import { monitoringSweep } from '../server/monitoring/sweep.js';
import { startFakeDirect, type ApiObject, type FakeDirectAccount } from '../tests/fakes/yandex-direct-fake.js';
import { startBenchApp, type BenchApp } from './bench-app.js';

const TOKEN = 'y0_bench-token';
const KEYWORDS_PER_GROUP = 20;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const intFromEnv = (name: string, fallback: number) => Number.parseInt(process.env[name] ?? '', 10) || fallback;

/** A search campaign of `keywords` keywords in groups of 20, one ad a group, statistics on every keyword. */
function generatedAccount(keywords: number): FakeDirectAccount {
  const groups = Math.ceil(keywords / KEYWORDS_PER_GROUP);
  const adGroups: ApiObject[] = [];
  const ads: ApiObject[] = [];
  const keywordRows: ApiObject[] = [];
  const report: Record<string, string | number>[] = [];
  for (let g = 0; g < groups; g++) {
    const groupId = 100_000 + g;
    adGroups.push({ Id: groupId, Name: `Группа ${g}`, CampaignId: 1, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', RegionIds: [213], NegativeKeywords: null });
    ads.push({ Id: 200_000 + g, AdGroupId: groupId, CampaignId: 1, State: 'ON', Status: 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE', TextAd: { Title: `Окна модели ${g} недорого`, Title2: null, Text: 'Замер бесплатно, монтаж за день', Href: `https://okna.example/m${g}`, DisplayUrlPath: null, Mobile: 'NO', SitelinkSetId: null, AdExtensions: [] } });
    for (let k = 0; k < KEYWORDS_PER_GROUP && g * KEYWORDS_PER_GROUP + k < keywords; k++) {
      const id = 300_000 + g * KEYWORDS_PER_GROUP + k;
      keywordRows.push({ Id: id, Keyword: `пластиковые окна модель ${g} вариант ${k}`, AdGroupId: groupId, CampaignId: 1, Bid: 15_000_000, ContextBid: 0, State: 'ON', Status: 'ACCEPTED' });
      const clicks = (g + k) % 9;
      report.push({ CampaignId: 1, AdGroupId: groupId, AdId: 200_000 + g, CriterionId: id, CriterionType: 'KEYWORD', Impressions: clicks * 20 + 5, Clicks: clicks, Cost: (clicks * 37.5).toFixed(2), Conversions: k % 7 === 0 ? 1 : 0 });
    }
  }
  return {
    campaigns: [{ Id: 1, Name: 'Окна — поиск', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', DailyBudget: null, NegativeKeywords: { Items: ['бесплатно'] }, StartDate: '2026-01-01', EndDate: null, TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION' }, Network: { BiddingStrategyType: 'SERVING_OFF' } } } }],
    adGroups,
    ads,
    keywords: keywordRows,
    sitelinksSets: [],
    adExtensions: [],
    adImages: [],
    reportRows: { CUSTOM_REPORT: report, SEARCH_QUERY_PERFORMANCE_REPORT: [] },
  };
}

async function api(bench: BenchApp, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${bench.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** One project read from the fake account through the API import, as a person would create it. */
async function createConnectedProject(bench: BenchApp, index: number): Promise<string> {
  let job = await api(bench, 'POST', '/api/v1/projects/import-preview/direct-api', { token: TOKEN });
  while (job.status === 'queued' || job.status === 'running') {
    await sleep(200);
    job = await api(bench, 'GET', `/api/v1/projects/import-jobs/${job.id}`);
  }
  if (job.status !== 'completed') throw new Error(`import failed: ${JSON.stringify(job)}`);
  const project = await api(bench, 'POST', '/api/v1/projects', { name: `Окна ${index}`, site_url: `okna-${index}.example`, platform: 'yandex_direct', draft_id: job.preview.draft_id });
  return project.id as string;
}

/** Asks the balance every 50 ms until stopped; the latencies in ms. */
function sampleBalance(bench: BenchApp): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await api(bench, 'GET', '/api/v1/tokens/balance');
      latencies.push(performance.now() - started);
      await sleep(50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies.sort((a, b) => a - b);
    },
  };
}

export async function run(): Promise<void> {
  const projects = intFromEnv('BENCH_SWEEP_PROJECTS', 200);
  const keywords = intFromEnv('BENCH_SWEEP_KEYWORDS', 10_000);
  const fake = await startFakeDirect(generatedAccount(keywords), { token: TOKEN, pageSize: 10_000, units: { available: 1_000_000_000, daily: 1_000_000_000, perRequest: 1 } });
  const bench = await startBenchApp({ jobs: true, balance: 100_000_000, env: { YANDEX_DIRECT_API_URL: fake.url } });
  try {
    console.log(`server: ${bench.source}; ${projects} projects of ${keywords} keywords`);
    const setupStarted = performance.now();
    const ids: string[] = [];
    for (let index = 0; index < projects; index++) ids.push(await createConnectedProject(bench, index));
    let slot: Date | null = null;
    for (const id of ids) slot = new Date((await api(bench, 'PUT', `/api/v1/projects/${id}/schedule`, { frequency: 'daily', hour: 3 })).schedule.next_run_at);
    console.log(`set-up (imports, projects, schedules): ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    const { db, jobs, config } = bench.app;
    const deps = { db, jobs, config, mailer: createMailer({ from: config.mailFrom, log: bench.app.log }), telegram: null };
    const sampler = sampleBalance(bench);
    const started = performance.now();
    let open = projects;
    while (open > 0) {
      await monitoringSweep(deps, slot!);
      const rows = await db.selectFrom('scheduled_runs').select('status').execute();
      open = rows.filter((row) => ['due', 'reading', 'auditing'].includes(row.status)).length + (projects - rows.length);
      if (open > 0) await sleep(1_000);
    }
    const sweepSeconds = (performance.now() - started) / 1000;
    const latencies = await sampler.stop();
    const outcomes = await db.selectFrom('scheduled_runs').select(['status', db.fn.countAll<number>().as('n')]).groupBy('status').execute();
    console.log(`sweep until every run closed: ${sweepSeconds.toFixed(1)} s; runs: ${outcomes.map((row) => `${row.status} ${row.n}`).join(', ')}`);
    console.log(`GET /tokens/balance during the sweep: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
  } finally {
    await bench.close();
    await fake.close();
  }
}
