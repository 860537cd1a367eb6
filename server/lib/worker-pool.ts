/**
 * Worker-thread pools (piscina) for the CPU-heavy work of the server, so it never blocks the event loop
 * that serves the other requests, and so no upload or analysis can take more of the machine than its
 * pool allows:
 *
 *   const parsed = await importPool().run<ParsedImport>(new URL('./import-worker.js', import.meta.url), 'parseUploadedFiles', [input]);
 *
 * - Each pool has at most `WORKER_THREADS` threads (default: the machine's cores); tasks beyond that
 *   wait in the pool's queue, and a full queue refuses at once (`PoolBusyError`).
 * - Each thread runs with a V8 heap limit (`resourceLimits`): a task that needs more dies alone with
 *   `WorkerLimitError('memory')`, and piscina starts a fresh thread for the next task.
 * - Each task has a time limit, counted from the moment a thread takes it (not while it waits in the
 *   queue): past it the thread is terminated (an AbortSignal to piscina) and the task fails with
 *   `WorkerLimitError('timeout')`. A caller's own AbortSignal (a cancelled analysis) stops it the same way.
 *
 * Separate pools, not one: a long analysis (minutes, up to its 14-minute limit) in a shared pool would hold
 * every thread and queue each user's import and export behind it, and a page check's engine behind
 * two analyses could outlive its job's 15-minute expiry while waiting. So imports, exports, analysis runs
 * and page checks each get their own threads and heap limit; the threads of all of them can run at once
 * (the OS shares the cores; the jobs' own concurrency, 2 per process, bounds the job pools anyway), and
 * an idle thread exits after `IDLE_TIMEOUT_MS`, giving its memory back. A task that grew its thread's
 * heap past 256 MB has it collected before its answer (pool-worker.ts): the thread then keeps little while idle.
 *
 * The same call works from the compiled build (`build/server/…/*.js`) and from the TypeScript sources
 * under vitest or tsx: a `.js` module that only exists as `.ts` is found by its source, and the threads
 * then start from `pool-worker-tsx.mjs`, which registers tsx before loading `pool-worker.ts` (Node 20
 * ignores `--import tsx` in a Worker's `execArgv`).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TransferListItem } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PoolTask, PoolTaskReply } from './pool-worker.js';

/** An error thrown inside the worker, re-created on this side with its name, message and code. */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly originalName: string,
    readonly code?: string,
    readonly workerStack?: string,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
    // The stack that matters is where it was thrown, inside the thread: logs show that one.
    if (workerStack) this.stack = workerStack;
  }
}

/** The task went past its pool's heap limit or its time limit; its thread was stopped and replaced. */
export class WorkerLimitError extends Error {
  constructor(
    readonly limit: 'memory' | 'timeout',
    detail: string,
  ) {
    super(limit === 'timeout' ? `Worker task timed out: ${detail}` : `Worker task ran out of memory: ${detail}`);
    this.name = 'WorkerLimitError';
  }
}

/** Every thread is busy and the queue is full: the caller should answer "try again later". */
export class PoolBusyError extends Error {
  constructor(pool: string) {
    super(`The ${pool} worker pool is busy`);
    this.name = 'PoolBusyError';
  }
}

export interface TaskPoolOptions {
  /** Shown in errors and logs. */
  name: string;
  maxThreads: number;
  /** V8 old-generation heap limit of each thread, MB. */
  heapMb: number;
  /** V8 young-generation size of each thread, MB (V8's default when missing). */
  youngMb?: number;
  /** Time limit of a task that names none. */
  timeoutMs: number;
  /** Tasks allowed to wait for a thread; more are refused with PoolBusyError. Default: unlimited. */
  maxQueue?: number;
  /** An idle thread exits after this long. */
  idleTimeoutMs?: number;
}

export interface RunOptions {
  /** Objects moved (not copied) into the worker, e.g. a MessagePort for progress. */
  transferList?: readonly TransferListItem[];
  /** Overrides the pool's time limit for this task. */
  timeoutMs?: number;
  /** Stops the task (terminating its thread) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

const IDLE_TIMEOUT_MS = 30_000;

/** A `.js` URL whose file is missing but whose `.ts` source exists (running from sources). */
function resolveSourceUrl(url: URL): URL {
  if (url.protocol !== 'file:') return url;
  const file = fileURLToPath(url);
  if (existsSync(file)) return url;
  const tsFile = file.replace(/\.(m?)js$/, '.$1ts');
  return tsFile !== file && existsSync(tsFile) ? pathToFileURL(tsFile) : url;
}

/** The file piscina's threads load: the compiled entry, or the tsx bootstrap when running from sources. */
function workerEntry(): string {
  const here = new URL(import.meta.url);
  const fromSources = /\.ts$/.test(here.pathname);
  return fileURLToPath(new URL(fromSources ? './pool-worker-tsx.mjs' : './pool-worker.js', here));
}

const isOutOfMemory = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

export class TaskPool {
  readonly options: Required<TaskPoolOptions>;
  #piscina: Piscina;
  #running = 0;
  #waiting: (() => void)[] = [];

