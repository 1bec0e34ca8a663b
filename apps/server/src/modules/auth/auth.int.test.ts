import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { outboxMessages } from '../../db/schema/index.ts';
import { checkedName } from '../../lib/confirmation-link.ts';
import { issueTemporaryPassword } from './auth.service.ts';

const validSignup = {
  email: 'Grace@Example.com',
  password: 'hopper42',
  confirmPassword: 'hopper42',
  firstName: 'Grace',
  lastName: 'Hopper',
  company: 'Navy',
  plan: 'starter',
  planPrice: 19,
};

describe('accounts and sessions', () => {
  const t = useTestApp();

  async function userCount(): Promise<number> {
    const result = await t().ctx.database.raw.executeSql('SELECT count(*)::int AS n FROM users', []);
    return (result.rows[0] as { n: number }).n;
  }

  describe('POST /api/auth/signup', () => {
    it('creates the account on a 14-day trial, signs in with a safe cookie', async () => {
      const client = t().client();
      const response = await client.post('/api/auth/signup', validSignup);
      expect(response.statusCode).toBe(201);
      const user = response.json();
      expect(user).toMatchObject({
        email: 'grace@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
        company: 'Navy',
        plan: 'starter',
        subscriptionStatus: 'trialing',
        passwordChangeRequired: false,
        profileImageUrl: null,
      });
      expect(user).not.toHaveProperty('passwordHash');
      const trialDays = (Date.parse(user.trialEndsAt) - Date.now()) / 86_400_000;
      expect(trialDays).toBeGreaterThan(13.9);
      expect(trialDays).toBeLessThanOrEqual(14);
      const cookie = response.cookies.find((c) => c.name === 'sendwell_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 30 * 86400 });
      expect(cookie?.secure).toBeFalsy();
      const me = await client.get('/api/auth/user');
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe('grace@example.com');
    });

    it('stores the password as an argon2id hash', async () => {
      const result = await t().ctx.database.raw.executeSql(
        "SELECT password_hash FROM users WHERE email = 'grace@example.com'",
        [],
      );
      expect((result.rows[0] as { password_hash: string }).password_hash).toMatch(/^\$argon2id\$/);
    });

    it('answers 409 for an email that exists, whatever its case', async () => {
      const before = await userCount();
      const response = await t()
        .client()
        .post('/api/auth/signup', { ...validSignup, email: 'GRACE@example.COM' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'An account with this email already exists' });
      expect(await userCount()).toBe(before);
    });

    it('defaults the plan to pro', async () => {
      const { plan: _plan, ...withoutPlan } = validSignup;
      const response = await t()
        .client()
        .post('/api/auth/signup', { ...withoutPlan, email: 'default-plan@example.com' });
      expect(response.statusCode).toBe(201);
      expect(response.json().plan).toBe('pro');
    });

    it.each([
      ['a missing first name', { firstName: '  ' }, 'firstName', 'First name is required'],
      ['a missing last name', { lastName: '' }, 'lastName', 'Last name is required'],
      ['an invalid email', { email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
      ['a missing email', { email: '' }, 'email', 'Email is required'],
      ['different passwords', { confirmPassword: 'hopper43' }, 'confirmPassword', 'Passwords do not match'],
      [
        'a short password',
        { password: 'abc', confirmPassword: 'abc' },
        'password',
        'Password must be at least 6 characters long',
      ],
      ['the granted-only plan', { plan: 'unlimited' }, 'plan', 'Please choose a valid plan'],
      ['an unknown plan', { plan: 'gold' }, 'plan', 'Please choose a valid plan'],
    ])('refuses %s with 400 and writes nothing', async (_label, change, field, message) => {
      const before = await userCount();
      const response = await t()
        .client()
        .post('/api/auth/signup', { ...validSignup, email: 'bad-input@example.com', ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
      expect(await userCount()).toBe(before);
    });

    it('123456 refused: a common password gets the field error, whatever its case, and nothing is written', async () => {
      const before = await userCount();
      for (const password of ['123456', 'Password1', 'qwerty123']) {
        const response = await t()
          .client()
          .post('/api/auth/signup', {
            ...validSignup,
            email: 'common-password@example.com',
            password,
            confirmPassword: password,
          });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          message: 'This password is too common. Choose one that is harder to guess.',
          fields: { password: 'This password is too common. Choose one that is harder to guess.' },
        });
      }
      expect(await userCount()).toBe(before);
    });

    it('refuses a body that is not JSON with 400', async () => {
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/auth/signup',
          headers: { 'content-type': 'application/json' },
          payload: '{"email":',
        });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBeTypeOf('string');
    });

    // Issue 27 (4): the sign-up mail goes to any address typed in the form, so it repeats only a checked name.
    it('confirmation mail carries no user-written text: a firstName with a URL or 51+ characters is left out (no greeting), a plain name is kept', async () => {
      const mailTo = async (email: string) => {
        const rows = await t().ctx.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
        expect(rows).toHaveLength(1);
        const parsed = await simpleParser(rows[0]?.raw ?? '');
        return `${parsed.subject}\n${parsed.text}\n${typeof parsed.html === 'string' ? parsed.html : ''}`;
      };
      const cases = [
        ['url-name@example.com', 'Win at https://evil.example now'],
        ['long-name@example.com', 'A'.repeat(51)],
        ['dotted-name@example.com', 'evil.example'],
      ] as const;
      for (const [email, firstName] of cases) {
        const response = await t()
          .client()
          .post('/api/auth/signup', { ...validSignup, email, firstName });
        expect(response.statusCode, response.body).toBe(201);
        const mail = await mailTo(email);
        expect(mail).not.toContain(firstName);
        expect(mail).not.toContain('Hello');
        expect(mail).toContain('Thanks for signing up for Sendwell.');
      }
      const plain = await t()
        .client()
        .post('/api/auth/signup', { ...validSignup, email: 'plain-name@example.com', firstName: 'Zoë Anne-Marie' });
      expect(plain.statusCode).toBe(201);
      expect(await mailTo('plain-name@example.com')).toContain(
        'Hello Zoë Anne-Marie, thanks for signing up for Sendwell.',
      );
      expect(checkedName('Ł'.repeat(50))).toBe('Ł'.repeat(50));
      expect(checkedName('Ł'.repeat(51))).toBeNull();
      expect(checkedName('R2D2')).toBeNull();
    });
  });

  describe('GET /api/auth/user', () => {
    it('answers 401 when signed out', async () => {
      const response = await t().client().get('/api/auth/user');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    });

    it('answers 401 for a forged cookie', async () => {
      const response = await t()
        .client()
        .request({ method: 'GET', url: '/api/auth/user', headers: { cookie: 'sendwell_session=forged' } });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('GET /api/auth/session (the quiet probe)', () => {
    it('answers 200 with no user when signed out or forged, and the PUBLIC_URL base', async () => {
      const signedOut = await t().client().get('/api/auth/session');
      expect(signedOut.statusCode).toBe(200);
      expect(signedOut.json()).toEqual({ user: null, publicUrl: t().ctx.config.publicUrl });
      const forged = await t()
        .client()
        .request({ method: 'GET', url: '/api/auth/session', headers: { cookie: 'sendwell_session=forged' } });
      expect(forged.json()).toMatchObject({ user: null });
    });

    it('answers the same user as GET /api/auth/user when signed in', async () => {
      const client = t().client();
      await client.post('/api/auth/signup', { ...validSignup, email: 'probe@example.com' });
      const probe = await client.get('/api/auth/session');
      expect(probe.statusCode).toBe(200);
      expect(probe.json().user).toEqual((await client.get('/api/auth/user')).json());
      expect(probe.json().user).not.toHaveProperty('passwordHash');
    });
  });

  describe('POST /api/auth/login', () => {
    it('gives the same 401 for an unknown email and a wrong password', async () => {
      await signUpUser(t(), { email: 'login-same@example.com', password: 'right-one' });
      const unknown = await t()
        .client()
        .post('/api/auth/login', { email: 'nobody@example.com', password: 'right-one' });
      const wrong = await t()
        .client()
        .post('/api/auth/login', { email: 'login-same@example.com', password: 'wrong-one' });
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.json()).toEqual({ message: 'Invalid email or password' });
      expect(wrong.json()).toEqual(unknown.json());
    });

    it('requires email and password', async () => {
      const response = await t().client().post('/api/auth/login', { email: '', password: '' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toMatchObject({ email: 'Email is required', password: 'Password is required' });
    });

    it('signs in case-insensitively under a new session id, ending the previous one', async () => {
      const { client, password } = await signUpUser(t(), { email: 'rotate@example.com' });
      const firstCookie = client.cookie();
      const response = await client.post('/api/auth/login', { email: 'ROTATE@example.com', password });
      expect(response.statusCode).toBe(200);
      expect(response.json().email).toBe('rotate@example.com');
      expect(client.cookie()).not.toBe(firstCookie);
      const stale = await t()
        .client()
        .request({ method: 'GET', url: '/api/auth/user', headers: { cookie: firstCookie ?? '' } });
      expect(stale.statusCode).toBe(401);
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session', async () => {
      const { client } = await signUpUser(t());
      const response = await client.post('/api/auth/logout');
      expect(response.statusCode).toBe(200);
      expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    });

    it('succeeds when already signed out', async () => {
      expect((await t().client().post('/api/auth/logout')).statusCode).toBe(200);
    });
  });

  describe('session expiry', () => {
    it('refuses a session idle past its expiry', async () => {
      const { client, user } = await signUpUser(t());
      await t().ctx.db.execute(
        sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id}`,
      );
      expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    });

    it('a session older than the absolute lifetime is refused even if active', async () => {
      const { client, user } = await signUpUser(t());
      await t().ctx.db.execute(
        sql`UPDATE sessions SET created_at = now() - interval '91 days', last_seen_at = now(), expires_at = now() + interval '20 days' WHERE user_id = ${user.id}`,
      );
      expect((await client.get('/api/auth/user')).statusCode).toBe(401);
    });

    it('never slides the expiry past 90 days after sign-in', async () => {
      const { client, user } = await signUpUser(t());
      await t().ctx.db.execute(
        sql`UPDATE sessions SET created_at = now() - interval '85 days', last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 day' WHERE user_id = ${user.id}`,
      );
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
      const result = await t().ctx.db.execute(
        sql`SELECT extract(epoch FROM expires_at - (created_at + interval '90 days'))::int AS past_lifetime FROM sessions WHERE user_id = ${user.id}`,
      );
      expect(Number((result.rows[0] as { past_lifetime: number }).past_lifetime)).toBe(0);
    });

    it('slides the 30-day expiry forward when the session is used', async () => {
      const { client, user } = await signUpUser(t());
      await t().ctx.db.execute(
        sql`UPDATE sessions SET last_seen_at = now() - interval '10 days', expires_at = now() + interval '20 days' WHERE user_id = ${user.id}`,
      );
      const response = await client.get('/api/auth/user');
      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'sendwell_session')?.maxAge).toBe(30 * 86400);
      const result = await t().ctx.db.execute(
        sql`SELECT extract(epoch FROM expires_at - now())::int AS seconds FROM sessions WHERE user_id = ${user.id}`,
      );
      expect(Number((result.rows[0] as { seconds: number }).seconds)).toBeGreaterThan(29 * 86400);
    });
  });

  describe('POST /api/auth/change-password', () => {
    it('needs a session', async () => {
      expect((await t().client().post('/api/auth/change-password', { newPassword: 'whatever1' })).statusCode).toBe(401);
    });

    it('refuses a short password with the spec message', async () => {
      const { client, password } = await signUpUser(t());
      const response = await client.post('/api/auth/change-password', {
        newPassword: 'abc',
        currentPassword: password,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Password must be at least 6 characters long');
    });

    it('123456 refused as a new password, on the newPassword field', async () => {
      const { client, password } = await signUpUser(t());
      const response = await client.post('/api/auth/change-password', {
        newPassword: '123456',
        currentPassword: password,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({
        newPassword: 'This password is too common. Choose one that is harder to guess.',
      });
      expect(
        (
          await t()
            .client()
            .post('/api/auth/login', { email: (await client.get('/api/auth/user')).json().email, password })
        ).statusCode,
      ).toBe(200);
    });

    it('asks for the current password outside a forced change, and checks it', async () => {
      const { client } = await signUpUser(t());
      const missing = await client.post('/api/auth/change-password', { newPassword: 'another-pass-1' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe('Please enter your current password');
      const wrong = await client.post('/api/auth/change-password', {
        newPassword: 'another-pass-1',
        currentPassword: 'nope-nope',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Current password is incorrect');
    });

    it('changes the password and ends the user’s other sessions', async () => {
      const { client, email, password } = await signUpUser(t());
      const other = t().client();
      expect((await other.post('/api/auth/login', { email, password })).statusCode).toBe(200);
      const response = await client.post('/api/auth/change-password', {
        newPassword: 'brand-new',
        currentPassword: password,
      });
      expect(response.statusCode).toBe(200);
      expect((await client.get('/api/auth/user')).statusCode).toBe(200);
      expect((await other.get('/api/auth/user')).statusCode).toBe(401);
      expect((await t().client().post('/api/auth/login', { email, password })).statusCode).toBe(401);
      expect((await t().client().post('/api/auth/login', { email, password: 'brand-new' })).statusCode).toBe(200);
    });
  });

  describe('temporary passwords', () => {
    it('logs in for an hour with a forced change, which clears the flag', async () => {
      const { email, client: oldClient } = await signUpUser(t());
      const issued = await issueTemporaryPassword(t().ctx.db, email.toUpperCase());
      expect(issued.password).toMatch(/^[A-Za-z2-9]{14}$/);
      expect(issued.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000);
      expect((await oldClient.get('/api/auth/user')).statusCode).toBe(401);
      const client = t().client();
      const login = await client.post('/api/auth/login', { email, password: issued.password });
      expect(login.statusCode).toBe(200);
      expect(login.json().passwordChangeRequired).toBe(true);
      const change = await client.post('/api/auth/change-password', { newPassword: 'my-own-pass' });
      expect(change.statusCode).toBe(200);
      expect((await client.get('/api/auth/user')).json().passwordChangeRequired).toBe(false);
      expect((await t().client().post('/api/auth/login', { email, password: issued.password })).statusCode).toBe(401);
    });

    it('refuses a common password in the forced change and keeps the change required', async () => {
      const { email } = await signUpUser(t());
      const issued = await issueTemporaryPassword(t().ctx.db, email);
      const client = t().client();
      expect((await client.post('/api/auth/login', { email, password: issued.password })).statusCode).toBe(200);
      const change = await client.post('/api/auth/change-password', { newPassword: 'password' });
      expect(change.statusCode).toBe(400);
      expect(change.json().message).toBe('This password is too common. Choose one that is harder to guess.');
      expect((await client.get('/api/auth/user')).json().passwordChangeRequired).toBe(true);
    });

    it('stops working after its hour', async () => {
      const { email } = await signUpUser(t());
      const issued = await issueTemporaryPassword(t().ctx.db, email);
      await t().ctx.db.execute(
        sql`UPDATE users SET temporary_password_expires_at = now() - interval '1 minute' WHERE email = ${email}`,
      );
      const response = await t().client().post('/api/auth/login', { email, password: issued.password });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid email or password' });
    });

    it('answers not found for an unknown email', async () => {
      await expect(issueTemporaryPassword(t().ctx.db, 'ghost@example.com')).rejects.toThrow(
        'No account with the email ghost@example.com',
      );
    });
  });

  describe('PATCH /api/auth/user', () => {
    it('updates the profile fields campaign footers need', async () => {
      const { client } = await signUpUser(t());
      const response = await client.patch('/api/auth/user', {
        firstName: 'Augusta',
        company: 'Babbage & Co',
        postalAddress: '12 St James’s Square, London',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        firstName: 'Augusta',
        lastName: 'Lovelace',
        company: 'Babbage & Co',
        postalAddress: '12 St James’s Square, London',
      });
    });

    it('refuses an empty first name and leaves the profile as it was', async () => {
      const { client } = await signUpUser(t(), { firstName: 'Kept' });
      const response = await client.patch('/api/auth/user', { firstName: ' ', company: 'Changed?' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.firstName).toBe('First name is required');
      expect((await client.get('/api/auth/user')).json()).toMatchObject({
        firstName: 'Kept',
        company: 'Analytical Engines',
      });
    });

    it('needs a session', async () => {
      expect((await t().client().patch('/api/auth/user', { firstName: 'X' })).statusCode).toBe(401);
    });
  });

  describe('cross-site requests', () => {
    it('refuses a mutating call from another origin with 403 and writes nothing', async () => {
      const before = await userCount();
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/auth/signup',
          headers: { origin: 'https://evil.example', host: 'localhost:5000' },
          payload: { ...validSignup, email: 'csrf@example.com' },
        });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'Cross-site request refused' });
      expect(await userCount()).toBe(before);
    });

    it('refuses a cross-site fetch without an Origin header', async () => {
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { 'sec-fetch-site': 'cross-site' },
        });
      expect(response.statusCode).toBe(403);
    });

    it('accepts the app’s own origin', async () => {
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/auth/login',
          headers: { origin: 'http://localhost:5000' },
          payload: { email: 'grace@example.com', password: 'hopper42' },
        });
      expect(response.statusCode).toBe(200);
    });

    it('lets mail providers reach the webhook path from anywhere', async () => {
      const response = await t()
        .client()
        .request({
          method: 'POST',
          url: '/api/webhook/email',
          headers: { origin: 'https://provider.example' },
          payload: {},
        });
      expect(response.statusCode).not.toBe(403);
    });
  });

  describe('GET /api/login', () => {
    it('redirects to the login screen', async () => {
      const response = await t().client().get('/api/login');
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/login');
    });
  });

  describe('security headers', () => {
    it('sends a CSP and the helmet headers', async () => {
      const response = await t().client().get('/api/pricing/plans');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});

describe('per-IP limits and https cookies', () => {
  const t = useTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3', PUBLIC_URL: 'https://mail.example.com' });

  it('limits login attempts per IP and answers 429 with a clear message', async () => {
    const client = t().client();
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await client.post('/api/auth/login', { email: `x${i}@example.com`, password: 'whatever' })).statusCode,
      ).toBe(401);
    }
    const limited = await client.post('/api/auth/login', { email: 'x9@example.com', password: 'whatever' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
  });

  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const response = await t()
      .client()
      .post('/api/auth/signup', { ...validSignup, email: 'secure@example.com' });
    expect(response.statusCode).toBe(201);
    expect(response.cookies.find((c) => c.name === 'sendwell_session')?.secure).toBe(true);
  });
});
