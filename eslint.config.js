// Lint runs as part of `pnpm test`. Type-aware rules are left to `tsc` (strict) to keep lint fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importResolution } from './eslint/imports.js';
import webLayers from './eslint/web-layers.js';
import serverLayers from './eslint/server-layers.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'sync-server/.bench-bundle/**', '**/dev-dist/**', '**/coverage/**', 'data/**', '**/test-results/**', '**/playwright-report/**',
    // Planted layer violations, linted only by the self-check (eslint/layers.selfcheck.test.js).
    'eslint/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Layers: who may import whom (eslint/web-layers.js, eslint/server-layers.js).
  importResolution(import.meta.dirname),
  ...webLayers,
  ...serverLayers,
);
