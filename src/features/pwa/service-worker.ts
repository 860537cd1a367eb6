/**
 * Service worker registration through workbox-window. The build emits the worker of `src/sw.ts`
 * as `/sw.js` (vite-plugin-pwa, injectManifest). Keeps the state the update prompt needs.
 */
import type { Workbox } from 'workbox-window';

export interface ServiceWorkerState {
  /** A new version is installed and waits for the user's go-ahead. */
  needRefresh: boolean;
  /** The app shell was cached for the first time: it now opens offline. */
  offlineReady: boolean;
}

type Listener = (state: ServiceWorkerState) => void;

const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

let workbox: Workbox | null = null;
let state: ServiceWorkerState = { needRefresh: false, offlineReady: false };
const listeners = new Set<Listener>();

function setState(patch: Partial<ServiceWorkerState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener(state);
}

export function getServiceWorkerState(): ServiceWorkerState {
  return state;
}

export function subscribeServiceWorker(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let registering = false;

/**
 * Registers `/sw.js` once (production builds only; the dev server has no worker). workbox-window is
 * loaded on demand: the first screen (/auth on a slow phone) does not wait for it.
 */
export async function registerServiceWorker(url = '/sw.js'): Promise<void> {
  if (workbox || registering) return;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registering = true;
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox(url, { scope: '/', type: 'classic' });
  workbox.addEventListener('waiting', () => setState({ needRefresh: true }));
  workbox.addEventListener('installed', (event) => {
    if (!event.isUpdate) setState({ offlineReady: true });
  });
  workbox
    .register()
    .then((registration) => {
      // Installed apps stay open for days: look for a new version every hour.
      if (registration) {
        setInterval(() => {
          if (navigator.onLine) void registration.update();
        }, UPDATE_CHECK_INTERVAL_MS);
      }
    })
    .catch((error: unknown) => console.error('Не удалось зарегистрировать service worker', error));
}

/** Lets the waiting worker take over (it answers SKIP_WAITING), then reloads into the new version. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

export function dismissServiceWorkerPrompt(): void {
  setState({ needRefresh: false, offlineReady: false });
}
