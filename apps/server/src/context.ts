import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Queue } from './lib/queue.ts';
import type { Mailer, SendRecorders, Transport } from './lib/mail-transport.ts';

/** What every module's routes and jobs are given; built once by createAppContext (app-context.ts). */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  queue: Queue;
  /** Where mail goes: SMTP_URL's relay or the built-in catcher. */
  transport: Transport;
  /** How sent messages are recorded, per SEND_GUARANTEE. */
  recorders: SendRecorders;
  /** Single messages (tests, confirmations, notifications) with DKIM, suppression and the Outbox. */
  mailer: Mailer;
};
