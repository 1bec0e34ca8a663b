import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The web app's own import alias, so its unit tests resolve '@/…' as Vite does.
const webAlias = { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) };

const intInclude = ['apps/server/src/**/*.int.test.ts'];

// Integration files load the app's modules once per worker too (importing the app cost ~4 s a file,
// a third of a file's time; both legs went from 866 s to 647 s here). Each file still builds its own
// app, database, servers and config. Audit of module state that outlives a file (November 2026): the
// one vi.mock (sign-in throttling) became a diagnostics channel; the DMARC policy and MX caches are
// keyed by the config's own DNS_SERVERS array, other caches by a secret, content or a Db object; the
// SNS certificate cache is used by one file; process listeners are removed in `finally`.
const intIsolate = false;

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
          isolate: intIsolate,
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
          isolate: intIsolate,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/global-setup-postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
