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
    // vitest's default is cores − 1, one file at a time on the 2-core CI machine; the integration files
    // mostly wait (on Postgres, SMTP, spawned workers), so more run side by side.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    projects: [
      {
        resolve: { alias: webAlias },
        test: {
          name: 'unit',
          // Pure functions and in-memory fakes: no file leans on a fresh module graph (the two that fake
          // timers or Date.now restore them in finally), so the modules load once per worker.
          isolate: false,
          include: ['apps/**/src/**/*.test.ts', 'packages/**/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'int-pglite',
          include: intInclude,
          env: { TEST_DB: 'pglite' },
          globalSetup: ['apps/server/test/global-setup-pglite.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'int-postgres',
          include: intInclude,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/global-setup-postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
