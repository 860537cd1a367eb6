/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa, injectManifest). It precaches the app shell and the static
 * documents (the build injects the list), serves every navigation from index.html so the installed
 * app opens offline, and takes over only when the user accepts the update prompt. It caches only 2xx
 * answers and never an HTML answer for an asset address (src/features/pwa/asset-cache-policy.ts). API data is not
 * cached here: the React Query cache persisted in local storage covers it.
 */
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { cacheOnlyGoodAssets } from './features/pwa/asset-cache-policy';

declare let self: ServiceWorkerGlobalScope;

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The PDFs are listed twice (includeAssets and the glob); precache each URL once.
const seen = new Set<string>();
const manifest = self.__WB_MANIFEST.filter((entry) => {
  const url = typeof entry === 'string' ? entry : entry.url;
  if (seen.has(url)) return false;
  seen.add(url);
  return true;
});

// Only 2xx answers, and never HTML under a script's or a style's address (a server that answers a chunk a
// deploy removed with its HTML shell): such an install fails and is tried again, instead of caching a
// blank app. Replaces workbox's default check (status < 400), which would let that HTML in.
addPlugins([cacheOnlyGoodAssets]);
precacheAndRoute(manifest);
cleanupOutdatedCaches();

// Client-side routes load the shell; the API and the static documents are never routed to it.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /\.pdf$/i],
  }),
);

clientsClaim();
