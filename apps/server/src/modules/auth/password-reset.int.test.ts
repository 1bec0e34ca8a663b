import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER, RESET_LINK_INVALID } from '@sendwell/contract/auth';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { startSmtpSink, type ReceivedMessage } from '../../../test/smtp-sink.ts';
import { readExpiringToken, signExpiringToken } from '../../lib/expiring-token.ts';

const PASSWORD = 'lunar-lander-12';
const NEW_PASSWORD = 'orchid-harbour-73';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});

const resetMailsTo = (to: string, since = 0) =>
  sink.received.slice(since).filter((m) => m.to.includes(to) && m.parsed.subject === 'Reset your Sendwell password');

/** The token of the reset link in a message's text part. */
function tokenIn(message: ReceivedMessage | undefined): string {
  const token = /\/reset-password\?token=(\S+)/.exec(message?.parsed.text ?? '')?.[1];
  if (!token) throw new Error('no reset link in the message');
  return token;
}

describe('forgot password', () => {
  const t = useTestApp(() => ({ SMTP_URL: sink.url }));

  it('mails a single-use link that sets a new password and ends every session; the answer is the same for unknown addresses', async () => {
    const { client, email } = await signUpUser(t());
    const anonymous = t().client();
    const since = sink.received.length;

    const known = await anonymous.post('/api/auth/forgot-password', { email: email.toUpperCase() });
    const unknown = await anonymous.post('/api/auth/forgot-password', { email: 'nobody-here@x.io' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    expect(unknown.body).toBe(known.body);

    await expect.poll(() => resetMailsTo(email, since).length).toBe(1);
    expect(sink.received.slice(since).some((m) => m.to.includes('nobody-here@x.io'))).toBe(false);
    const token = tokenIn(resetMailsTo(email, since)[0]);

    const mismatch = await anonymous.post('/api/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: 'something-else-99',
    });
    expect(mismatch.statusCode).toBe(400);

    const reset = await anonymous.post('/api/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // Every session ended: the one signed in before is signed out.
    expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    const oldLogin = await t().client().post('/api/auth/login', { email, password: PASSWORD });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t().client().post('/api/auth/login', { email, password: NEW_PASSWORD });
    expect(newLogin.statusCode).toBe(200);

    // Single use: the same link again is refused, in words.
    const again = await anonymous.post('/api/auth/reset-password', {
      token,
      password: 'another-pass-word-55',
      confirmPassword: 'another-pass-word-55',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(RESET_LINK_INVALID);
  });

  it('refuses an expired, tampered or other-purpose token', async () => {
    const { email } = await signUpUser(t());
    const anonymous = t().client();
    const since = sink.received.length;
    await anonymous.post('/api/auth/forgot-password', { email });
    await expect.poll(() => resetMailsTo(email, since).length).toBe(1);
    const token = tokenIn(resetMailsTo(email, since)[0]);
    const secret = t().ctx.config.sessionSecret;
    const read = readExpiringToken(secret, 'password-reset', token);
    expect(read.status).toBe('valid');
    if (read.status !== 'valid') return;
    // Valid for one hour.
    expect(Math.abs(read.expiresAt.getTime() - Date.now() - 3600_000)).toBeLessThan(60_000);

    const expired = signExpiringToken(secret, 'password-reset', read.subject, new Date(Date.now() - 1000));
    const otherPurpose = signExpiringToken(secret, 'account-email', read.subject, new Date(Date.now() + 60_000));
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [expired, otherPurpose, tampered]) {
      const answer = await anonymous.post('/api/auth/reset-password', {
        token: bad,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(RESET_LINK_INVALID);
    }
  });

  it('mails one address at most 3 links an hour, answering the same after', async () => {
    const { email } = await signUpUser(t());
    const anonymous = t().client();
    const since = sink.received.length;
    for (let i = 0; i < 5; i += 1) {
      const answer = await anonymous.post('/api/auth/forgot-password', { email });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    }
    await expect.poll(() => resetMailsTo(email, since).length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resetMailsTo(email, since)).toHaveLength(3);
  });
});
