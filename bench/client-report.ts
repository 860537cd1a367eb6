/**
 * `npx tsx bench/run.ts client-report`: the client report of a 100 000-keyword audit (issue 24: under 5 s).
 *
 * The account of bench/analysis.ts (BENCH_REPORT_KEYWORDS, default 100 000: 10 campaigns of 500 groups of
 * 20 keywords) is audited by the real engines in this process; its stored summary goes into a completed
 * analysis of the production app (bench-app.ts), with eleven earlier audits of the project for the trend.
 * Then, over HTTP, timed: `GET /analyses/{id}/report.pdf` (the report read from the database and the PDF
 * drawn in the document pool; a warm-up first, then ROUNDS in a row) and `GET /public/reports/{token}`
 * (the share page's one call). Prints the median and the slowest, the PDF's size and pages; fails above
 * the target.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildResultsSummary } from '../server/analysis/result-rows.js';
import { runAudit, summarizeAudit } from '../server/analysis/run-audit.js';
import { benchAccountSize, generateAccount } from './analysis.js';
import { startBenchApp, type BenchApp } from './bench-app.js';

const KEYWORDS = Number(process.env.BENCH_REPORT_KEYWORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS ?? 5);
const EARLIER_AUDITS = 11;
const TARGET_MS = 5_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** A completed analysis of the project holding `report` and `summary`, finished `monthsAgo` months ago. */
async function insertCompletedAudit(bench: BenchApp, projectId: string, report: string, summary: string, score: number, monthsAgo: number): Promise<string> {
  const finished = new Date(Date.now() - monthsAgo * 30 * 24 * 3600 * 1000);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO analyses (organization_id, project_id, created_by, status, options, cost, idempotency_key, score, report, summary, created_at, started_at, finished_at)
    VALUES (${bench.user.organizationId}, ${projectId}, ${bench.user.id}, 'completed', ${JSON.stringify({ campaign_ids: [], settings: {}, target_cpa: null })}::jsonb, 0, ${randomUUID()},
            ${score}, ${report}::jsonb, ${summary}::jsonb, ${finished}, ${finished}, ${finished})
    RETURNING id`.execute(bench.app.db);
  return rows[0]!.id;
}

async function timed(url: string, token: string | null): Promise<{ ms: number; bytes: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${bytes.toString('utf8').slice(0, 300)}`);
  return { ms: performance.now() - started, bytes };
}

export async function run(): Promise<void> {
  const data = generateAccount(benchAccountSize(KEYWORDS));
  const keywords = data.campaigns.reduce((sum, campaign) => sum + campaign.groups.reduce((groups, group) => groups + group.keywords.length, 0), 0);
  let started = performance.now();
  const result = await runAudit({ data, settings: {}, targetCpa: null });
  const auditMs = performance.now() - started;
  const report = JSON.stringify(buildResultsSummary(result));
  const summary = JSON.stringify(summarizeAudit(result));
  const score = result.scoring.account.score;
  console.log(`Account: ${keywords.toLocaleString('en-US')} keywords; audited by the engines in ${ms(auditMs)}; stored summary ${(report.length / 1024).toFixed(0)} KB`);

  const bench = await startBenchApp();
  try {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO projects (organization_id, name, name_key, site_url, platform, author_id)
      VALUES (${bench.user.organizationId}, 'Мебель 100 000', 'мебель 100 000', 'https://example.ru', 'yandex_direct', ${bench.user.id}) RETURNING id`.execute(bench.app.db);
    const projectId = rows[0]!.id;
    for (let month = EARLIER_AUDITS; month >= 1; month--) await insertCompletedAudit(bench, projectId, report, summary, Math.max(0, score - month), month);
    const analysisId = await insertCompletedAudit(bench, projectId, report, summary, score, 0);

    const pdfUrl = `${bench.url}/api/v1/analyses/${analysisId}/report.pdf`;
    started = performance.now();
    await timed(pdfUrl, bench.accessToken);
    const warmUpMs = performance.now() - started;
    const pdfRounds = [];
    for (let round = 0; round < ROUNDS; round++) pdfRounds.push(await timed(pdfUrl, bench.accessToken));
    const pdf = pdfRounds.at(-1)!.bytes;
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;

    const link = await fetch(`${bench.url}/api/v1/analyses/${analysisId}/share-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in_days: 7 }),
    });
    const { token } = (await link.json()) as { token: string };
    const pageRounds = [];
    for (let round = 0; round < ROUNDS; round++) pageRounds.push(await timed(`${bench.url}/api/v1/public/reports/${token}`, null));

    const pdfMs = pdfRounds.map((round) => round.ms);
    const pageMs = pageRounds.map((round) => round.ms);
    console.log(`Server: ${bench.source}; ${ROUNDS} rounds after a warm-up of ${ms(warmUpMs)} (the pool's thread starting)`);
    console.log(`GET report.pdf           median ${ms(median(pdfMs))}, slowest ${ms(Math.max(...pdfMs))}; ${(pdf.length / 1024).toFixed(0)} KB, ${pages} pages`);
    console.log(`GET public/reports/:token median ${ms(median(pageMs))}, slowest ${ms(Math.max(...pageMs))}; ${(pageRounds[0]!.bytes.length / 1024).toFixed(0)} KB of JSON`);
    const slowest = Math.max(...pdfMs, warmUpMs);
    console.log(`Target: the report of a ${keywords.toLocaleString('en-US')}-keyword audit under ${ms(TARGET_MS)}: ${slowest < TARGET_MS ? 'met' : 'MISSED'} (slowest, warm-up included: ${ms(slowest)})`);
    if (slowest >= TARGET_MS) throw new Error(`The client report took ${ms(slowest)}, over ${ms(TARGET_MS)}`);
  } finally {
    await bench.close();
  }
}
