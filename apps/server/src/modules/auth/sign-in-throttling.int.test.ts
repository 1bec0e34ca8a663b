import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { signUpUser, useTestApp, type TestApp } from '../../../test/build-app.ts';
import { passwordVerificationChannel } from '../../lib/passwords.ts';
import { issueTemporaryPassword, LOGIN_PACING } from './auth.service.ts';

// Every password verification the app runs is counted (the channel passwords.ts publishes on),
// to prove how many password checks got through.
const argon2Verifications = { count: 0 };
const countVerification = () => {
  argon2Verifications.count += 1;
};
beforeAll(() => passwordVerificationChannel.subscribe(countVerification));
afterAll(() => passwordVerificationChannel.unsubscribe(countVerification));

/** A login from `remoteAddress` (the TCP peer), optionally claiming another client in X-Forwarded-For. */
function loginFrom(
  testApp: TestApp,
  remoteAddress: string,
  body: { email: string; password: string },
  forwardedFor?: string,
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: body,
  });
}

const wrongPassword = (email: string, i = 0) => ({ email, password: `wrong-password-${i}` });

describe('X-Forwarded-For rotation does not bypass the per-IP limit unless TRUST_PROXY trusts it', () => {
  describe('with TRUST_PROXY unset', () => {
    const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });

    it('limits the TCP peer however X-Forwarded-For changes', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(t(), '192.0.2.10', wrongPassword(`rotate-${i}@example.com`), `203.0.113.${i}`);
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('with TRUST_PROXY naming the proxy', () => {
    const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '192.0.2.10' });

    it('limits each client the trusted proxy forwards for, and not the proxy itself', async () => {
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(
          t(),
          '192.0.2.10',
          wrongPassword(`proxied-${i}@example.com`),
          `203.0.113.${i}`,
        );
        expect(response.statusCode).toBe(401);
      }
      // One client behind the proxy is still limited.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(t(), '192.0.2.10', wrongPassword(`one-${i}@example.com`), '198.51.100.7');
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });

    it('ignores X-Forwarded-For from a peer it does not trust', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(
          t(),
          '192.0.2.99',
          wrongPassword(`untrusted-${i}@example.com`),
          `203.0.113.${i}`,
        );
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('with TRUST_PROXY as a hop count', () => {
    const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '1' });

    it('takes the client from the one proxy in front, not from addresses the client added', async () => {
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(t(), '192.0.2.10', wrongPassword(`hop-${i}@example.com`), `203.0.113.${i}`);
        expect(response.statusCode).toBe(401);
      }
      // A client that prepends forged addresses is still the address the proxy saw.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await loginFrom(
          t(),
          '192.0.2.10',
          wrongPassword(`forged-${i}@example.com`),
          `198.18.0.${i}, 198.51.100.8`,
        );
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });
});

