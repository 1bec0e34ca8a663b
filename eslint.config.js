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
  // server: routes and services never import tables, plugins never import modules, code outside a
  // module imports it only through its face (modules/<name>/index.ts, which hands out no repo), no
  // module imports another's repo, delivery imports no module, modules import each other one way only.
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { server: serverBoundaries },
    rules: { 'server/boundaries': 'error' },
  },
  // web: features never import each other
  // One config object per folder in apps/web/src/features (read from disk, so a new feature is
  // covered at once): '@/features/<another>/…' and relative paths into another feature are errors.
  // Shared code lives in apps/web/src/lib or components, or is passed in from pages and app.
  ...(await (async () => {
    const { readdirSync } = await import('node:fs');
    const featuresDir = 'apps/web/src/features';
    const features = readdirSync(new URL(`./${featuresDir}/`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const message = 'Web features never import each other: move shared code to @/lib or @/components, or pass it in.';
    return features.map((feature) => ({
      files: [`${featuresDir}/${feature}/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `^@/features/(?!${feature}(/|$))`, message },
              {
                regex: `^(\\.\\./)+(features/)?(${features.filter((other) => other !== feature).join('|')})(/|$)`,
                message,
              },
            ],
          },
        ],
      },
    }));
  })()),
  // (end of the web block)
);
