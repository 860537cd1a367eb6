import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressDirectory } from './server/web/precompress';

/**
 * Prints the JavaScript a first visit to /auth downloads (entry chunk, the /auth route's split
 * chunks and everything they import statically), gzip-compressed, and fails the build above the
 * 170 KB budget of issue 13 (was 200 KB in issue 3).
 */
function firstLoadReport(route = 'src/routes/auth/index.tsx', budgetKb = 170): Plugin {
  return {
    name: 'first-load-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const wanted = new Set<string>();
      const visit = (fileName: string) => {
        if (wanted.has(fileName)) return;
        wanted.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks) {
        if (chunk.isEntry || chunk.moduleIds.some((id) => id.split('?')[0].endsWith(route))) visit(chunk.fileName);
      }
      const bytes = [...wanted].reduce((sum, fileName) => sum + gzipSync(byName.get(fileName)!.code).length, 0);
      const kb = bytes / 1024;
      console.log(`\nFirst-load JS for /auth: ${kb.toFixed(2)} kB gzip in ${wanted.size} files (budget ${budgetKb} kB)`);
      if (kb > budgetKb) this.error(`First-load JS for /auth is ${kb.toFixed(2)} kB gzip, over the ${budgetKb} kB budget`);
    },
  };
}

/**
 * After everything is written (the service worker included), puts `.br` and `.gz` copies beside each
 * compressible file of the output folder; the server sends them to clients that accept them.
 */
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const report = await precompressDirectory(outDir);
        const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
        console.log(`Precompressed ${report.files} files: ${kb(report.bytes)} → brotli ${kb(report.brotliBytes)}, gzip ${kb(report.gzipBytes)}`);
      },
    },
  };
}

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:8080';

const packageVersion = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;
/**
 * The app version stamped on the persisted query cache: the package version plus the build, so a cache
 * written by another build (whose data shapes may differ) is never restored. `VITE_APP_VERSION` pins it.
 */
const appVersion = process.env.VITE_APP_VERSION ?? `${packageVersion}+${Date.now().toString(36)}`;

export default defineConfig({
  // `@/…` is `src/…` and `@contract/…` is `contract/…` (tsconfig.json `paths` says the same to the type checker).
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src'), '@contract': path.resolve(import.meta.dirname, 'contract') } },
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(appVersion) },
  plugins: [
    // Must come before the React plugin: it generates src/routeTree.gen.ts from src/routes/.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A route's loader goes with its screen (the plugin's default keeps loaders in the route tree, that is
      // in the entry chunk, with every route table and query their loaders name): one chunk per screen,
      // fetched with its first data when a link is hovered.
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    firstLoadReport(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['logo.png', 'favicon.svg', 'agreement.pdf', 'policy.pdf', 'oferta.pdf'],
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,pdf}'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      manifest: {
        name: 'Reklama Lab — аудит рекламных кампаний',
        short_name: 'Reklama Lab',
        description: 'Автоматизация работы с рекламными системами и рост ROI кампаний с помощью ИИ',
        lang: 'ru',
        start_url: '/projects',
        scope: '/',
        display: 'standalone',
        theme_color: '#1d4ed8',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false, type: 'module' },
    }),
    precompressAssets(),
  ],
  build: { outDir: 'build/web', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
});
