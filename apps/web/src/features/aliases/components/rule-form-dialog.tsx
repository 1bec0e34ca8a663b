import * as React from 'react';
import { Plus, Save } from 'lucide-react';
import {
  createRuleBodySchema,
  RULE_PRIORITY_MAX,
  RULE_PRIORITY_MIN,
  updateRuleBodySchema,
  type EmailAlias,
  type ForwardingRule,
} from '@sendwell/contract/aliases';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateRule, useUpdateRule } from '../api/use-aliases';
import {
  draftOfRule,
  emptyRuleDraft,
  ruleBodyOf,
  ruleErrorKey,
  ruleUpdateOf,
  type RuleDraft,
  type RuleErrors,
} from '../rule-draft';

/**
 * Add Rule (spec §5 Forwarding rule): name, priority 1–100, conditions (from domain, subject
 * contains, has attachment: all given must hold) and actions (forward to, auto-reply, or block).
 * Given `rule`, the same form edits it (its conditions and actions replaced as a whole).
 */
export function RuleFormDialog({
  alias,
  nextPriority,
  rule = null,
  open,
  onOpenChange,
}: {
  alias: EmailAlias;
  nextPriority: number;
  rule?: ForwardingRule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateRule();
  const update = useUpdateRule();
  const pending = rule ? update.isPending : create.isPending;
  const [draft, setDraft] = React.useState(() => (rule ? draftOfRule(rule) : emptyRuleDraft(nextPriority)));
  const [errors, setErrors] = React.useState<RuleErrors>({});
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  React.useEffect(() => {
    if (open) {
      setDraft(rule ? draftOfRule(rule) : emptyRuleDraft(nextPriority));
      setErrors({});
    }
  }, [open, nextPriority, rule]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = ruleBodyOf(draft, alias.id);
    const parsed = rule
      ? updateRuleBodySchema.safeParse(ruleUpdateOf(draft, rule.isActive))
      : createRuleBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: RuleErrors = {};
      for (const issue of parsed.error.issues) {
        const key = ruleErrorKey(issue.path);
        if (key) next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    const onError = (error: Error) => {
      const next: RuleErrors = {};
      for (const [path, message] of Object.entries(getApiErrorFields(error))) {
        const key = ruleErrorKey(path.split('.'));
        if (key) next[key] ??= message;
      }
      setErrors(next);
      toastError(
        error,
        rule
          ? 'Failed to update the forwarding rule. Please try again.'
          : 'Failed to create the forwarding rule. Please try again.',
        { serverMessage: 'client-error' },
      );
    };
    if (rule) {
      update.mutate(
        { id: rule.id, body: ruleUpdateOf(draft, rule.isActive) },
        {
          onSuccess: (saved) => {
            toast({ title: 'Rule Updated', description: `“${saved.name}” is saved.` });
            onOpenChange(false);
          },
          onError,
        },
      );
      return;
    }
    create.mutate(body, {
      onSuccess: (created) => {
        toast({ title: 'Rule Created', description: `“${created.name}” now applies to ${alias.address}.` });
        onOpenChange(false);
      },
      onError,
    });
  };

  const invalid = (key: keyof RuleErrors) =>
    errors[key] ? { 'aria-invalid': true, 'aria-describedby': `rule-${key}-error` } : {};

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{rule ? `Edit rule “${rule.name}”` : 'Add forwarding rule'}</DialogTitle>
          <DialogDescription>
            Rules run by ascending priority; the first whose conditions all hold decides what happens to a message.
          </DialogDescription>
        </DialogHeader>
        <form id="rule-form" onSubmit={submit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <div className="space-y-1.5">
              <Label htmlFor="rule-name">Rule name</Label>
              <Input
                id="rule-name"
                value={draft.name}
                onChange={(e) => set('name', e.target.value)}
                {...invalid('name')}
              />
              <FieldError id="rule-name-error" message={errors.name} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="rule-priority">Priority</Label>
              <Input
                id="rule-priority"
                type="number"
                inputMode="numeric"
                min={RULE_PRIORITY_MIN}
                max={RULE_PRIORITY_MAX}
                value={draft.priority}
                onChange={(e) => set('priority', e.target.value)}
                {...invalid('priority')}
              />
              <FieldError id="rule-priority-error" message={errors.priority} />
            </div>
          </div>

          <fieldset className="space-y-3 rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">When (all that are filled in)</legend>
            <div className="space-y-1.5">
              <Label htmlFor="rule-from-domain">Sender&apos;s domain is</Label>
              <Input
                id="rule-from-domain"
                placeholder="example.com"
                value={draft.fromDomain}
                onChange={(e) => set('fromDomain', e.target.value)}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="rule-subject">Subject contains</Label>
              <Input
                id="rule-subject"
                placeholder="invoice"
                value={draft.subjectContains}
                onChange={(e) => set('subjectContains', e.target.value)}
              />
            </div>
            <div className="flex items-center gap-2">
              <Checkbox
                id="rule-attachment"
                checked={draft.hasAttachment}
                onCheckedChange={(on) => set('hasAttachment', on === true)}
              />
              <Label htmlFor="rule-attachment">Has an attachment</Label>
            </div>
          </fieldset>

          <fieldset
            className="space-y-3 rounded-md border p-3"
            aria-describedby={errors.actions ? 'rule-actions-error' : undefined}
          >
            <legend className="px-1 text-sm font-medium">Then</legend>
            <div className="flex items-center gap-2">
              <Checkbox id="rule-block" checked={draft.block} onCheckedChange={(on) => set('block', on === true)} />
              <Label htmlFor="rule-block">Block the message</Label>
            </div>
            <div className="flex items-center gap-2">
              <Checkbox
                id="rule-forward"
                checked={draft.forward && !draft.block}
                disabled={draft.block}
                onCheckedChange={(on) => set('forward', on === true)}
              />
              <Label htmlFor="rule-forward">Forward to</Label>
            </div>
            {draft.forward && !draft.block && (
              <div className="space-y-1.5 pl-6">
                <Label htmlFor="rule-forward-to" className="sr-only">
                  Forward to addresses
                </Label>
                <Input
                  id="rule-forward-to"
                  placeholder="team@example.com, boss@example.com"
                  value={draft.forwardTo}
                  onChange={(e) => set('forwardTo', e.target.value)}
                  {...invalid('forwardTo')}
                />
                <FieldError id="rule-forwardTo-error" message={errors.forwardTo} />
                <p className="text-muted-foreground text-xs">
                  New addresses get a confirmation link and nothing until they follow it.
                </p>
              </div>
            )}
            <div className="flex items-center gap-2">
              <Checkbox
                id="rule-auto-reply"
                checked={draft.autoReply && !draft.block}
                disabled={draft.block}
                onCheckedChange={(on) => set('autoReply', on === true)}
              />
              <Label htmlFor="rule-auto-reply">Auto-reply</Label>
            </div>
            {draft.autoReply && !draft.block && (
              <div className="space-y-1.5 pl-6">
                <Label htmlFor="rule-auto-reply-message">Auto-reply message</Label>
                <Textarea
                  id="rule-auto-reply-message"
                  rows={3}
                  value={draft.autoReplyMessage}
                  onChange={(e) => set('autoReplyMessage', e.target.value)}
                  {...invalid('autoReplyMessage')}
                />
                <FieldError id="rule-autoReplyMessage-error" message={errors.autoReplyMessage} />
              </div>
            )}
            <FieldError id="rule-actions-error" message={errors.actions} />
          </fieldset>
        </form>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="rule-form" disabled={pending}>
            {pending ? (
              <Spinner className="size-4" label="Saving" />
            ) : rule ? (
              <Save aria-hidden="true" />
            ) : (
              <Plus aria-hidden="true" />
            )}
            {rule ? 'Save Rule' : 'Add Rule'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
