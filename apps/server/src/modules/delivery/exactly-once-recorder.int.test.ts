import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { HeldDot } from '../../lib/mail-transport.ts';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { campaignSends } from '../../db/schema/index.ts';
import { campaignLedger } from '../campaigns/campaign-send.repo.ts';
import { checkPgSocket } from './adapters/pg-socket.ts';
import { ExactlyOnceRecorder, GraceEstimate, markGroupSent, recordPool } from './exactly-once-recorder.ts';
import { pgSocketOf } from './adapters/pg-socket.ts';

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
    const contact = (
      await client.post('/api/contacts', { email: 'kill@x.io', firstName: 'K', lastName: 'Ill' })
    ).json() as { id: number };
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'Kill',
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '' },
      })
    ).json() as { id: number };
    const claimToken = 'kill-test-claim';
    const inserted = await t().ctx.db.execute(sql`
      INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, first_name, last_name, status, claim_token, claimed_at)
      SELECT ${campaign.id}, user_id, id, email, first_name, last_name, 'sending', ${claimToken}, now() FROM contacts WHERE id = ${contact.id}
      RETURNING id`);
    return { id: Number((inserted.rows[0] as { id: number }).id), claimToken };
  }

  // Counted from the mark's answer, which in a sending worker is followed by the COMMIT at once: 0;
  // the dot well within the sleep taken with the mark, or just before its end (11 ms); inside the
  // 0.5 ms margin before that sleep runs out (11.7 ms, the COMMIT then waits for it and takes a fresh
  // one); 40 ms, long after it, busy (its answer unread) or idle (read). The sleep is 12 ms in a fresh worker, and 3 ms in one whose recent groups
  // all reached their COMMIT within 1 ms (`trainedMs`).
  it.each([
    { name: 'at once', dotAfterMs: 0, wait: 'busy', trainedMs: '' },
    { name: '9.5 ms later', dotAfterMs: 9.5, wait: 'busy', trainedMs: '' },
    { name: '11 ms later', dotAfterMs: 11, wait: 'busy', trainedMs: '' },
    { name: '11.7 ms later', dotAfterMs: 11.7, wait: 'busy', trainedMs: '' },
    { name: '40 ms later, busy', dotAfterMs: 40, wait: 'busy', trainedMs: '' },
    { name: '40 ms later, idle', dotAfterMs: 40, wait: 'idle', trainedMs: '' },
    { name: 'at once, 3 ms sleep', dotAfterMs: 0, wait: 'busy', trainedMs: '1' },
    { name: '0.8 ms later, 3 ms sleep', dotAfterMs: 0.8, wait: 'busy', trainedMs: '1' },
    { name: '1.5 ms later, 3 ms sleep', dotAfterMs: 1.5, wait: 'busy', trainedMs: '1' },
    { name: '40 ms later, busy, 3 ms sleep', dotAfterMs: 40, wait: 'busy', trainedMs: '1' },
    { name: '40 ms later, idle, 3 ms sleep', dotAfterMs: 40, wait: 'idle', trainedMs: '1' },
  ])('keeps a record committed at a dot $name after the mark', async ({ dotAfterMs, wait, trainedMs }) => {
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
        GRACE_TRAINED_MS: trainedMs,
      },
      stdio: 'inherit',
    });
    expect(await statusAfterKill(child, row.id)).toBe('sent');
  });

  /** The row's status once the killed child's connection is gone: the server finishes its last statements (at most the grace sleep) and then notices. */
  async function statusAfterKill(child: ReturnType<typeof spawn>, id: number): Promise<string | undefined> {
    const [, signal] = (await new Promise((resolve) => child.once('exit', (...args) => resolve(args)))) as [
      number | null,
      string | null,
    ];
    expect(signal).toBe('SIGKILL');
    let status: string | undefined;
    for (let i = 0; i < 50; i += 1) {
      const [found] = await t()
        .ctx.db.select({ status: campaignSends.status })
        .from(campaignSends)
        .where(eq(campaignSends.id, id));
      status = found?.status;
      const open = await t().ctx.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
      );
      if ((open.rows[0] as { n: number }).n === 0 && i > 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return status;
  }
});

