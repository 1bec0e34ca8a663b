import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Queue } from './lib/queue.ts';
import type { Transport } from './modules/delivery/transport.ts';

/** What every module's routes and jobs are given: configuration, database and queue. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  queue: Queue;
  /** Where mail goes: SMTP_URL's relay or the built-in catcher. */
  transport: Transport;
};
