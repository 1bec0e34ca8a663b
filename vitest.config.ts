import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = path.dirname(fileURLToPath(import.meta.url));

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
 * The files that run longest, longest first (by their slower leg): most of their time they wait on
 * processes they start, kill and restart, so they run beside the rest instead of last. vitest's own
 * order (without a record of earlier runs, as in CI's fresh clone) puts the Postgres project after the
 * PGlite one and its largest files first, so the longest Postgres file began 150 s into its leg and
 * ended it 55 s after every other file. Times measured November 2026, each leg run alone.
 */
const LONGEST_FILES = [
  'modules/campaigns/postgres-restart.int.test.ts', // 125 s
  'modules/campaigns/workers.int.test.ts', // 110 s
  'modules/campaigns/connection-loss.int.test.ts', // 65 s
  'main.int.test.ts', // 22 s (33 s on PGlite)
  'modules/sequences/sequence-send-kill.int.test.ts', // 25 s
  'modules/sequences/sequence-workers.int.test.ts', // 21 s
  'modules/inbound/forward-kill.int.test.ts', // 21 s
  'route-fuzz.int.test.ts', // 14 s (20 s on PGlite)
  'modules/delivery/exactly-once-recorder.int.test.ts', // 18 s
].map((file) => path.join(root, 'apps/server/src', file));

/** vitest's order, with LONGEST_FILES moved to the front in their listed order, Postgres before PGlite. */
class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FILES.indexOf(spec.moduleId);
      if (index === -1) return Number.MAX_SAFE_INTEGER;
      return index * 2 + (spec.project.name === 'int-postgres' ? 0 : 1);
    };
    return sorted
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

/**
 * Three projects: unit tests (need nothing), and the integration suite twice, once on embedded
 * PGlite and once on the Postgres server at TEST_DATABASE_URL. scripts/test.mjs picks which run.
 */
export default defineConfig({
  test: {
    // vitest's default is cores − 1, one file at a time on the 2-core CI machine; the integration files
    // mostly wait (on Postgres, SMTP, spawned workers), so more run side by side.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    sequence: { sequencer: LongestFilesFirst },
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
          setupFiles: ['apps/server/test/setup-integration.ts'],
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
          setupFiles: ['apps/server/test/setup-integration.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
