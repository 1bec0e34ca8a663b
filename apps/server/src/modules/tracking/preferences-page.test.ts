import { describe, expect, it } from 'vitest';
import { maskEmail, subscriptionPage, unsubscribedPage } from './preferences-page.ts';
import { requestedAction, requestedListId } from './tracking.routes.ts';

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
    lists: [] as { id: number; name: string }[],
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

  it('lists the lists on the preferences page, each with its own Leave form (names escaped)', () => {
    const withLists = { ...view, lists: [{ id: 7, name: 'Spring <news>' }] };
    const page = subscriptionPage(withLists, { action: '/u/abc.def', mode: 'preferences' });
    expect(page).toContain('Spring &lt;news&gt;');
    expect(page).toContain('value="leave-list"');
    expect(page).toContain('name="listId" value="7"');
    expect(page).toContain('value="unsubscribe"');
    // The unsubscribe page stays one decision.
    expect(subscriptionPage(withLists, { action: '/u/abc.def', mode: 'unsubscribe' })).not.toContain('leave-list');
    expect(requestedAction('action=leave-list&listId=7')).toBe('leave-list');
    expect(requestedListId('action=leave-list&listId=7')).toBe(7);
    expect(requestedListId('action=leave-list&listId=x')).toBeNull();
  });
});
