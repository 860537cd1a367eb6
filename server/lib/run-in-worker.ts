/**
 * Runs one exported function of a module in a `worker_threads` Worker and resolves with its result,
 * so CPU-heavy work (parsing a 50 MB export, scoring 100 000 keywords) never blocks the event loop
 * that serves the other requests.
 *
 *   const result = await runInWorker<Summary>(new URL('./import-worker.js', import.meta.url), 'parseFiles', [input]);
 *
 * The same call works from the compiled build (`build/server/…/*.js`) and from the TypeScript sources
 * under vitest or tsx: a `.js` module that only exists as `.ts` is found by its source, and a worker
 * that must load TypeScript registers tsx first. (Node 20 ignores `--import tsx` in a Worker's
 * `execArgv`, so the worker starts from a two-line bootstrap that calls tsx's `register()` and then
 * imports this file.)
 *
 * This file is also the worker's entry: started with the marker in `workerData`, it imports the target
 * module, calls the function and posts back the value (structured clone) or a plain error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

const WORKER_MARKER = '__reklamaRunInWorker';

interface WorkerTask {
  [WORKER_MARKER]: true;
  moduleUrl: string;
  exportName: string;
  args: unknown[];
}

type WorkerReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; code?: string; stack?: string } };

export interface RunInWorkerOptions {
  /** Objects moved (not copied) into the worker, e.g. the ArrayBuffers of large uploads. */
  transferList?: readonly TransferListItem[];
  /** Stops the worker and rejects when it runs longer than this. */
  timeoutMs?: number;
  signal?: AbortSignal;
  resourceLimits?: ResourceLimits;
}

/** An error thrown inside the worker, re-created on this side with its name, message and code. */
export class WorkerTaskError extends Error {
  constructor(message: string, readonly originalName: string, readonly code?: string, readonly workerStack?: string) {
    super(message);
    this.name = 'WorkerTaskError';
    // The thread's stack says where it failed; this side's would only show the message plumbing.
    if (workerStack) this.stack = workerStack;
  }
}

/** A `.js` URL whose file is missing but whose `.ts` source exists (running from sources). */
function resolveSourceUrl(url: URL): URL {
  if (url.protocol !== 'file:') return url;
  const file = fileURLToPath(url);
  if (existsSync(file)) return url;
  const tsFile = file.replace(/\.(m?)js$/, '.$1ts');
  return tsFile !== file && existsSync(tsFile) ? pathToFileURL(tsFile) : url;
}

const isTypeScript = (url: URL) => /\.(m|c)?ts$/.test(url.pathname);

/** Worker source that teaches the worker TypeScript, then loads this file as the worker's entry. */
function typeScriptBootstrap(entry: URL): string {
  // The ESM build of tsx's API, read from its package exports (`require.resolve` would give the CJS one).
  const manifestFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsxApi = pathToFileURL(path.join(path.dirname(manifestFile), manifest.exports['./esm/api'].import.default)).href;
  return `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
}

export function runInWorker<T>(moduleUrl: URL | string, exportName: string, args: unknown[] = [], options: RunInWorkerOptions = {}): Promise<T> {
  const target = resolveSourceUrl(new URL(moduleUrl));
  const entry = new URL(import.meta.url);
  const needsTsx = isTypeScript(entry) || isTypeScript(target);
  const task: WorkerTask = { [WORKER_MARKER]: true, moduleUrl: target.href, exportName, args };

  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason ?? new Error('Aborted'));
      return;
    }
    const worker = new Worker(needsTsx ? typeScriptBootstrap(entry) : entry, {
      eval: needsTsx,
      workerData: task,
      transferList: options.transferList as TransferListItem[] | undefined,
      // The parent's execArgv may belong to a test runner; the worker needs none of it.
      execArgv: [],
      resourceLimits: options.resourceLimits,
    });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      action();
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(options.signal?.reason ?? new Error('Aborted')));
    const timer = options.timeoutMs ? setTimeout(() => finish(() => reject(new Error(`Worker task ${exportName} timed out after ${options.timeoutMs} ms`))), options.timeoutMs) : null;
    options.signal?.addEventListener('abort', onAbort, { once: true });

    worker.once('message', (reply: WorkerReply) => {
      finish(() => {
        if (reply.ok) resolve(reply.value as T);
        else reject(new WorkerTaskError(reply.error.message, reply.error.name, reply.error.code, reply.error.stack));
      });
    });
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`Worker task ${exportName} exited with code ${code} before answering`))));
  });
}

async function runTask(task: WorkerTask): Promise<void> {
  let reply: WorkerReply;
  try {
    const module = (await import(task.moduleUrl)) as Record<string, unknown>;
    const fn = module[task.exportName];
    if (typeof fn !== 'function') throw new Error(`${task.moduleUrl} has no exported function ${task.exportName}`);
    reply = { ok: true, value: await fn(...task.args) };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    reply = { ok: false, error: { name: err.name, message: err.message, code: (err as { code?: string }).code, stack: err.stack } };
  }
  try {
    parentPort!.postMessage(reply);
  } catch (error) {
    // The value could not be cloned (a function, a class instance with handles…): say so instead of hanging.
    parentPort!.postMessage({ ok: false, error: { name: 'DataCloneError', message: (error as Error).message } } satisfies WorkerReply);
  }
}

if (!isMainThread && parentPort && (workerData as Partial<WorkerTask> | null)?.[WORKER_MARKER]) {
  void runTask(workerData as WorkerTask);
}
