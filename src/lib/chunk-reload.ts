/**
 * Recovery from a deploy while the app is open: the page still runs the old build, and a part of it it
 * has not loaded yet (a lazy route's chunk, a style) is gone from the server. The fix is to reload once
 * into the new version. A reload is tried at most once per `RELOAD_GUARD_MS` (the time is kept in
 * sessionStorage, which survives the reload), so a server that keeps failing shows the Russian message
 * with «Обновить» instead of reloading in a loop.
 */

export const CHUNK_RELOAD_STORAGE_KEY = 'reklama-lab:chunk-reload-at';
/** A second failure within this time after the automatic reload is not retried automatically. */
export const RELOAD_GUARD_MS = 60_000;

// Chromium, Firefox, Safari and Vite's own preload helper word it differently.
const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk .* failed/i,
  /'text\/html' is not a valid JavaScript MIME type/i,
];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}

export interface ReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  reload: () => void;
  now: () => number;
}

function browserEnvironment(): ReloadEnvironment {
  let storage: ReloadEnvironment['storage'] = null;
  try {
    storage = window.sessionStorage;
  } catch {
    // Storage blocked: without a guard we must not reload automatically at all.
  }
  return { storage, reload: () => window.location.reload(), now: () => Date.now() };
}

let reloadStarted = false;

/**
 * Reloads the page into the new version unless that was already tried a moment ago. Returns true when a
 * reload is under way (show «loading the new version»), false when the caller must show the message.
 */
export function reloadOnceForNewVersion(env: ReloadEnvironment = browserEnvironment()): boolean {
  if (reloadStarted) return true;
  if (!env.storage) return false;
  let last = Number.NaN;
  try {
    last = Number(env.storage.getItem(CHUNK_RELOAD_STORAGE_KEY));
  } catch {
    return false;
  }
  if (Number.isFinite(last) && last > 0 && env.now() - last < RELOAD_GUARD_MS) return false;
  try {
    env.storage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(env.now()));
  } catch {
    return false;
  }
  reloadStarted = true;
  env.reload();
  return true;
}

/** For tests: forget that this page already started a reload. */
export function resetChunkReloadState(): void {
  reloadStarted = false;
}

/**
 * TanStack Router's lazy route components reload the page on their own once per failing chunk address
 * (a sessionStorage key per error message). With ours that would make two reloads, and a broken new
 * version would reload again for its own chunk; marking the message as handled leaves the decision to
 * `reloadOnceForNewVersion` alone.
 */
const ROUTER_RELOAD_KEY_PREFIX = 'tanstack_router_reload:';

/**
 * Vite dispatches `vite:preloadError` when a dynamic import or its preloaded CSS fails, before the
 * error reaches the router. We reload here (once, guarded); the error still reaches the route's error
 * screen, which shows «loading the new version» or, when the reload was already tried, the message.
 */
export function installChunkErrorRecovery(target: Pick<Window, 'addEventListener'> = window, env: ReloadEnvironment = browserEnvironment()): void {
  target.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (!(payload instanceof Error)) return;
    try {
      env.storage?.setItem(`${ROUTER_RELOAD_KEY_PREFIX}${payload.message}`, '1');
    } catch {
      // Without storage the router cannot reload either.
    }
    reloadOnceForNewVersion(env);
  });
}
