import { describe, expect, it } from 'vitest';
import { createRuleBodySchema, updateRuleBodySchema, type ForwardingRule } from '@sendwell/contract/aliases';

import { draftOfRule, emptyRuleDraft, ruleBodyOf, ruleErrorKey, ruleUpdateOf } from './rule-draft';

describe('ruleBodyOf', () => {
  it('splits the forward-to addresses and drops unchecked actions', () => {
    const body = ruleBodyOf(
      { ...emptyRuleDraft(10), name: 'Team', forwardTo: 'a@x.io, b@x.io\nc@x.io', hasAttachment: true },
      7,
    );
    expect(body).toMatchObject({
      priority: 10,
      aliasId: 7,
      conditions: { hasAttachment: true },
      actions: { block: false, forwardTo: ['a@x.io', 'b@x.io', 'c@x.io'], autoReply: false, autoReplyMessage: null },
    });
    expect(createRuleBodySchema.safeParse(body).success).toBe(true);
  });

  it('blocks alone when Block is checked, whatever else is', () => {
    const body = ruleBodyOf(
      { ...emptyRuleDraft(5), name: 'Spam', block: true, forwardTo: 'a@x.io', autoReply: true },
      1,
    );
    expect(body.actions).toEqual({ block: true, forwardTo: [], autoReply: false, autoReplyMessage: null });
  });

  it('gives the spec’s messages for a missing name, a priority out of 1–100 and no action', () => {
    const parsed = createRuleBodySchema.safeParse(
      ruleBodyOf({ ...emptyRuleDraft(1), priority: '101', forward: false }, 1),
    );
    expect(parsed.success).toBe(false);
    const byKey = Object.fromEntries((parsed.error?.issues ?? []).map((i) => [ruleErrorKey(i.path), i.message]));
    expect(byKey).toEqual({
      name: 'Rule name is required',
      priority: 'Priority must be a number from 1 to 100',
      actions: 'Choose an action: forward, block or auto-reply',
    });
  });
});

describe('draftOfRule and ruleUpdateOf', () => {
  it('fills the form from a rule and gives back the same rule as a complete edit', () => {
    const rule: ForwardingRule = {
      id: 3,
      name: 'Invoices',
      priority: 20,
      isActive: false,
      conditions: { fromDomain: 'billing.example', hasAttachment: true },
      actions: { forwardTo: ['a@x.io', 'b@x.io'], block: false, autoReply: true, autoReplyMessage: 'Thanks' },
      pendingForwardTo: [],
      aliasId: 9,
      createdAt: '2026-01-01T00:00:00.000Z',
    } as ForwardingRule;
    const draft = draftOfRule(rule);
    expect(draft).toMatchObject({ name: 'Invoices', priority: '20', fromDomain: 'billing.example', forward: true });
    const body = ruleUpdateOf(draft, rule.isActive);
    expect(updateRuleBodySchema.parse(body)).toEqual({
      name: 'Invoices',
      priority: 20,
      isActive: false,
      conditions: { fromDomain: 'billing.example', hasAttachment: true },
      actions: { forwardTo: ['a@x.io', 'b@x.io'], block: false, autoReply: true, autoReplyMessage: 'Thanks' },
    });
  });

  it('leaves Forward to unchecked for a rule that only auto-replies', () => {
    const draft = draftOfRule({
      id: 1,
      name: 'Away',
      priority: 1,
      isActive: true,
      conditions: {},
      actions: { forwardTo: [], block: false, autoReply: true, autoReplyMessage: 'Away' },
      pendingForwardTo: [],
      aliasId: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
    } as ForwardingRule);
    expect(draft.forward).toBe(false);
  });
});
