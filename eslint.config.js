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
  // Rules that need the types, on the TypeScript sources (config files are left out: drizzle.config.ts is
  // in no tsconfig, and none of them starts work it could forget to await). Each file gets the program of
  // the tsconfig that includes it, found by TypeScript's project service as an editor finds it (e2e and
  // bench through the root tsconfig.json's reference to tsconfig.tools.json). Only these three rules:
  // the whole typed preset would cost more time in \`npm test\` than it finds here.
  {
    files: [
      'apps/server/{src,test}/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/contract/src/**/*.ts',
      'e2e/**/*.ts',
      'bench/**/*.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A queue-heavy server: a promise nobody awaits loses its rejection and its ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch with a default has named what the other members do (a trial or no status yet, an
      // unknown Stripe state); one without must list every member of the union it switches on.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // React ignores what an event handler returns, and every async handler in the web app catches its own
  // errors and shows them (toastError), as its forms and buttons do: \`onSubmit={form.handleSubmit(async…)}\`
  // and \`onClick={() => onCreate(name)}\` stay as they are. Promises passed anywhere else are still checked.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  // server: only repos and db/ import tables, plugins never import modules, code outside a module
  // imports it only through its face (modules/<name>/index.ts, which hands out no repo), no module
  // imports another's repo, delivery imports no module, modules import each other one way only.
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