/** Messages whose dots are due together share one transaction; each is written, dropped or undone as its row and connection allow. */
describe.runIf(process.env.TEST_DB === 'postgres')('send records committed a group at a time', () => {
  const t = useTestApp();

  async function claimedRows(count: number, claimToken: string) {
    const { client } = await signUpUser(t());
    for (let i = 0; i < count; i += 1)
      await client.post('/api/contacts', { email: `group${i}@x.io`, firstName: 'G', lastName: String(i) });
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'Group',
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '' },
      })
    ).json() as { id: number };
    const inserted = await t().ctx.db.execute(sql`
      INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, first_name, last_name, status, claim_token, claimed_at)
      SELECT ${campaign.id}, user_id, id, email, first_name, last_name, 'sending', ${claimToken}, now() FROM contacts WHERE email LIKE 'group%@x.io' AND user_id = (SELECT user_id FROM campaigns WHERE id = ${campaign.id})
      RETURNING id`);
    return (inserted.rows as { id: number }[]).map((r) => ({
      id: Number(r.id),
      claimToken,
      messageId: `<group-${r.id}@acme.example>`,
    }));
  }
  const statusOf = async (id: number) =>
    (
      await t()
        .ctx.db.select({ status: campaignSends.status, messageId: campaignSends.messageId })
        .from(campaignSends)
        .where(eq(campaignSends.id, id))
    )[0];

  it('passes its self-check of the pg socket adapter (fails when a pg upgrade moves what it relies on)', async () => {
    const pool = recordPool(t().ctx.database.connectionString ?? '', 1);
    try {
      expect(await checkPgSocket(pool)).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('writes the owned messages’ dots in one step after one COMMIT, drops the superseded and undoes the mark of a closed connection', async () => {
    const [owned, superseded, closed, alsoOwned] = await claimedRows(4, 'group-claim');
    if (!owned || !superseded || !closed || !alsoOwned) throw new Error('rows missing');
    // Another worker took this row over meanwhile.
    await t()
      .ctx.db.update(campaignSends)
      .set({ claimToken: 'other-claim' })
      .where(eq(campaignSends.id, superseded.id));
    const events: string[] = [];
    const writes: string[] = [];
    let sameStep: string[] = [];
    const dot = (name: string, connectionOpen = true): HeldDot => ({
      write: () => {
        if (writes.length === 0) queueMicrotask(() => (sameStep = [...writes]));
        writes.push(name);
        events.push(`${name} written`);
        return connectionOpen;
      },
      drop: () => void events.push(`${name} dropped`),
    });
    const pool = recordPool(t().ctx.database.connectionString ?? '', 2);
    const recorder = new ExactlyOnceRecorder(pool, campaignLedger(t().ctx.db));
    const records = [owned, superseded, closed, alsoOwned].map((row) => recorder.track(row));
    records.forEach((record, i) =>
      record.hooks?.atFinalDot(dot(['owned', 'superseded', 'closed', 'alsoOwned'][i] ?? '', i !== 2)),
    );
    const outcomes = await Promise.all([
      records[0]?.accepted(),
      records[1]?.failed(),
      records[2]?.failed(),
      records[3]?.accepted(),
    ]);
    await recorder.close();
    await pool.end();
    expect(outcomes).toEqual(['recorded', 'superseded', 'not-sent', 'recorded']);
    expect(events).toEqual(['superseded dropped', 'owned written', 'closed written', 'alsoOwned written']);
    // The dots went out back to back, in the synchronous step that wrote the COMMIT.
    expect(sameStep).toEqual(['owned', 'closed', 'alsoOwned']);
    expect(await statusOf(owned.id)).toEqual({ status: 'sent', messageId: owned.messageId });
    expect(await statusOf(alsoOwned.id)).toEqual({ status: 'sent', messageId: alsoOwned.messageId });
    expect((await statusOf(superseded.id))?.status).toBe('sending');
    // Its connection had closed, so no dot went: the mark is undone for its sender to re-queue.
    expect(await statusOf(closed.id)).toEqual({ status: 'sending', messageId: null });
  });

  it('a lost connection stalls sends for good: a group whose connection dies during its grace sleep gives the connection back', async () => {
    const [row] = await claimedRows(1, 'lost-sleep-claim');
    if (!row) throw new Error('row missing');
    // A pool of one: a connection never given back leaves every later group waiting, its dots held.
    const pool = recordPool(t().ctx.database.connectionString ?? '', 1);
    try {
      const client = await pool.connect();
      const socket = pgSocketOf(client);
      if (!socket) throw new Error('no corkable socket');
      const grace = new GraceEstimate();
      const marked = await markGroupSent(client, socket, campaignLedger(t().ctx.db), [row], grace);
      const sleepRunsOut = new Promise((resolve) => setTimeout(resolve, grace.ms + 5));
      const lost = new Promise((resolve) => client.once('error', resolve));
      await t().ctx.db.execute(
        sql`SELECT pg_terminate_backend(${(client as unknown as { processID: number }).processID})`,
      );
      await lost;
      // The case is a COMMIT that comes after the sleep ran out (its answer, failed, is read first);
      // a termination quicker than the sleep (12 ms) took the other path and wrote the dots (CI once).
      await sleepRunsOut;
      let dotsWritten = false;
      await expect(marked.commitWith(() => (dotsWritten = true))).rejects.toThrow();
      expect(dotsWritten).toBe(false);
      const next = await Promise.race([
        pool.connect(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
      ]);
      expect(next, 'the pool has a connection to give within 3 s').not.toBeNull();
      next?.release();
      // Nothing was committed: the row is still this claim's, unsent.
      expect(await statusOf(row.id)).toEqual({ status: 'sending', messageId: null });
    } finally {
      await pool.end();
    }
  });
});
