import { describe, expect, it } from 'vitest';
import { plansResponseSchema } from '@sendwell/contract/billing';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';

describe('pricing and checkout hand-off', () => {
  const t = useTestApp();

  it('GET /api/pricing/plans answers the catalogue as an object of plans', async () => {
    const response = await t().client().get('/api/pricing/plans');
    expect(response.statusCode).toBe(200);
    const plans = plansResponseSchema.parse(response.json());
    expect(Object.keys(plans)).toEqual(['starter', 'pro', 'enterprise', 'unlimited']);
    expect(plans.starter).toMatchObject({
      price: 19,
      popular: false,
      limits: { subscribers: 2500, emailsPerMonth: 15000 },
    });
    expect(plans.pro).toMatchObject({
      price: 49,
      popular: true,
      limits: { subscribers: 10000, emailsPerMonth: 100000 },
    });
    expect(plans.enterprise).toMatchObject({
      price: 149,
      popular: false,
      limits: { subscribers: null, emailsPerMonth: null },
    });
    expect(plans.enterprise.cta.label).toBe('Contact Sales');
    expect(plans.starter.features).toContain('Custom domain sending');
    expect(plans.pro.features).toContain('A/B testing');
    expect(plans.enterprise.features).toContain('Dedicated IP');
  });

  it('create-checkout needs a session', async () => {
    const response = await t().client().post('/api/payment/create-checkout', { planId: 'pro' });
    expect(response.statusCode).toBe(401);
  });

  it('create-checkout answers 503 "Stripe checkout not configured" without a Stripe key', async () => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/payment/create-checkout', { planId: 'pro' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'Stripe checkout not configured' });
  });

  it('create-checkout refuses an unknown plan with 400', async () => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/payment/create-checkout', { planId: 'platinum' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.planId).toBe('Please choose a valid plan');
  });

  it('billing-portal answers 503 "not configured" without a Stripe key', async () => {
    const { client } = await signUpUser(t());
    const response = await client.post('/api/payment/billing-portal');
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toContain('not configured');
  });
});

describe('unlimited plan activation', () => {
  const t = useTestApp({ UNLIMITED_EMAILS: 'owner@example.com, Boss@Example.com' });

  it('refuses wrong credentials', async () => {
    await signUpUser(t(), { email: 'owner@example.com', password: 'owner-pass' });
    const response = await t()
      .client()
      .post('/api/admin/setup-unlimited-user', { email: 'owner@example.com', password: 'nope' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: false, message: 'Invalid credentials' });
  });

  it('refuses an account that is not on the entitlement list', async () => {
    const { email, password, client } = await signUpUser(t(), { email: 'someone@example.com' });
    const response = await t().client().post('/api/admin/setup-unlimited-user', { email, password });
    expect(response.json()).toEqual({ success: false, message: 'This account is not entitled to the Unlimited plan' });
    expect((await client.get('/api/auth/user')).json().plan).toBe('pro');
  });

  it('grants the plan to an entitled account with its own credentials and signs it in', async () => {
    const { client } = await signUpUser(t(), { email: 'boss@example.com', password: 'boss-pass' });
    const visitor = t().client();
    const response = await visitor.post('/api/admin/setup-unlimited-user', {
      email: 'BOSS@example.com',
      password: 'boss-pass',
    });
    expect(response.json()).toEqual({ success: true, message: 'Unlimited plan activated' });
    expect((await client.get('/api/auth/user')).json()).toMatchObject({
      plan: 'unlimited',
      subscriptionStatus: 'active',
      trialEndsAt: null,
    });
    expect((await visitor.get('/api/auth/user')).json()).toMatchObject({
      email: 'boss@example.com',
      plan: 'unlimited',
    });
  });

  it('validates the body', async () => {
    const response = await t().client().post('/api/admin/setup-unlimited-user', { email: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ email: 'Email is required', password: 'Password is required' });
  });
});
