import type { CreateRuleBody, ForwardingRule, UpdateRuleBody } from '@sendwell/contract/aliases';

/** A new rule's form: priority after the last rule's, forwarding checked. */
export const emptyRuleDraft = (priority: number) => ({
  name: '',
  priority: String(priority),
  fromDomain: '',
  subjectContains: '',
  hasAttachment: false,
  forward: true,
  forwardTo: '',
  autoReply: false,
  autoReplyMessage: '',
  block: false,
});
export type RuleDraft = ReturnType<typeof emptyRuleDraft>;

/** An existing rule's form, to edit it. */
export function draftOfRule(rule: ForwardingRule): RuleDraft {
  return {
    name: rule.name,
    priority: String(rule.priority),
    fromDomain: rule.conditions.fromDomain ?? '',
    subjectContains: rule.conditions.subjectContains ?? '',
    hasAttachment: rule.conditions.hasAttachment === true,
    forward: rule.actions.block || rule.actions.forwardTo.length > 0,
    forwardTo: rule.actions.forwardTo.join(', '),
    autoReply: rule.actions.autoReply,
    autoReplyMessage: rule.actions.autoReplyMessage ?? '',
    block: rule.actions.block,
  };
}

/** The PATCH body of an edit: every field, conditions and actions whole (they replace the stored ones). */
export function ruleUpdateOf(draft: RuleDraft, isActive: boolean): UpdateRuleBody {
  const { name, priority, conditions, actions } = ruleBodyOf(draft, 0);
  return { name, priority, conditions, actions, isActive };
}
export type RuleErrors = Partial<Record<'name' | 'priority' | 'forwardTo' | 'autoReplyMessage' | 'actions', string>>;

/** The body a draft asks for: addresses split on commas, spaces and new lines; unchecked actions off. */
export function ruleBodyOf(draft: RuleDraft, aliasId: number): CreateRuleBody {
  const trimmed = draft.priority.trim();
  return {
    name: draft.name,
    priority: trimmed === '' ? Number.NaN : Number(trimmed),
    conditions: {
      fromDomain: draft.fromDomain,
      subjectContains: draft.subjectContains,
      ...(draft.hasAttachment ? { hasAttachment: true } : {}),
    },
    actions: {
      block: draft.block,
      forwardTo: !draft.block && draft.forward ? draft.forwardTo.split(/[\s,;]+/).filter(Boolean) : [],
      autoReply: !draft.block && draft.autoReply,
      autoReplyMessage: !draft.block && draft.autoReply ? draft.autoReplyMessage : null,
    },
    aliasId,
  };
}

/** Where a contract issue shows: the field it is about, or the actions group. */
export function ruleErrorKey(path: readonly PropertyKey[]): keyof RuleErrors | null {
  const [first, second] = path;
  if (first === 'name' || first === 'priority') return first;
  if (first === 'actions') {
    if (second === 'forwardTo') return 'forwardTo';
    if (second === 'autoReplyMessage') return 'autoReplyMessage';
    return 'actions';
  }
  return null;
}