  constructor(options: TaskPoolOptions) {
    this.options = { maxQueue: Number.POSITIVE_INFINITY, idleTimeoutMs: IDLE_TIMEOUT_MS, youngMb: 0, ...options };
    this.#piscina = new Piscina({
      filename: workerEntry(),
      minThreads: 0,
      maxThreads: this.options.maxThreads,
      idleTimeout: this.options.idleTimeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, ...(this.options.youngMb > 0 ? { maxYoungGenerationSizeMb: this.options.youngMb } : {}) },
      // The parent's execArgv may belong to a test runner; the threads need none of it.
      execArgv: [],
    });
    // A thread that dies between tasks (nothing to reject) must not become an unhandled 'error'.
    this.#piscina.on('error', () => undefined);
  }

  /** Tasks running now and waiting for a thread. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /**
   * Runs `exportName(...args)` of the module in a thread of this pool and resolves with its value
   * (structured clone). Rejects with WorkerTaskError (thrown by the function), WorkerLimitError (heap or
   * time limit), PoolBusyError (queue full) or the caller's abort reason.
   */
  async run<T>(moduleUrl: URL | string, exportName: string, args: unknown[] = [], options: RunOptions = {}): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const task: PoolTask = { moduleUrl: resolveSourceUrl(new URL(moduleUrl)).href, exportName, args };
    await this.#takeSlot(signal);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    // A plain timer rather than AbortSignal.timeout(): tests can drive it with fake timers.
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, timeoutMs);
    const forward = () => stop.abort();
    signal?.addEventListener('abort', forward, { once: true });
    // Aborted while waiting for the slot's promise to settle: piscina gets an already-aborted signal.
    if (signal?.aborted) stop.abort();
    try {
      const reply = (await this.#piscina.run(task, { signal: stop.signal, transferList: options.transferList as TransferListItem[] | undefined })) as PoolTaskReply;
      if (reply.ok) return reply.value as T;
      throw new WorkerTaskError(reply.error.message, reply.error.name, reply.error.code, reply.error.stack);
    } catch (error) {
      if (error instanceof WorkerTaskError) throw error;
      if (timedOut) throw new WorkerLimitError('timeout', `${this.options.name} ${exportName} after ${timeoutMs} ms`);
      if (signal?.aborted) throw signal.reason ?? error;
      if (isOutOfMemory(error)) throw new WorkerLimitError('memory', `${this.options.name} ${exportName} over ${this.options.heapMb} MB`);
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
      this.#releaseSlot();
    }
  }

  /** Stops every thread (running tasks fail); the pool cannot be used afterwards. */
  async close(): Promise<void> {
    await this.#piscina.destroy();
  }

  /** Waits for a free thread, so the time limit starts only when the task can run. */
  #takeSlot(signal?: AbortSignal): Promise<void> {
    if (this.#running < this.options.maxThreads) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.options.maxQueue) return Promise.reject(new PoolBusyError(this.options.name));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(wake), 1);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#running++;
        resolve();
      };
      this.#waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaseSlot(): void {
    this.#running--;
    this.#waiting.shift()?.();
  }
}

