/**
 * Progress of a running job → its row, throttled: at most one write every `intervalMs` unless `due` says a
 * report must go at once (a new stage, a big step). Writes run one after another, the last report always
 * lands (`stop` flushes it), and a write that finds the job no longer owned by this run calls `onLost`.
 * Shared by the analysis run and the Direct API import job.
 */
export interface ProgressWriterOptions<P, W> {
  intervalMs: number;
  /** Write this report now, whatever the interval. */
  due?: (progress: P) => boolean;
  /** Called when a report is about to be written (in report order): what to write. */
  prepare: (progress: P) => W;
  /** Writes it; false = the run does not own the job any more. A failed write counts as owned. */
  write: (value: W) => Promise<boolean>;
  onLost: () => void;
}

export function createProgressWriter<P, W>(options: ProgressWriterOptions<P, W>) {
  let pending: P | null = null;
  let lastWriteAt = 0;
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const progress = pending;
    pending = null;
    if (progress === null || stopped) return chain;
    const value = options.prepare(progress);
    lastWriteAt = Date.now();
    chain = chain.then(async () => {
      const owned = await options.write(value).catch(() => true);
      if (!owned) options.onLost();
    });
    return chain;
  };

  return {
    report(progress: P) {
      if (stopped) return;
      pending = progress;
      const sinceLastWrite = Date.now() - lastWriteAt;
      if (options.due?.(progress) || sinceLastWrite >= options.intervalMs) void flush();
      else timer ??= setTimeout(() => void flush(), options.intervalMs - sinceLastWrite);
    },
    /** Writes what is pending, then takes no more. */
    async stop() {
      await flush();
      stopped = true;
    },
  };
}
