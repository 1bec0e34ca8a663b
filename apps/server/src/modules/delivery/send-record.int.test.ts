import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { campaignSends } from '../../db/schema/index.ts';

const root = path.resolve(import.meta.dirname, '../../../../..');

/**
 * The record of a send must survive its worker being killed right after the final dot, however long
 * the message took after its mark: the COMMIT written before the dot is carried out by the server
 * after the client is gone. Separate processes on Postgres (the embedded database dies with its process).
 */
describe.runIf(process.env.TEST_DB === 'postgres')('send record of a killed worker', { timeout: 60_000 }, () => {
  const t = useTestApp();

  async function ledgerRow(): Promise<{ id: number; claimToken: string }> {
    const { client } = await signUpUser(t());
    const contact = (await client.post('/api/contacts', { email: 'kill@x.io', firstName: 'K', lastName: 'Ill' })).json() as { id: number };
    const campaign = (await client.post('/api/campaigns', { name: 'Kill', subject: 'Hi', fromEmail: 'news@acme.example', content: { html: '' } })).json() as { id: number };
    const claimToken = 'kill-test-claim';
    const inserted = await t().ctx.db.execute(sql`
      INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, first_name, last_name, status, claim_token, claimed_at)
      SELECT ${campaign.id}, user_id, id, email, first_name, last_name, 'sending', ${claimToken}, now() FROM contacts WHERE id = ${contact.id}
      RETURNING id`);
    return { id: Number((inserted.rows[0] as { id: number }).id), claimToken };
  }

  // Counted from the mark's answer: 0, the dot well within the sleep taken with the mark; just before
  // that sleep runs out (the case that once queued a second sleep ahead of the COMMIT, and lost it);
  // 40 ms, long after it, busy (its answer unread) or idle (read), and the last also with no
  // prepareCommit (a worker held up between it and the dot). The sleep is 12 ms in a fresh worker,
  // and 3 ms in one whose recent marks all reached their dot within 1 ms (`trainedMs`).
  it.each([
    { name: 'at once', dotAfterMs: 0, wait: 'busy', prepare: 'yes', trainedMs: '' },
    { name: '9.5 ms later', dotAfterMs: 9.5, wait: 'busy', prepare: 'yes', trainedMs: '' },
    { name: '40 ms later, busy', dotAfterMs: 40, wait: 'busy', prepare: 'yes', trainedMs: '' },
    { name: '40 ms later, idle', dotAfterMs: 40, wait: 'idle', prepare: 'yes', trainedMs: '' },
    { name: '40 ms later, idle, no prepareCommit', dotAfterMs: 40, wait: 'idle', prepare: 'no', trainedMs: '' },
    { name: '40 ms later, busy, no prepareCommit', dotAfterMs: 40, wait: 'busy', prepare: 'no', trainedMs: '' },
    { name: 'at once, 3 ms sleep', dotAfterMs: 0, wait: 'busy', prepare: 'yes', trainedMs: '1' },
    { name: '0.8 ms later, 3 ms sleep', dotAfterMs: 0.8, wait: 'busy', prepare: 'yes', trainedMs: '1' },
    { name: '1.5 ms later, 3 ms sleep', dotAfterMs: 1.5, wait: 'busy', prepare: 'yes', trainedMs: '1' },
    { name: '40 ms later, busy, 3 ms sleep', dotAfterMs: 40, wait: 'busy', prepare: 'yes', trainedMs: '1' },
    { name: '40 ms later, idle, no prepareCommit, 3 ms sleep', dotAfterMs: 40, wait: 'idle', prepare: 'no', trainedMs: '1' },
  ])('keeps a record committed at a dot $name after the mark', async ({ dotAfterMs, wait, prepare, trainedMs }) => {
    const row = await ledgerRow();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/record-kill-child.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t().ctx.database.connectionString,
        ROW_ID: String(row.id),
        CLAIM_TOKEN: row.claimToken,
        DOT_AFTER_MS: String(dotAfterMs),
        DOT_WAIT: wait,
        PREPARE: prepare,
        GRACE_TRAINED_MS: trainedMs,
      },
      stdio: 'inherit',
    });
    const [, signal] = (await new Promise((resolve) => child.once('exit', (...args) => resolve(args)))) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');
    // The server finishes the client's last statements (at most the grace sleep) and then notices it is gone.
    let status: string | undefined;
    for (let i = 0; i < 50; i += 1) {
      const [found] = await t().ctx.db.select({ status: campaignSends.status }).from(campaignSends).where(eq(campaignSends.id, row.id));
      status = found?.status;
      const open = await t().ctx.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`);
      if ((open.rows[0] as { n: number }).n === 0 && i > 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('sent');
  });
});