/** Pool sizes and limits, from the environment (README «Безопасность и эксплуатация»). */
export interface WorkerPoolSettings {
  /** Threads of each pool (import, export, analysis, page check). */
  threads: number;
  importHeapMb: number;
  /** The time limit of a parse of an empty upload; each megabyte the upload expands to adds `importTimeoutMsPerMb` (see `importTimeLimitMs`). */
  importTimeoutMs: number;
  importTimeoutMsPerMb: number;
  /** Import tasks waiting for a thread before new uploads are refused with 503. */
  importQueue: number;
  analysisHeapMb: number;
  /** Young generation of an analysis thread (see `analysisPool`). */
  analysisYoungMb: number;
  /** Documents (PDFs) built at once by this process (`DOCUMENT_THREADS`, default 2). */
  documentThreads: number;
  /** Documents waiting for a thread before new ones are refused with 503 (`DOCUMENT_QUEUE`). */
  documentQueue: number;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

export function workerPoolSettingsFromEnv(env: NodeJS.ProcessEnv): WorkerPoolSettings {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const threads = positiveInt(env.WORKER_THREADS, Math.max(1, cores), 'WORKER_THREADS');
  return {
    threads,
    importHeapMb: positiveInt(env.IMPORT_WORKER_HEAP_MB, 2048, 'IMPORT_WORKER_HEAP_MB'),
    importTimeoutMs: positiveInt(env.IMPORT_TIMEOUT_SECONDS, 120, 'IMPORT_TIMEOUT_SECONDS') * 1000,
    importTimeoutMsPerMb: positiveInt(env.IMPORT_TIMEOUT_SECONDS_PER_MB, 1, 'IMPORT_TIMEOUT_SECONDS_PER_MB') * 1000,
    importQueue: positiveInt(env.IMPORT_QUEUE, threads * 4, 'IMPORT_QUEUE'),
    analysisHeapMb: positiveInt(env.ANALYSIS_WORKER_HEAP_MB, 3072, 'ANALYSIS_WORKER_HEAP_MB'),
    analysisYoungMb: positiveInt(env.ANALYSIS_WORKER_YOUNG_MB, 192, 'ANALYSIS_WORKER_YOUNG_MB'),
    documentThreads: positiveInt(env.DOCUMENT_THREADS, Math.min(2, threads), 'DOCUMENT_THREADS'),
    documentQueue: positiveInt(env.DOCUMENT_QUEUE, 100, 'DOCUMENT_QUEUE'),
  };
}

/** The settings the pools are created with; read once from the environment (tests may change them before first use). */
export const workerPoolSettings: WorkerPoolSettings = workerPoolSettingsFromEnv(process.env);

let pools: { import?: TaskPool; export?: TaskPool; analysis?: TaskPool; pageCheck?: TaskPool; document?: TaskPool } = {};

/**
 * The time limit of one parse of an upload that expands to `expandedBytes`: `IMPORT_TIMEOUT_SECONDS` plus
 * `IMPORT_TIMEOUT_SECONDS_PER_MB` for each megabyte (120 s + 1 s/MB: 520 s at the 400 MB budget). The
 * upload's own limits (bytes, rows, cell length) already bound a parse's work, so the time limit is the net
 * for a file that makes a parser slow beyond its size, not for a big file on a busy machine: one flat 120 s
 * failed Commander uploads of 300 MB, which parse in well under a minute on a quiet machine, while a browser
 * test ran beside them (issue 26: a parse never fails for time on a file the limits accept).
 */
export function importTimeLimitMs(expandedBytes: number, settings: WorkerPoolSettings = workerPoolSettings): number {
  return settings.importTimeoutMs + Math.ceil(expandedBytes / (1024 * 1024)) * settings.importTimeoutMsPerMb;
}

/** Parsing uploaded campaign files (a request waits for it). */
export function importPool(): TaskPool {
  const s = workerPoolSettings;
  return (pools.import ??= new TaskPool({ name: 'import', maxThreads: s.threads, heapMb: s.importHeapMb, timeoutMs: s.importTimeoutMs, maxQueue: s.importQueue }));
}

/** Building the export file of an analysis (a request waits for it; it reads the accepted changes and the campaigns one at a time). */
export function exportPool(): TaskPool {
  const s = workerPoolSettings;
  return (pools.export ??= new TaskPool({ name: 'export', maxThreads: s.threads, heapMb: s.analysisHeapMb, timeoutMs: 5 * 60_000 }));
}

/**
 * The engines of the analysis job (the job names its own time limit). The heap limit (3 GB by default)
 * fits a 1 000 000-keyword account, whose run uses up to 2.5 GB of heap, and keeps the server within
 * 4 GB with it (README «Benchmarks»). The young generation is larger than V8's default (16 MB
 * semi-spaces): the engines make millions of short-lived strings and arrays per stage, which a small
 * nursery promotes into the old generation, where each one costs a full collection to free.
 */
export function analysisPool(): TaskPool {
  const s = workerPoolSettings;
  // Never more than a sixteenth of the heap limit (a deliberately tiny heap stays tiny).
  const youngMb = Math.max(1, Math.min(s.analysisYoungMb, Math.floor(s.analysisHeapMb / 16)));
  return (pools.analysis ??= new TaskPool({ name: 'analysis', maxThreads: s.threads, heapMb: s.analysisHeapMb, youngMb, timeoutMs: 14 * 60_000 }));
}

/** The engine of the page check job (the job names its own time limit). */
export function pageCheckPool(): TaskPool {
  const s = workerPoolSettings;
  return (pools.pageCheck ??= new TaskPool({ name: 'page-check', maxThreads: s.threads, heapMb: s.analysisHeapMb, timeoutMs: 5 * 60_000 }));
}

/**
 * Documents a request waits for (invoice PDFs; reports next): a PDF takes tens of milliseconds of CPU, so
 * twenty at once in the event loop held every other request for a second. Few threads (two by default):
 * a document is small and quick, and the threads must leave the cores to the API and the other pools.
 */
export function documentPool(): TaskPool {
  const s = workerPoolSettings;
  return (pools.document ??= new TaskPool({ name: 'document', maxThreads: s.documentThreads, heapMb: 256, timeoutMs: 30_000, maxQueue: s.documentQueue }));
}

/** Stops the threads of every pool (server shutdown, tests); the next use creates fresh pools. */
export async function closeWorkerPools(): Promise<void> {
  const open = Object.values(pools);
  pools = {};
  await Promise.all(open.map((pool) => pool.close()));
}
