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
 * a feature (src/features/<name>) imports only shared modules (src/lib, src/components, src/contract,
 * src/app), never another feature; shared components never import features; no import cycles.
 * The server is checked by its own type checks and tests.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'server/**', 'bench/**', 'tests/**', '*.config.ts', '*.config.js', 'public/**'] },
  {
    files: ['src/**/*.{ts,tsx}'],
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
              message: 'A feature imports only shared modules (src/lib, src/components, src/contract, src/app), never another feature.',
            })),
            { target: './src/components', from: './src/features', message: 'Shared components never import features.' },
            { target: ['./src/lib', './src/contract'], from: ['./src/features', './src/components', './src/routes', './src/app'], message: 'src/lib and src/contract are the bottom layer.' },
          ],
        },
      ],
    },
  },
);
