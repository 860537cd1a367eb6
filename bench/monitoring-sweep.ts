/**
 * Bench of the monitoring sweep (server/monitoring/sweep.ts): `BENCH_SWEEP_PROJECTS` projects (200 in the
 * issue's figure) of `BENCH_SWEEP_KEYWORDS` keywords each (10 000), every one connected to a Direct API
 * account (a fake on 127.0.0.1 serving a generated account of that size) and scheduled at the same hour.
 * The sweep is driven at the slot as the minute tick would (once a second here, so the bench does not wait
 * a minute between steps): each project is re-read through the API, its data replaced, audited and paid.
 * Meanwhile a client asks `GET /api/v1/tokens/balance` every 50 ms; printed: the time until every run is
 * closed, their outcomes, and the balance's p50/p99/max during the sweep (and a progress line each minute,
 * so a run cut short still says how far it got).
 *
 * Set-up: the first project is read through the API import as a person would create it; the others are
 * copies of it made in SQL (the project, its import, campaigns, queries and Direct connection), because 200
 * imports of 10 000 keywords would take longer than the sweep itself and measure the import, not the sweep.
 * Nothing of the sweep is shortcut: every copy is re-read through the fake API, replaced, audited and paid.
 */
import { sql } from 'kysely';
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
    campaigns: [{ Id: 1, Name: 'Окна — поиск', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', DailyBudget: null, Funds: { Mode: 'SHARED_ACCOUNT_FUNDS', SharedAccountFunds: { Refund: 0, Spend: 0 } }, NegativeKeywords: { Items: ['бесплатно'] }, StartDate: '2026-01-01', EndDate: null, TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION' }, Network: { BiddingStrategyType: 'SERVING_OFF' } } } }],
    adGroups,
    ads,
    keywords: keywordRows,
    sitelinksSets: [],
    // The campaign spends a shared account: each re-read also asks its balance (v4 Live), as a real one would.
    sharedAccounts: [{ AccountID: 1, Login: 'bench', Amount: 1_000_000, Currency: 'RUB' }],
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

/** `count` copies of a project made in SQL: the project row, its imports, campaigns, queries and connection. */
async function cloneProject(bench: BenchApp, sourceId: string, count: number): Promise<string[]> {
  const db = bench.app.db;
  const ids: string[] = [];
  for (let index = 1; index <= count; index++) {
    const id = await db.transaction().execute(async (trx) => {
      const project = await sql<{ id: string }>`
        INSERT INTO projects (organization_id, name, name_key, site_url, platform, region, target_cpa, settings, time_zone, author_id)
        SELECT organization_id, ${`Окна ${index}`}, ${`окна ${index}`}, ${`okna-${index}.example`}, platform, region, target_cpa, settings, time_zone, author_id
          FROM projects WHERE id = ${sourceId} RETURNING id`.execute(trx);
      const newId = project.rows[0]!.id;
      const imports = await sql<{ old_id: string; new_id: string }>`
        WITH source AS (SELECT *, gen_random_uuid() AS new_id FROM project_imports WHERE project_id = ${sourceId}),
             copied AS (
               INSERT INTO project_imports (id, project_id, source, mode, status, file_names, counts, problems, detected, period, created_by, units_spent)
               SELECT new_id, ${newId}, source, mode, status, file_names, counts, problems, detected, period, created_by, units_spent FROM source RETURNING id)
        SELECT id AS old_id, new_id FROM source`.execute(trx);
      for (const { old_id, new_id } of imports.rows) {
        await sql`
          INSERT INTO campaigns (project_id, import_id, position, external_id, name, type, groups_count, ads_count, keywords_count, negative_keywords_count, stats, groups_summary, data)
          SELECT ${newId}, ${new_id}, position, external_id, name, type, groups_count, ads_count, keywords_count, negative_keywords_count, stats, groups_summary, data
            FROM campaigns WHERE import_id = ${old_id}`.execute(trx);
        await sql`
          INSERT INTO project_search_queries (project_id, import_id, position, data, rows_count, period)
          SELECT ${newId}, ${new_id}, position, data, rows_count, period FROM project_search_queries WHERE import_id = ${old_id}`.execute(trx);
      }
      await sql`
        INSERT INTO project_connections (project_id, platform, encrypted_token, client_login, sandbox, direct_connection_id)
        SELECT ${newId}, platform, encrypted_token, client_login, sandbox, direct_connection_id FROM project_connections WHERE project_id = ${sourceId}`.execute(trx);
      return newId;
    });
    ids.push(id);
  }
  return ids;
}

