// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginRouter from '@tanstack/eslint-plugin-router';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The PWA's rules (src/): TypeScript, React hooks, TanStack Router and Query, and the module boundaries:
 * a feature (src/features/<name>) imports only shared modules (src/lib, src/components, src/app) and the
 * contract (contract/), never another feature; shared components never import features; no import cycles.
 * The server's and the contract's boundaries are the second block below.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The server's domains (server/<name>): every folder but the shared layers. */
const domains = readdirSync(new URL('./server', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['db', 'lib', 'jobs', 'engines', 'config'].includes(entry.name))
  .map((entry) => entry.name);

/** server/db, its migrations included: a migration runs no live code of a domain. */
const databaseLayer = readdirSync(new URL('./server/db', import.meta.url)).map((name) => `./server/db/${name}`);

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'bench/**', 'tests/**', '*.config.ts', '*.config.js', 'public/**'] },
  {
    files: ['src/**/*.{ts,tsx}', 'contract/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, ...pluginRouter.configs['flat/recommended'], ...pluginQuery.configs['flat/recommended']],
    // The two classic hooks rules; the React Compiler's rules of the plugin's newer presets judge code for a compiler this app does not use.
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      // How import-x reads the modules an import leads to (no-cycle follows them): TypeScript files, with the tsconfig's paths.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature imports only shared modules (src/lib, src/components, src/app) and contract/, never another feature.',
            })),
            { target: './src/components', from: './src/features', message: 'Shared components never import features.' },
            { target: './src/lib', from: ['./src/features', './src/components', './src/routes', './src/app'], message: 'src/lib is the bottom layer of the PWA.' },
            { target: './src', from: './server', message: 'The PWA never imports the server.' },
          ],
        },
      ],
    },
  },
  {
    // The server's and the contract's layering: the contract (contract/) imports neither side; engines
    // (server/engines) are pure and import only the contract, other engines and server/lib; the queue, the
    // database layer and server/lib never import a domain (they are handed what they run); a domain never
    // reaches into another's routes or job worker; no import cycles.
    files: ['server/**/*.ts', 'contract/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './server/tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './contract', from: ['./src', './server'], message: 'The contract is imported by both sides and imports neither.' },
            { target: './server', from: './src', message: 'The server imports the contract (contract/), never the PWA (src/).' },
            {
              target: './server/engines',
              from: './server',
              except: ['./engines', './lib/csv.ts'],
              message: 'Engines are pure: data in, data out; they import only the contract, other engines and pure helpers.',
            },
            // A domain's HTTP layer and job worker are its internals: app.ts mounts the routes and
            // job-workers.ts hands the workers to the queue; another domain uses the domain's services.
            ...domains.map((domain) => ({
              target: `./server/${domain}`,
              from: domains.filter((other) => other !== domain).flatMap((other) => [`./server/${other}/routes.ts`, `./server/${other}/worker.ts`]),
              message: "A domain never imports another domain's routes or job worker: it uses that domain's services.",
            })),
            ...['./server/jobs', './server/lib', './server/config', './server/config.ts', ...databaseLayer].map((target) => ({
              target,
              from: domains.map((domain) => `./server/${domain}`),
              message: 'The queue, the database layer, the configuration and server/lib import no domain: main.ts and worker.ts hand them what they run.',
            })),
          ],
        },
      ],
    },
  },
);
