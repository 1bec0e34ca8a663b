import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { outboxMessages } from '../../db/schema/index.ts';
import { createSendRecorders } from './recorders.ts';
import { suppress } from './suppressions.ts';

describe('single (transactional) messages', () => {
  const t = useTestApp();

  it('go through the transport into the Outbox, and never to a suppressed address', async () => {
    const { user, client } = await signUpUser(t());
    const message = {
      userId: user.id,
      from: { name: 'Acme', address: 'hello@acme.example' },
      to: 'Reader@X.io',
      subject: 'Confirm your address',
      html: '<p>Click to confirm</p>',
      text: 'Click to confirm',
    };
    const sent = await t().ctx.mailer.sendTransactional(message);
    expect(sent.status).toBe('sent');
    // The account's Outbox also holds the confirmation links of sign-up, from the installation's own address.
    const fromAcme = and(eq(outboxMessages.userId, user.id), eq(outboxMessages.fromAddress, 'hello@acme.example'));
    const stored = await t().ctx.db.select().from(outboxMessages).where(fromAcme);
    expect(stored.map((m) => [m.toAddress, m.subject, m.isTest])).toEqual([['Reader@X.io', 'Confirm your address', 0]]);
    expect(stored[0]?.raw).toContain('Click to confirm');

    await suppress(t().ctx.db, user.id, 'reader@x.io', 'unsubscribe');
    expect(await t().ctx.mailer.sendTransactional(message)).toEqual({ status: 'suppressed' });
    expect(await t().ctx.db.select().from(outboxMessages).where(fromAcme)).toHaveLength(1);

    // A campaign's test mail to that address (a contact) is refused with a clear 400, and nothing is stored.
    await client.patch('/api/auth/user', { postalAddress: '1 Main St' });
    await client.post('/api/contacts', { email: 'reader@x.io', firstName: 'Reader', lastName: 'One' });
    const campaign = (
      await client.post('/api/campaigns', {
        name: 'T',
        subject: 'Hi',
        fromEmail: 'news@acme.example',
        content: { html: '<p>Hi</p>' },
      })
    ).json() as { id: number };
    const refused = await client.post(`/api/campaigns/${campaign.id}/test`, { emails: ['reader@x.io'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('suppression list');
    // Still the one message and the two sign-up links.
    expect(await t().ctx.db.select().from(outboxMessages).where(eq(outboxMessages.userId, user.id))).toHaveLength(3);
  });

  it('suppression is per account: another account may still mail the address', async () => {
    const first = await signUpUser(t());
    const second = await signUpUser(t());
    await suppress(t().ctx.db, first.user.id, 'shared@x.io', 'bounce');
    const base = {
      from: { name: 'A', address: 'a@acme.example' },
      to: 'shared@x.io',
      subject: 'S',
      html: '<p>x</p>',
      text: 'x',
    };
    expect((await t().ctx.mailer.sendTransactional({ ...base, userId: first.user.id })).status).toBe('suppressed');
    expect((await t().ctx.mailer.sendTransactional({ ...base, userId: second.user.id })).status).toBe('sent');
  });
});

describe('SEND_GUARANTEE=exactly-once where it cannot work', () => {
  it('falls back to after-accept records and says why', async () => {
    const logged: string[] = [];
    const recorders = await createSendRecorders({
      wanted: 'exactly-once',
      connectionString: undefined,
      smtp: false,
      poolSize: 2,
      log: (message) => logged.push(message),
    });
    expect(recorders.guarantee).toBe('after-accept');
    expect(logged.join('\n')).toMatch(/needs DATABASE_URL.*needs SMTP_URL/s);
    await recorders.close();
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'runs exactly-once on a direct Postgres connection with an SMTP relay, its adapters checked',
    async () => {
      const logged: string[] = [];
      const recorders = await createSendRecorders({
        wanted: 'exactly-once',
        connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        smtp: true,
        poolSize: 1,
        log: (message) => logged.push(message),
      });
      expect(logged).toEqual([]);
      expect(recorders.guarantee).toBe('exactly-once');
      await recorders.close();
    },
  );
});
