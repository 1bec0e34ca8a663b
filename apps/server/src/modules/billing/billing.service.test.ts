import { describe, expect, it } from 'vitest';
import {
  assertCanSend,
  monthlyLimitReachedReason,
  monthlySendAllowance,
  sendingBlockedReason,
  usageWarning,
} from './billing.service.ts';

const on = { billingEnabled: true };
const off = { billingEnabled: false };
const DAY = 86_400_000;
const now = new Date('2026-11-24T12:00:00Z');
const account = (values: Partial<Parameters<typeof sendingBlockedReason>[1]> = {}) => ({
  plan: 'starter',
  subscriptionStatus: 'active',
  trialEndsAt: null,
  pastDueSince: null,
  ...values,
});

describe('plan rules', () => {
  it('pause sending after a trial ends, on cancel and after 7 days past_due; never when unlimited or BILLING=off', () => {
    expect(sendingBlockedReason(on, account(), now)).toBeNull();
    const ended = account({ subscriptionStatus: 'trialing', trialEndsAt: new Date(now.getTime() - 1) });
    expect(sendingBlockedReason(on, ended, now)).toMatch(/^Your free trial has ended/);
    expect(sendingBlockedReason(on, { ...ended, subscriptionStatus: null }, now)).toMatch(/^Your free trial has ended/);
    expect(
      sendingBlockedReason(
        on,
        account({ subscriptionStatus: 'trialing', trialEndsAt: new Date(now.getTime() + DAY) }),
        now,
      ),
    ).toBeNull();
    expect(sendingBlockedReason(on, account({ subscriptionStatus: 'canceled' }), now)).toMatch(/canceled/);
    const pastDue = (days: number) =>
      account({ subscriptionStatus: 'past_due', pastDueSince: new Date(now.getTime() - days * DAY) });
    expect(sendingBlockedReason(on, pastDue(6), now)).toBeNull();
    expect(sendingBlockedReason(on, pastDue(8), now)).toMatch(/overdue/);
    expect(sendingBlockedReason(on, { ...pastDue(8), plan: 'unlimited' }, now)).toBeNull();
    expect(sendingBlockedReason(off, pastDue(8), now)).toBeNull();
  });

  it('count the monthly allowance and refuse a send past it, saying how many remain', () => {
    expect(monthlySendAllowance(on, { plan: 'starter' }, 14_000)).toBe(1_000);
    expect(monthlySendAllowance(on, { plan: 'starter' }, 16_000)).toBe(0);
    expect(monthlySendAllowance(on, { plan: 'enterprise' }, 10 ** 9)).toBeNull();
    expect(monthlySendAllowance(off, { plan: 'starter' }, 10 ** 9)).toBeNull();
    expect(() => assertCanSend(on, account(), 1_001, 14_000, undefined, now)).toThrow(
      'This send has 1,001 recipients but your plan has 1,000 emails left this month.',
    );
    expect(() => assertCanSend(on, account(), 1_000, 14_000, undefined, now)).not.toThrow();
  });

  it('warn once when a change crosses 80% and once when it reaches 100%', () => {
    expect(usageWarning('subscribers', 1_999, 2_000, 2_500, 'Starter')?.title).toBe(
      "You have used 80% of your plan's subscribers",
    );
    expect(usageWarning('subscribers', 2_000, 2_001, 2_500, 'Starter')).toBeNull();
    expect(usageWarning('emails', 14_000, 15_000, 15_000, 'Starter')).toEqual({
      title: "You have reached your plan's monthly email limit",
      body: '15,000 of 15,000 emails this month on your Starter plan. Upgrade on the Billing page to send more this month.',
      link: '/billing',
      threshold: 1,
    });
    // One change past both thresholds gives the higher one only.
    expect(usageWarning('emails', 0, 15_000, 15_000, 'Starter')?.title).toMatch(/reached/);
    expect(usageWarning('emails', 0, 10 ** 6, null, 'Enterprise')).toBeNull();
  });

  it("pause sending (the banner) once the month's emails are used up, saying when they renew", () => {
    const on = { billingEnabled: true };
    const now = new Date('2026-11-24T12:00:00Z');
    expect(monthlyLimitReachedReason(on, { plan: 'starter' }, 14_999, now)).toBeNull();
    expect(monthlyLimitReachedReason(on, { plan: 'starter' }, 15_000, now)).toBe(
      'You have used all 15,000 emails of your Starter plan this month, so sending is paused. Forwarded mail waits and goes out on December 1, or as soon as you upgrade on the Billing page.',
    );
    expect(monthlyLimitReachedReason({ billingEnabled: false }, { plan: 'starter' }, 10 ** 6, now)).toBeNull();
    expect(monthlyLimitReachedReason(on, { plan: 'enterprise' }, 10 ** 6, now)).toBeNull();
  });
});