/** Asks the balance every 50 ms until stopped; the latencies in ms. */
function sampleBalance(bench: BenchApp): { stop: () => Promise<number[]>; sofar: () => number[] } {
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
    sofar: () => [...latencies].sort((a, b) => a - b),
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
    const first = await createConnectedProject(bench, 0);
    const ids = [first, ...(await cloneProject(bench, first, projects - 1))];
    let slot: Date | null = null;
    for (const id of ids) slot = new Date((await api(bench, 'PUT', `/api/v1/projects/${id}/schedule`, { frequency: 'daily', hour: 3 })).schedule.next_run_at);
    const counted = await bench.app.db.selectFrom('campaigns').select((eb) => [eb.fn.sum<number>('keywords_count').as('keywords'), eb.fn.count<number>('project_id').distinct().as('projects')]).executeTakeFirstOrThrow();
    console.log(`stored before the sweep: ${counted.projects} projects, ${counted.keywords} keywords`);
    console.log(`set-up (imports, projects, schedules): ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    const { db, jobs, config } = bench.app;
    const deps = { db, jobs, config, mailer: createMailer({ from: config.mailFrom, log: bench.app.log }), telegram: null };
    const sampler = sampleBalance(bench);
    const started = performance.now();
    let open = projects;
    let reported = started;
    while (open > 0) {
      await monitoringSweep(deps, slot!);
      const rows = await db.selectFrom('scheduled_runs').select('status').execute();
      open = rows.filter((row) => ['due', 'reading', 'auditing'].includes(row.status)).length + (projects - rows.length);
      if (performance.now() - reported >= 60_000) {
        reported = performance.now();
        const sofar = sampler.sofar();
        const minutes = (reported - started) / 60_000;
        console.log(`  ${minutes.toFixed(1)} min: ${projects - open} of ${projects} runs closed (${((projects - open) / minutes).toFixed(2)} a minute); balance so far p50 ${percentile(sofar, 50).toFixed(1)} ms, p99 ${percentile(sofar, 99).toFixed(1)} ms (${sofar.length} requests)`);
      }
      if (open > 0) await sleep(1_000);
    }
    const sweepSeconds = (performance.now() - started) / 1000;
    const latencies = await sampler.stop();
    const audited = await sql<{ n: number; keywords: number }>`
      SELECT count(DISTINCT a.id)::int AS n, coalesce(sum(c.keywords_count), 0)::int AS keywords
        FROM scheduled_runs r JOIN analyses a ON a.id = r.analysis_id AND a.status = 'completed' JOIN campaigns c ON c.project_id = r.project_id`.execute(db);
    console.log(`completed scheduled audits: ${audited.rows[0]!.n}, over ${audited.rows[0]!.keywords} keywords re-read`);
    const outcomes = await db.selectFrom('scheduled_runs').select(['status', db.fn.countAll<number>().as('n')]).groupBy('status').execute();
    console.log(`sweep until every run closed: ${sweepSeconds.toFixed(1)} s (${(projects / (sweepSeconds / 60)).toFixed(2)} audits a minute); runs: ${outcomes.map((row) => `${row.status} ${row.n}`).join(', ')}`);
    console.log(`GET /tokens/balance during the sweep: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
  } finally {
    await bench.close();
    await fake.close();
  }
}
