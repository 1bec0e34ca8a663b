import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import { grantUnlimited, issueTemporaryPassword } from '../modules/auth/index.ts';
import { resetPasswordResponseSchema } from '@sendwell/contract/admin';
import { readRuntimeFile } from '../modules/admin/index.ts';

const usage = `Usage: npm run admin -- <command>

Commands:
  reset-password EMAIL   print a temporary password valid for 1 hour; the user must set a new one at sign-in
  grant-unlimited EMAIL  entitle the account to activate the Unlimited plan at /unlimited-setup with its own password`;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The database the server uses, when no server runs from this data folder: Postgres at DATABASE_URL, or
 * the embedded one in DATA_DIR. An embedded one is never made here: a data folder without one is the
 * wrong folder, and a new empty database would only answer "no account".
 */
async function openServerDatabase(config: Config) {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'PG_VERSION'))) {
    throw new AppError(
      'not_found',
      `No Sendwell server is running from ${path.resolve(config.dataDir)} and it holds no database. ` +
        'Run the command in the folder Sendwell runs in, or set DATA_DIR (or DATABASE_URL) as the server has it.',
    );
  }
  return openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
}

/**
 * Issues a temporary password: through the running server when it holds the embedded database
 * (PGlite is single-process), otherwise straight against the database.
 */
async function resetPassword(email: string): Promise<{ password: string; expiresAt: string }> {
  const config = loadConfig();
  const running = config.databaseUrl ? undefined : readRuntimeFile(config.dataDir);
  if (running && isRunning(running.pid)) {
    const response = await fetch(`http://127.0.0.1:${running.port}/api/internal/admin/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sendwell-admin-token': running.token },
      body: JSON.stringify({ email }),
    });
    const body: unknown = await response.json();
    if (!response.ok)
      throw new AppError('bad_request', (body as { message?: string }).message ?? `server answered ${response.status}`);
    return resetPasswordResponseSchema.parse(body);
  }
  const database = await openServerDatabase(config);
  try {
    await database.migrate();
    const issued = await issueTemporaryPassword(database.db, email);
    return { password: issued.password, expiresAt: issued.expiresAt.toISOString() };
  } finally {
    await database.close();
  }
}

/** Grants the Unlimited entitlement: through the running server when it holds the embedded database, else directly. */
async function grantUnlimitedTo(email: string): Promise<void> {
  const config = loadConfig();
  const running = config.databaseUrl ? undefined : readRuntimeFile(config.dataDir);
  if (running && isRunning(running.pid)) {
    const response = await fetch(`http://127.0.0.1:${running.port}/api/internal/admin/grant-unlimited`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sendwell-admin-token': running.token },
      body: JSON.stringify({ email }),
    });
    if (!response.ok) {
      const body = (await response.json()) as { message?: string };
      throw new AppError('bad_request', body.message ?? `server answered ${response.status}`);
    }
    return;
  }
  const database = await openServerDatabase(config);
  try {
    await database.migrate();
    await grantUnlimited(database.db, email);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'reset-password' && args.length === 1 && args[0]) {
    const issued = await resetPassword(args[0]);
    console.log(`Temporary password for ${args[0].toLowerCase()}: ${issued.password}`);
    console.log(`It works until ${issued.expiresAt}; the user must choose a new password after signing in.`);
    return 0;
  }
  if (command === 'grant-unlimited' && args.length === 1 && args[0]) {
    await grantUnlimitedTo(args[0]);
    console.log(
      `${args[0].toLowerCase()} may now activate the Unlimited plan at /unlimited-setup with its own password.`,
    );
    return 0;
  }
  console.error(usage);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof AppError || error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
