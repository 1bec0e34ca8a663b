import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase } from './client.ts';
import { initialDatabaseFor, initialDatabaseFile, writeInitialDatabase } from './initial-database.ts';

// The embedded database only: a Postgres server is never made from a dump.
describe.runIf(process.env.TEST_DB !== 'postgres')('the initial embedded database a first start loads', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'sendwell-initial-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it(
    'holds every migration, pg-boss and its queues; a start from it has nothing left to migrate',
    { timeout: 120_000 },
    async () => {
      const dump = path.join(folder, 'initial.tar');
      await writeInitialDatabase(dump);
      const dataDir = path.join(folder, 'data');
      const database = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(dump)]) });
      try {
        const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
          entries: unknown[];
        };
        const count = async () =>
          Number(
            (
              (await database.raw.executeSql('SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).rows[0] as {
                n: string;
              }
            ).n,
          );
        expect(await count()).toBe(journal.entries.length);
        await database.migrate();
        expect(await count()).toBe(journal.entries.length);
        const queues = await database.raw.executeSql('SELECT count(*) AS n FROM pgboss.queue');
        expect(Number((queues.rows[0] as { n: string }).n)).toBeGreaterThan(0);
        // The app's tables are there, empty: a new installation's.
        expect((await database.raw.executeSql('SELECT count(*) AS n FROM users')).rows).toEqual([{ n: 0 }]);
      } finally {
        await database.close();
      }
      // A data folder that holds a database is opened as it is, never loaded over.
      expect(initialDatabaseFor(dataDir)).toBeUndefined();
    },
  );

  it('is named by the migrations it holds, in the server build folder', () => {
    expect(initialDatabaseFile()).toMatch(/apps\/server\/dist\/initial-database-[0-9a-f]{16}\.tar$/);
  });
});
