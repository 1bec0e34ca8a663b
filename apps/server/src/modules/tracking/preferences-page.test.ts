import { describe, expect, it } from 'vitest';
import { maskEmail, subscriptionPage, unsubscribedPage } from './preferences-page.ts';
import { requestedAction } from './tracking.routes.ts';

describe('maskEmail', () => {
  it('keeps the first character and the domain, and hides the length of the rest', () => {
    expect(maskEmail('ann@example.com')).toBe('a•••@example.com');
    expect(maskEmail('a@x.io')).toBe('a•••@x.io');
    expect(maskEmail('averyveryverylongname@x.io')).toBe('a•••@x.io');
    expect(maskEmail('no-at-sign')).toBe('•••');
  });
});

describe('requestedAction', () => {
  it('reads the form field; one-click and empty bodies unsubscribe; anything else is refused', () => {
    expect(requestedAction('action=resubscribe')).toBe('resubscribe');
    expect(requestedAction('action=unsubscribe')).toBe('unsubscribe');
    expect(requestedAction('List-Unsubscribe=One-Click')).toBe('unsubscribe');
    expect(requestedAction(undefined)).toBe('unsubscribe');
    expect(requestedAction('')).toBe('unsubscribe');
    expect(requestedAction({ action: 'resubscribe' })).toBe('resubscribe');
    expect(requestedAction('action=delete')).toBeNull();
    expect(requestedAction({ action: 3 })).toBeNull();
  });
});

describe('recipient pages', () => {
  const view = {
    email: 'ann@x.io',
    sender: '<b>Evil & Co</b>',
    senderAddress: 'a"b@x.io',
    status: 'subscribed' as const,
  };
  it('escapes everything the sender chose and offers the one form that fits', () => {
    const page = subscriptionPage(view, { action: '/u/abc.def', mode: 'preferences' });
    expect(page).toContain('&lt;b&gt;Evil &amp; Co&lt;/b&gt;');
    expect(page).not.toContain('<b>Evil');
    expect(page).toContain('a&quot;b@x.io');
    expect(page).toContain('value="unsubscribe"');
    expect(page).not.toContain('value="resubscribe"');
    expect(page).not.toContain('<script');
    expect(unsubscribedPage({ ...view, status: 'unsubscribed' }, '/u/abc.def')).toContain('value="resubscribe"');
    // After a bounce the address stays stopped: no resubscribe offered.
    expect(unsubscribedPage({ ...view, status: 'bounced' }, '/u/abc.def')).not.toContain('<form');
  });
});
