import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { startTestImapServer, type TestImapServer } from '../../../test/imap-server.ts';
import { sentCampaign } from '../../../test/sent-campaign.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { pollBounceMailbox, PROCESSED_KEYWORD } from './bounce-mailbox.ts';
import { handleBounceMessage } from './bounces.service.ts';

let imap: TestImapServer;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  imap = await startTestImapServer();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await imap.close();
  await sink.close();
});

/** A mail client of the test mailbox: how bounces land there, and how the test looks inside. */
async function mailbox<T>(use: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: imap.port,
    secure: false,
    auth: { user: imap.user, pass: imap.password },
    logger: false,
  });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.logout();
  }
}

/** A qmail notice as the mailbox receives it: Delivered-To names the return path it came back to. */
const notice = (returnPath: string, recipient: string, line: string) =>
  [
    `Delivered-To: ${returnPath}`,
    'From: MAILER-DAEMON@mail.x.io',
    `To: ${returnPath}`,
    'Subject: failure notice',
    '',
    'Hi. This is the qmail-send program at mail.x.io.',
    "I'm afraid I wasn't able to deliver your message to the following addresses.",
    '',
    `<${recipient}>:`,
    line,
    '',
  ].join('\r\n');

const rows = async (t: ReturnType<typeof useTestApp>, sql: string, params: unknown[]) =>
  (await t().ctx.database.raw.executeSql(sql, params)).rows as Record<string, unknown>[];

