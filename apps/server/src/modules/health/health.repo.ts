import type { Database } from '../../db/client.ts';

/** One round trip to the database (through the raw port, as pg-boss uses it). */
export async function pingDatabase(database: Database): Promise<void> {
  await database.raw.executeSql('SELECT 1', []);
}