describe('sign-in pacing per account and client address', () => {
  const t = useTestApp();

  async function throttleRow(email: string, client: string) {
    const result = await t().ctx.db.execute(
      sql`SELECT attempts FROM login_throttles WHERE email = ${email} AND client = ${client}`,
    );
    return result.rows[0] as { attempts: number } | undefined;
  }

  /** Lets the pair's current delay pass, as if its time had come. */
  async function letDelayPass(email: string, client: string) {
    await t().ctx.db.execute(
      sql`UPDATE login_throttles SET next_attempt_at = now() - interval '1 second' WHERE email = ${email} AND client = ${client}`,
    );
  }

  it('concurrent wrong passwords stay within the limit: 60 at once run at most the free attempts’ password checks', async () => {
    const { email } = await signUpUser(t(), { email: 'burst@example.com' });
    argon2Verifications.count = 0;
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => loginFrom(t(), '192.0.2.60', wrongPassword(email, i))),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(argon2Verifications.count).toBeLessThanOrEqual(LOGIN_PACING.freeAttempts);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_PACING.freeAttempts);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - LOGIN_PACING.freeAttempts);
  });

  it('an attacker cannot lock the owner out from another address', async () => {
    const { email, password } = await signUpUser(t(), { email: 'owner@example.com' });
    for (let i = 0; i < LOGIN_PACING.freeAttempts; i += 1) {
      expect((await loginFrom(t(), '192.0.2.66', wrongPassword(email, i))).statusCode).toBe(401);
    }
    // The attacker's address now waits, even with the right password…
    const paced = await loginFrom(t(), '192.0.2.66', { email, password });
    expect(paced.statusCode).toBe(429);
    expect(paced.json()).toEqual({ message: 'Too many attempts. Try again in 30 seconds.' });
    expect(paced.headers['retry-after']).toBe('30');
    // …and the owner, elsewhere, signs in at once.
    expect((await loginFrom(t(), '198.51.100.20', { email, password })).statusCode).toBe(200);
    // Waiting does not renew the delay: the attacker's refused attempt left the count as it was.
    expect(await throttleRow(email, '192.0.2.66')).toEqual({ attempts: LOGIN_PACING.freeAttempts });
  });

  it('doubles the delay with each further failure, up to 15 minutes, and a success resets it', async () => {
    const { email, password } = await signUpUser(t(), { email: 'doubling@example.com' });
    const client = '192.0.2.77';
    for (let i = 0; i < LOGIN_PACING.freeAttempts; i += 1) {
      expect((await loginFrom(t(), client, wrongPassword(email, i))).statusCode).toBe(401);
    }
    await letDelayPass(email, client);
    expect((await loginFrom(t(), client, wrongPassword(email, 9))).statusCode).toBe(401);
    const doubled = await loginFrom(t(), client, wrongPassword(email, 10));
    expect(doubled.statusCode).toBe(429);
    expect(doubled.json().message).toBe('Too many attempts. Try again in 1 minute.');
    expect(doubled.headers['retry-after']).toBe('60');

    await t().ctx.db.execute(
      sql`UPDATE login_throttles SET attempts = 40, next_attempt_at = now() - interval '1 second' WHERE email = ${email} AND client = ${client}`,
    );
    expect((await loginFrom(t(), client, wrongPassword(email, 11))).statusCode).toBe(401);
    const capped = await loginFrom(t(), client, wrongPassword(email, 12));
    expect(capped.json().message).toBe('Too many attempts. Try again in 15 minutes.');
    expect(capped.headers['retry-after']).toBe('900');

    await letDelayPass(email, client);
    expect((await loginFrom(t(), client, { email, password })).statusCode).toBe(200);
    expect(await throttleRow(email, client)).toBeUndefined();
    expect((await loginFrom(t(), client, wrongPassword(email, 13))).statusCode).toBe(401);
    expect((await loginFrom(t(), client, { email, password })).statusCode).toBe(200);
  });

  it('paces unknown emails the same way, so the answers do not tell which accounts exist', async () => {
    for (let i = 0; i < LOGIN_PACING.freeAttempts; i += 1) {
      expect((await loginFrom(t(), '192.0.2.88', wrongPassword('nobody@example.com', i))).statusCode).toBe(401);
    }
    expect((await loginFrom(t(), '192.0.2.88', wrongPassword('nobody@example.com', 99))).statusCode).toBe(429);
  });

  it('paces the Unlimited activation, which checks the same credentials', async () => {
    const { email, password } = await signUpUser(t(), { email: 'unlimited-paced@example.com' });
    const activate = (body: { email: string; password: string }) =>
      t().app.inject({
        method: 'POST',
        url: '/api/admin/setup-unlimited-user',
        remoteAddress: '192.0.2.99',
        payload: body,
      });
    for (let i = 0; i < LOGIN_PACING.freeAttempts; i += 1) {
      expect((await activate(wrongPassword(email, i))).json()).toMatchObject({ success: false });
    }
    expect((await activate({ email, password })).statusCode).toBe(429);
  });

  it('clears every address’s pacing of an account whose password an admin resets', async () => {
    const { email } = await signUpUser(t(), { email: 'reset-paced@example.com' });
    for (let i = 0; i < LOGIN_PACING.freeAttempts; i += 1) await loginFrom(t(), '192.0.2.111', wrongPassword(email, i));
    const issued = await issueTemporaryPassword(t().ctx.db, email);
    expect((await loginFrom(t(), '192.0.2.111', { email, password: issued.password })).statusCode).toBe(200);
  });
});
