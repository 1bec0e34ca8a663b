import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import serverBoundaries from './eslint-rules/server-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'Ids and tokens come from node:crypto / crypto.getRandomValues.',
        },
      ],
    },
  },
  // server: routes and services never import tables, plugins never import modules, no module
  // imports another's repo, delivery imports no module, modules import each other one way only.
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { server: serverBoundaries },
    rules: { 'server/boundaries': 'error' },
  },
);
