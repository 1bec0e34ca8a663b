import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { registerJobs, startQueue } from './lib/queue.ts';
import type { AppContext } from './context.ts';
import { buildApp } from './app.ts';
import { allJobs } from './jobs.ts';
import { recoverCampaignSends } from './modules/delivery/send.service.ts';
import { catcherTransport, smtpTransport } from './modules/delivery/transport.ts';
import {
  adminChannelRoutes,
  newAdminToken,
  removeRuntimeFile,
  writeRuntimeFile,
} from './modules/admin/admin-channel.ts';

type Role = 'all' | 'api' | 'worker';

function parseRole(argv: string[]): Role {
  const arg = argv.find((a) => a.startsWith('--role='));
  const role = arg ? arg.slice('--role='.length) : 'all';
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new ConfigError(`Unknown --role=${role}; use all, api or worker`);
  }
  return role;
}

/** Starts the API, the workers, or both, and stops them cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  let config: Config;
  let role: Role;
  try {
    role = parseRole(process.argv.slice(2));
    config = loadConfig();
    if (role !== 'all' && !config.databaseUrl) {
      throw new ConfigError(
        '--role=api and --role=worker need DATABASE_URL: the embedded PGlite database is single-process',
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Each SMTP connection briefly holds a database client while it records its message (send.service.ts).
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.smtpMaxConnections + 6,
  });
  await database.migrate();
  const queue = await startQueue(database, { runWorkers: role !== 'api' });
  const transport = config.smtpUrl
    ? smtpTransport(config.smtpUrl, { maxConnections: config.smtpMaxConnections })
    : catcherTransport(database.db);
  const ctx: AppContext = { config, database, db: database.db, queue, transport };
  await registerJobs(queue, allJobs(ctx), { runWorkers: role !== 'api' });
  // A worker that starts picks up sends a dead worker left half done, without waiting for the minute sweep.
  if (role !== 'api') await recoverCampaignSends(ctx);

  const app = role === 'worker' ? undefined : await buildApp(ctx);
  const adminToken = newAdminToken();
  if (app && database.driver === 'pglite') await app.register(adminChannelRoutes(adminToken), ctx);
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    if (database.driver === 'pglite')
      writeRuntimeFile(config.dataDir, { pid: process.pid, port: config.port, token: adminToken });
  }
  const log = app?.log ?? console;
  log.info(
    `Sendwell ${role} ready in ${Math.round(performance.now() - startedAt)} ms on ${database.driver}` +
      (app ? ` at ${config.publicUrl}` : ''),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: finishing in-flight work`);
    const force = setTimeout(() => {
      console.error('Shutdown took over 30 s; exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      // Stop taking requests and let the running ones finish, then let jobs finish, then close the database.
      await app?.close();
      await queue.stop({ graceful: true, wait: true, timeout: 20_000 });
      await transport.close();
      await database.close();
      if (database.driver === 'pglite') removeRuntimeFile(config.dataDir);
      process.exit(0);
    } catch (error) {
      console.error('Shutdown failed', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Sendwell failed to start:', error);
  process.exit(1);
});
