/**
 * The API while the engines work, as deployed (bench/deployed-server.ts: main.js with its job workers, the
 * default log level, its own embedded PostgreSQL): `GET /api/v1/tokens/balance` asked at a steady rate
 * (BENCH_AUDIT_RATE a second, default 50, over keep-alive connections) first on the idle server, then
 * while a 100 000-keyword audit (BENCH_AUDIT_KEYWORDS; bench/analysis.ts's generated account, uploaded as
 * files through the API) runs from its start to its end. Each request's latency counts from the moment it
 * was due, not from when it could be sent, so a stalled server shows as the wait it causes (no
 * coordinated omission). Printed: p50, p99 and the worst answer idle, during the engines' part and during
 * the saving of the results (the audit's stages, read from the API); issue 26 holds p99 under 50 ms.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { accountFiles } from './account-files.js';
import { generateAccount } from './analysis.js';
import { startDeployedServer, type DeployedServer } from './deployed-server.js';

const RATE = Number(process.env.BENCH_AUDIT_RATE ?? 50);
const KEYWORDS = Number(process.env.BENCH_AUDIT_KEYWORDS ?? 100_000);
const IDLE_SECONDS = 5;
const P99_TARGET_MS = 50;

async function api<T>(server: DeployedServer, method: string, path: string, body?: unknown): Promise<T> {
  const isForm = body instanceof FormData;
  const answer = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.accessToken}`, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface Probe {
  /** Latencies so far, each with the phase it was due in. */
  samples: { phase: string; ms: number }[];
  failures: number;
  phase: string;
  stop: () => Promise<void>;
}

/** GET the balance every 1/RATE s; each latency from the moment the request was due. */
function probeBalance(server: DeployedServer): Probe {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const url = `${server.url}/api/v1/tokens/balance`;
  const headers = { authorization: `Bearer ${server.accessToken}` };
  const probe: Probe = { samples: [], failures: 0, phase: 'idle', stop: async () => undefined };
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  let stopped = false;
  const send = (due: number, phase: string) => {
    const request = new Promise<void>((resolve) => {
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode === 200) probe.samples.push({ phase, ms: performance.now() - due });
            else probe.failures++;
            resolve();
          });
        })
        .on('error', () => {
          probe.failures++;
          resolve();
        });
    });
    pending.add(request);
    void request.then(() => pending.delete(request));
  };
  const tick = () => {
    if (stopped) return;
    // Every request due by now goes out, each timed from its own due moment.
    const now = performance.now();
    for (let due = started + (sent * 1000) / RATE; due <= now; due = started + (sent * 1000) / RATE) {
      send(due, probe.phase);
      sent++;
    }
    setTimeout(tick, Math.max(1, started + (sent * 1000) / RATE - performance.now()));
  };
  tick();
  probe.stop = async () => {
    stopped = true;
    await Promise.all(pending);
    agent.destroy();
  };
  return probe;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function uploadAccount(server: DeployedServer): Promise<{ projectId: string; campaignIds: string[] }> {
  const groupsTotal = Math.ceil(KEYWORDS / 20);
  const campaigns = Math.max(1, Math.ceil(groupsTotal / 500));
  const generated = accountFiles(generateAccount({ campaigns, groupsPerCampaign: Math.ceil(groupsTotal / campaigns) }));
  const form = new FormData();
  form.append('platform', 'yandex_direct');
  for (const file of generated.files) form.append('files', new Blob([file.text], { type: 'text/csv' }), file.name);
  const preview = await api<{ draft_id: string }>(server, 'POST', '/projects/import-preview', form);
  const project = await api<{ id: string; campaigns: { id: string }[] }>(server, 'POST', '/projects', { name: 'Бенч', site_url: 'bench.example.ru', platform: 'yandex_direct', draft_id: preview.draft_id });
  console.log(`account: ${generated.keywords.toLocaleString('en-US')} keywords, ${generated.ads.toLocaleString('en-US')} ads, ${generated.queries.toLocaleString('en-US')} search queries in ${campaigns} campaigns`);
  return { projectId: project.id, campaignIds: project.campaigns.map((c) => c.id) };
}

/** Starts the audit and follows it; the probe's phase is the audit's stage. Resolves with the audit's seconds. */
async function runAudit(server: DeployedServer, account: { projectId: string; campaignIds: string[] }, probe: Probe): Promise<number> {
  const started = performance.now();
  probe.phase = 'engines';
  const { analysis } = await api<{ analysis: { id: string } }>(server, 'POST', `/projects/${account.projectId}/analyses`, { campaign_ids: account.campaignIds, idempotency_key: `bench-${Date.now()}` });
  for (;;) {
    const { analysis: state } = await api<{ analysis: { status: string; stage: string | null; error: string | null } }>(server, 'GET', `/analyses/${analysis.id}`);
    if (state.stage === 'saving') probe.phase = 'saving';
    if (state.status === 'completed') return (performance.now() - started) / 1000;
    if (state.status === 'failed' || state.status === 'cancelled') throw new Error(`audit ${state.status}: ${state.error ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run(): Promise<void> {
  // BENCH_SERVER_NODE_ARGS: options for the server's node (e.g. `--cpu-prof --cpu-prof-dir=…` to see what its main thread does meanwhile).
  const server = await startDeployedServer({}, process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []);
  try {
    const me = await api<{ id: string }>(server, 'GET', '/auth/me');
    await api(server, 'POST', '/admin/tokens/credit', { user_id: me.id, amount: 1_000_000, reason: 'бенчмарк', idempotency_key: 'bench' });
    const account = await uploadAccount(server);
    console.log(`GET /api/v1/tokens/balance at ${RATE} requests a second; the server as deployed (main.js, default log level, job workers inside)`);
    const probe = probeBalance(server);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const auditSeconds = await runAudit(server, account, probe);
    await probe.stop();
    console.log(`audit: ${auditSeconds.toFixed(1)} s from start to completed\n`);
    console.log('| phase | answers | p50 ms | p99 ms | worst ms |');
    console.log('|:--|--:|--:|--:|--:|');
    const rows: [string, number[]][] = [
      ['idle', probe.samples.filter((s) => s.phase === 'idle').map((s) => s.ms)],
      ['audit: engines', probe.samples.filter((s) => s.phase === 'engines').map((s) => s.ms)],
      ['audit: saving', probe.samples.filter((s) => s.phase === 'saving').map((s) => s.ms)],
      ['audit: whole', probe.samples.filter((s) => s.phase !== 'idle').map((s) => s.ms)],
    ];
    for (const [phase, values] of rows) console.log(`| ${phase} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`);
    const whole = percentile(rows[3][1], 99);
    console.log(`\ntarget: p99 under ${P99_TARGET_MS} ms during the audit: ${whole.toFixed(1)} ms (${whole < P99_TARGET_MS ? 'met' : 'NOT met'})${probe.failures ? `; ${probe.failures} requests failed` : ''}`);
  } finally {
    await server.stop();
  }
}