describe('the bounce mailbox (BOUNCE_IMAP_URL) against a real IMAP server', () => {
  const t = useTestApp(() => ({
    SMTP_URL: sink.url,
    BOUNCE_DOMAIN: 'bounces.sendwell.test',
    BOUNCE_IMAP_URL: `imap://${imap.user}:${imap.password}@127.0.0.1:${imap.port}/INBOX`,
  }));

  it('reads each bounce once, flags and moves it, and a restart reads nothing twice', async () => {
    const { client, user } = await signUpUser(t());
    expect((await client.get('/api/bounce-mailbox')).json()).toMatchObject({ status: 'waiting', error: null });
    const before = sink.received.length;
    const { sends } = await sentCampaign(t(), client, 'Mailbox', 3);
    const returnPathOf = (email: string | undefined) =>
      sink.received.slice(before).find((m) => m.to.includes(email ?? ''))?.from ?? '';
    const [first, second, third] = sends;

    await mailbox(async (c) => {
      await c.append(
        'INBOX',
        notice(returnPathOf(first?.email), first?.email ?? '', 'Sorry, no mailbox here by that name. (#5.1.1)'),
      );
      await c.append(
        'INBOX',
        notice(
          returnPathOf(second?.email),
          second?.email ?? '',
          'The users mailfolder is over the allowed quota (size). (#5.2.2)',
        ),
      );
      await c.append(
        'INBOX',
        'From: someone@x.io\r\nTo: bounces@sendwell.test\r\nSubject: hello\r\n\r\nNot a bounce.\r\n',
      );
    });

    expect(await pollBounceMailbox(t().ctx)).toEqual({ processed: 3 });
    expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [first?.id])).toEqual([
      { status: 'bounced' },
    ]);
    expect(await rows(t, 'SELECT email FROM suppressions WHERE user_id = $1', [user.id])).toEqual([
      { email: first?.email },
    ]);
    expect(
      await rows(t, `SELECT detail FROM email_events WHERE send_id = $1 AND type = 'bounce'`, [second?.id]),
    ).toEqual([{ detail: expect.stringMatching(/^soft: mailbox-full/) }]);

    // In the mailbox: the inbox is empty, the processed folder holds the three, flagged.
    await mailbox(async (c) => {
      expect(await c.status('INBOX', { messages: true })).toMatchObject({ messages: 0 });
      const lock = await c.getMailboxLock('Processed');
      try {
        const flags = [];
        for await (const m of c.fetch('1:*', { flags: true }))
          flags.push([...(m.flags ?? [])].filter((flag) => flag !== '\\Recent').sort());
        expect(flags).toEqual(Array(3).fill(['$SendwellProcessed', '\\Seen'].sort()));
      } finally {
        lock.release();
      }
    });

    // A restart: a fresh poll (a new connection, nothing kept in memory) finds nothing to do, twice.
    expect(await pollBounceMailbox(t().ctx)).toEqual({ processed: 0 });
    expect(await pollBounceMailbox(t().ctx)).toEqual({ processed: 0 });

    // A message that was handled just before a crash (not yet flagged) is read again but counted once.
    const late = notice(
      returnPathOf(third?.email),
      third?.email ?? '',
      'Sorry, no mailbox here by that name. (#5.1.1)',
    );
    await handleBounceMessage(t().ctx, { raw: Buffer.from(late) });
    await mailbox(async (c) => {
      await c.append('INBOX', late);
      // One already flagged (moved by hand back into the inbox) is never read again.
      await c.append('INBOX', notice(returnPathOf(second?.email), second?.email ?? '', 'over quota (#5.2.2)'), [
        PROCESSED_KEYWORD,
      ]);
    });
    expect(await pollBounceMailbox(t().ctx)).toEqual({ processed: 1 });
    expect(
      await rows(t, `SELECT 1 FROM email_events WHERE send_id = $1 AND type = 'bounce'`, [third?.id]),
    ).toHaveLength(1);
    expect(
      await rows(t, `SELECT 1 FROM email_events WHERE send_id = $1 AND type = 'bounce'`, [second?.id]),
    ).toHaveLength(1);

    const status = (await client.get('/api/bounce-mailbox')).json() as Record<string, unknown>;
    expect(status).toMatchObject({ status: 'ok', error: null, processedCount: 4, mailbox: `bounces@127.0.0.1/INBOX` });
    expect(JSON.stringify(status)).not.toContain(imap.password);
  });

  it('shows a broken mailbox on the status endpoint, in words, and recovers', async () => {
    const { client } = await signUpUser(t());
    const { config, db } = t().ctx;
    const settings = config.bounceImap;
    if (!settings) throw new Error('BOUNCE_IMAP_URL is set in this test');
    const wrong = { db, config: { ...config, bounceImap: { ...settings, password: 'not-the-password' } } };
    await expect(pollBounceMailbox(wrong)).rejects.toThrow();
    const broken = (await client.get('/api/bounce-mailbox')).json() as Record<string, unknown>;
    expect(broken).toMatchObject({
      status: 'failing',
      error: 'The mailbox refused the user name or password in BOUNCE_IMAP_URL.',
    });
    const closedPort = { db, config: { ...config, bounceImap: { ...settings, port: 1 } } };
    await expect(pollBounceMailbox(closedPort)).rejects.toThrow();
    expect(((await client.get('/api/bounce-mailbox')).json() as { error: string }).error).toMatch(
      /refused the connection/,
    );
    await pollBounceMailbox(t().ctx);
    expect((await client.get('/api/bounce-mailbox')).json()).toMatchObject({ status: 'ok', error: null });
    expect((await t().client().get('/api/bounce-mailbox')).statusCode).toBe(401);
  });

  it('reads a notice saved after an mbox separator line, as some mail systems hand one over', async () => {
    const { client } = await signUpUser(t());
    const before = sink.received.length;
    const { sends } = await sentCampaign(t(), client, 'Mbox', 1);
    const [send] = sends;
    const returnPath = sink.received.slice(before)[0]?.from ?? '';
    const line = 'Sorry, no mailbox here by that name. (#5.1.1)';
    await mailbox((c) =>
      c.append(
        'INBOX',
        `From MAILER-DAEMON Tue Jun 11 09:12:44 2024\r\n${notice(returnPath, send?.email ?? '', line)}`,
      ),
    );
    expect(await pollBounceMailbox(t().ctx)).toEqual({ processed: 1 });
    expect(await rows(t, 'SELECT status FROM campaign_sends WHERE id = $1', [send?.id])).toEqual([
      { status: 'bounced' },
    ]);
  });
});
