import { ConfigError, loadConfig, type Config } from './config.ts';
import { mkdirSync } from 'node:fs';
import { openDatabase } from './db/client.ts';
import { initialDatabaseFor } from './db/initial-database.ts';
import { keepPrivate } from './lib/private-files.ts';
import { createAppContext } from './app-context.ts';
import { isConnectionError, rootMessage } from './lib/db-errors.ts';
import { buildApp } from './app.ts';
import { publicUrlStartupLine } from './lib/public-url-check.ts';
import { startInboundSmtpServer } from './modules/inbound/index.ts';
import { adminChannelRoutes, newAdminToken, removeRuntimeFile, writeRuntimeFile } from './modules/admin/index.ts';

type Role = 'all' | 'api' | 'worker';

function parseRole(argv: string[]): Role {
  const arg = argv.find((a) => a.startsWith('--role='));
  const role = arg ? arg.slice('--role='.length) : 'all';
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new ConfigError(`Unknown --role=${role}; use all, api or worker`);
  }
  return role;
}

/**
 * A lost database connection never ends the process: every pool and client has an error listener,
 * and each caller handles its failed statement (a request answers 503, a job is retried; the job
 * runner awaits each job's completion itself). A connection error that still reaches here is logged
 * (a caller that forgot to await); any other unhandled rejection is a bug and ends the process as
 * Node does by default.
 */
function survivingConnectionLoss(reason: unknown): void {
  if (!isConnectionError(reason)) throw reason;
  // Where it came from: the caller that did not await it.
  const stack = reason instanceof Error ? (reason.stack ?? '').split('\n').slice(1, 8).join('\n') : '';
  console.warn(`unhandled database connection error: ${rootMessage(reason)}\n${stack}`);
}

/** Starts the API, the workers, or both, and stops them cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  process.on('unhandledRejection', survivingConnectionLoss);
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

  mkdirSync(config.dataDir, { recursive: true });
  keepPrivate(config.dataDir);
  const initialDatabase = config.databaseUrl ? undefined : initialDatabaseFor(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    ...(initialDatabase ? { loadDataDir: initialDatabase } : {}),
    poolSize: config.smtpMaxConnections + 6,
  });
  await database.migrate();
  // PGlite sets its files' modes itself (0666): tightened once open; the 0700 directory keeps out
  // everyone else from files it creates later.
  keepPrivate(config.dataDir);
  const ctx = await createAppContext({
    config,
    database,
    runWorkers: role !== 'api',
    log: (message) => console.warn(message),
  });

  const app = role === 'worker' ? undefined : await buildApp(ctx);
  const adminToken = newAdminToken();
  if (app && database.driver === 'pglite') await app.register(adminChannelRoutes(adminToken), ctx);
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    if (database.driver === 'pglite')
      writeRuntimeFile(config.dataDir, { pid: process.pid, port: config.port, token: adminToken });
  }
  // Mail for users' aliases, when their MX points here: with the API (it answers the senders).
  const inboundSmtp =
    app && config.inboundSmtp.port !== null
      ? await startInboundSmtpServer(ctx, { port: config.inboundSmtp.port, host: config.inboundSmtp.host })
      : undefined;
  const log = app?.log ?? console;
  if (inboundSmtp) log.info(`Inbound SMTP server listening on port ${inboundSmtp.port}`);
  if (app) {
    // Every link the app shows or mails is built from PUBLIC_URL; say which, loudly when it is the default.
    const line = publicUrlStartupLine(config.publicUrl, process.env.PUBLIC_URL !== undefined);
    if (process.env.PUBLIC_URL === undefined) log.warn(line);
    else log.info(line);
  }
  log.info(
    `Sendwell ${role} ready in ${Math.round(performance.now() - startedAt)} ms on ${database.driver}` +
      (app ? ` at ${config.publicUrl}` : '') +
      (role !== 'api' ? `; send records: ${ctx.recorders.guarantee}` : ''),
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
      await inboundSmtp?.close();
      await app?.close();
      await ctx.close({ graceful: true });
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
