import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { registerJobs, startQueue } from './lib/queue.ts';
import { allJobs } from './jobs.ts';
import {
  catcherTransport,
  smtpTransport,
  createSendRecorders,
  mailer,
  isSuppressed,
} from './modules/delivery/index.ts';
import { signingKeyForMail } from './modules/domains/index.ts';
import { storeCaughtMessage } from './modules/outbox/index.ts';
import { recoverCampaignSends } from './modules/campaigns/index.ts';
import { FORWARD_SWEEP_MS, recoverForwards } from './modules/inbound/index.ts';
import { recoverSequenceSends } from './modules/sequences/index.ts';

export type RunningContext = AppContext & {
  /** Stops the queue (letting running jobs finish when graceful), the recorders and the transport; not the database. */
  close(options?: { graceful?: boolean }): Promise<void>;
};

/**
 * The one composition root: the queue, the transport, the send recorders and the mailer over an
 * opened database, with every job registered (and worked, where `runWorkers`). main.ts, the tests
 * and the benchmarks all build the app through here.
 */
export async function createAppContext(options: {
  config: Config;
  database: Database;
  runWorkers: boolean;
  /** SMTP connections of this process (default SMTP_MAX_CONNECTIONS). */
  smtpConnections?: number;
  log?: (message: string) => void;
}): Promise<RunningContext> {
  const { config, database, runWorkers } = options;
  const log = options.log ?? ((message: string) => console.warn(message));
  const queue = await startQueue(database, { runWorkers });
  const recorders = await createSendRecorders({
    wanted: config.sendGuarantee,
    connectionString: database.connectionString,
    smtp: Boolean(config.smtpUrl),
    // Groups of records at once per process: one per SMTP connection is ample.
    poolSize: 2 * config.smtpMaxConnections,
    log,
  });
  const transport = config.smtpUrl
    ? smtpTransport(config.smtpUrl, {
        maxConnections: options.smtpConnections ?? config.smtpMaxConnections,
        holdDots: recorders.guarantee === 'exactly-once',
      })
    : catcherTransport((message) => storeCaughtMessage(database.db, message));
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    queue,
    transport,
    recorders,
    mailer: mailer({
      transport,
      installationDomain: config.mailFromDomain,
      signingKeyFor: (userId, fromDomain) => signingKeyForMail(database.db, config, userId, fromDomain),
      isSuppressed: (userId, email) => isSuppressed(database.db, userId, email),
    }),
  };
  await registerJobs(queue, ctx, allJobs, { runWorkers, log });
  // A worker that starts picks up sends a dead worker left half done, without waiting for the minute sweep.
  let forwardSweep: NodeJS.Timeout | undefined;
  if (runWorkers) {
    await recoverCampaignSends(ctx);
    await recoverSequenceSends(ctx);
    // Forwards a dead process left (stored but not queued, or claimed and never renewed) go now,
    // and the sweep runs every FORWARD_SWEEP_MS besides the minute cron.
    await recoverForwards(ctx);
    forwardSweep = setInterval(() => {
      recoverForwards(ctx).catch((error: Error) => log(`forward sweep failed: ${error.message}`));
    }, FORWARD_SWEEP_MS);
    forwardSweep.unref();
  }
  return {
    ...ctx,
    async close({ graceful = true } = {}) {
      clearInterval(forwardSweep);
      const stopped = new Promise<void>((resolve) => {
        queue.once('stopped', () => resolve());
        setTimeout(resolve, 25_000).unref();
      });
      await queue.stop({ graceful, wait: true, timeout: 20_000 });
      await stopped;
      await recorders.close();
      await transport.close();
    },
  };
}
