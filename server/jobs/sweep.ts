/**
 * Liveness of background jobs: how old a heartbeat may be, and the recovery sweep (the paid runs' and the
 * import jobs') that handles work a dead process left behind even when nobody asks about it.
 */

/** A running job (a paid run, an import) whose worker wrote no heartbeat for this long is treated as dead. */
export const STALE_HEARTBEAT_SECONDS = 60;

/**
 * Runs `task` every `everyMs` (by default every `STALE_HEARTBEAT_SECONDS`) while the process runs. Sweeps
 * never overlap, a failed one is reported and the next one runs anyway, and the timer never keeps the
 * process alive. Returns the function that stops the sweeps.
 */
export function startSweep(task: () => Promise<unknown>, options: { everyMs?: number; onError: (error: unknown) => void }): () => void {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    task()
      .catch(options.onError)
      .finally(() => {
        sweeping = false;
      });
  }, options.everyMs ?? STALE_HEARTBEAT_SECONDS * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
