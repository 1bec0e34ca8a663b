import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The web app's own import alias, so its unit tests resolve '@/…' as Vite does.
const webAlias = { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) };

const intInclude = ['apps/server/src/**/*.int.test.ts'];

/**
 * Three projects: unit tests (need nothing), and the integration suite twice, once on embedded
 * PGlite and once on the Postgres server at TEST_DATABASE_URL. scripts/test.mjs picks which run.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: webAlias },
        test: {
          name: 'unit',
          include: ['apps/**/src/**/*.test.ts', 'packages/**/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'int-pglite',
          include: intInclude,
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'int-postgres',
          include: intInclude,
          env: { TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
