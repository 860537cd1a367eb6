/**
 * `npm run bench -- documents`: how the API answers while 20 invoice PDFs are built at once (issue 27:
 * built in the event loop, 20 of them pushed `/api/health` to 0.5–1.3 s; the target is p99 under 50 ms).
 *
 * The production app (bench-app.ts) with one pending invoice of its user. Each round sends 20 parallel
 * `GET /api/v1/tokens/invoices/{id}/pdf` over HTTP while one client asks `/api/health` again and again
 * (each as soon as the previous one has answered) until the last PDF is in; the health latencies of the
 * round are pooled. Baseline in the same run: the old in-loop build, the same 20 invoices rendered by
 * `renderInvoicePdf` in the server's event loop (this process) while the same health client runs.
 * A warm-up round of each goes first (the pool's threads start, pdfkit and the fonts load).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as InvoicePdfModule from '../server/payments/invoice-pdf.js';
import { startBenchApp, type BenchApp } from './bench-app.js';

const PARALLEL = 20;
const ROUNDS = Number(process.env.BENCH_DOCUMENT_ROUNDS ?? 3);
const TARGET_P99_MS = 50;

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The in-loop renderer from the same code the bench app runs (the build when there is one). */
async function loadRenderer(): Promise<typeof InvoicePdfModule.renderInvoicePdf> {
  const built = path.join(root, 'build/server/server/payments/invoice-pdf.js');
  const file = existsSync(built) ? built : path.join(root, 'server/payments/invoice-pdf.ts');
  return ((await import(pathToFileURL(file).href)) as typeof InvoicePdfModule).renderInvoicePdf;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

interface Round {
  /** Health latencies, ms, sorted. */
  health: number[];
  /** From the first PDF asked to the last one done, ms. */
  buildMs: number;
}

/** Runs `burst` while asking /api/health in a loop; the latencies while it ran. */
async function healthDuring(bench: BenchApp, burst: () => Promise<void>): Promise<Round> {
  const latencies: number[] = [];
  let done = false;
  const prober = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${bench.url}/api/health`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/api/health answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  })();
  const started = performance.now();
  try {
    await burst();
  } finally {
    done = true;
  }
  const buildMs = performance.now() - started;
  await prober;
  return { health: latencies.sort((a, b) => a - b), buildMs };
}

async function createInvoice(bench: BenchApp): Promise<{ id: string; invoice_number: number; created_at: string; tokens: number; amount_rub: number }> {
  const response = await fetch(`${bench.url}/api/v1/tokens/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bench.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      package_id: 'team',
      requisites: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', address: '101000, г. Москва, ул. Мясницкая, д. 1' },
      idempotency_key: 'bench-documents',
    }),
  });
  if (!response.ok) throw new Error(`invoice: ${response.status} ${await response.text()}`);
  return (await response.json()) as Awaited<ReturnType<typeof createInvoice>>;
}

function summary(rounds: Round[]) {
  const health = rounds.flatMap((round) => round.health).sort((a, b) => a - b);
  return {
    samples: health.length,
    p50: percentile(health, 50),
    p99: percentile(health, 99),
    max: health.at(-1) ?? Number.NaN,
    buildMs: rounds.map((round) => round.buildMs).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!,
  };
}

export async function run(): Promise<void> {
  const bench = await startBenchApp();
  try {
    const invoice = await createInvoice(bench);
    const renderInvoicePdf = await loadRenderer();
    const document = {
      number: invoice.invoice_number,
      createdAt: new Date(invoice.created_at),
      buyer: { name: 'ООО «Ромашка»', inn: '7707083893', kpp: '773601001', address: '101000, г. Москва, ул. Мясницкая, д. 1' },
      seller: bench.app.config.payments.seller,
      packageName: 'Команда',
      tokens: invoice.tokens,
      amountKopecks: invoice.amount_rub * 100,
    };
    const inLoop = async () => {
      await Promise.all(Array.from({ length: PARALLEL }, () => renderInvoicePdf(document)));
    };
    const throughApi = async () => {
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          const response = await fetch(`${bench.url}/api/v1/tokens/invoices/${invoice.id}/pdf`, { headers: { authorization: `Bearer ${bench.accessToken}` } });
          const bytes = await response.arrayBuffer();
          if (!response.ok || bytes.byteLength < 5_000) throw new Error(`invoice PDF: ${response.status}, ${bytes.byteLength} bytes`);
        }),
      );
    };
    console.log(`server code: ${bench.source}; ${PARALLEL} invoice PDFs at once, ${ROUNDS} rounds each after a warm-up`);
    const scenarios: [string, () => Promise<void>][] = [
      ['in the event loop (before)', inLoop],
      ['document pool (now)', throughApi],
    ];
    const rows: Record<string, ReturnType<typeof summary> & { target: string }>[] = [];
    for (const [name, burst] of scenarios) {
      await healthDuring(bench, burst);
      const rounds: Round[] = [];
      for (let index = 0; index < ROUNDS; index++) rounds.push(await healthDuring(bench, burst));
      const result = summary(rounds);
      rows.push({ [name]: { ...result, target: result.p99 < TARGET_P99_MS ? `p99 < ${TARGET_P99_MS} ms: yes` : `p99 < ${TARGET_P99_MS} ms: NO` } });
    }
    console.table(
      Object.fromEntries(
        rows.flatMap((row) => Object.entries(row)).map(([name, r]) => [
          name,
          { 'health samples': r.samples, 'health p50, ms': r.p50.toFixed(1), 'health p99, ms': r.p99.toFixed(1), 'health max, ms': r.max.toFixed(1), [`${PARALLEL} PDFs, ms (median round)`]: r.buildMs.toFixed(0), target: r.target },
        ]),
      ),
    );
  } finally {
    await bench.close();
  }
}
