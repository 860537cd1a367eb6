/**
 * A recovery task repeated every `everyMs` while the process runs (the paid runs' and the import jobs'
 * recoveries), so work a dead process left behind is handled even when nobody asks about it. Sweeps
 * never overlap, a failed one is reported and the next one runs anyway, and the timer never keeps the
 * process alive. Returns the function that stops the sweeps.
 */
export function startSweep(task: () => Promise<unknown>, options: { everyMs: number; onError: (error: unknown) => void }): () => void {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    task()
      .catch(options.onError)
      .finally(() => {
        sweeping = false;
      });
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
