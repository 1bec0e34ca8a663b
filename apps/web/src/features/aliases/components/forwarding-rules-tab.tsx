import * as React from 'react';
import { ListFilter, Pencil, Plus, Trash2 } from 'lucide-react';
import { RULE_PRIORITY_MAX, type EmailAlias, type ForwardingRule } from '@sendwell/contract/aliases';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useDeleteRule, useForwardingRules, useUpdateRule } from '../api/use-aliases';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { RuleFormDialog } from './rule-form-dialog';

/** A rule's conditions in words ("From example.com · Subject contains “invoice”"). */
function conditionText(rule: ForwardingRule): string {
  const parts: string[] = [];
  if (rule.conditions.fromDomain) parts.push(`From ${rule.conditions.fromDomain}`);
  if (rule.conditions.subjectContains) parts.push(`Subject contains “${rule.conditions.subjectContains}”`);
  if (rule.conditions.hasAttachment) parts.push('Has an attachment');
  return parts.length > 0 ? parts.join(' · ') : 'Every message';
}

/** A rule's actions in words. */
function actionText(rule: ForwardingRule): string {
  if (rule.actions.block) return 'Block';
  const parts: string[] = [];
  if (rule.actions.forwardTo.length > 0) parts.push(`Forward to ${rule.actions.forwardTo.join(', ')}`);
  if (rule.actions.autoReply) parts.push('Auto-reply');
  return parts.join(' and ');
}

/** The Forwarding Rules tab: the alias's rules by priority; add, edit, switch on/off, delete (with confirmation). */
export function ForwardingRulesTab({ alias }: { alias: EmailAlias }) {
  const rules = useForwardingRules(alias.id);
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const [adding, setAdding] = React.useState(false);
  // The rule stays set while the dialog closes, so its title does not flip during the animation.
  const [editing, setEditing] = React.useState<ForwardingRule | null>(null);
  const [editOpen, setEditOpen] = React.useState(false);
  const [deleting, setDeleting] = React.useState<ForwardingRule | null>(null);
  const list = [...(rules.data ?? [])].sort((a, b) => a.priority - b.priority || a.id - b.id);
  const nextPriority = Math.min(RULE_PRIORITY_MAX, (list.at(-1)?.priority ?? 0) + 10);

  const confirmDelete = () => {
    const rule = deleting;
    if (!rule) return;
    remove.mutate(rule, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Rule Deleted', description: `“${rule.name}” no longer applies.` });
      },
      onError: (error) => {
        setDeleting(null);
        toastError(error, 'Failed to delete the forwarding rule. Please try again.');
      },
    });
  };

  const toggle = (rule: ForwardingRule, isActive: boolean) =>
    update.mutate(
      { id: rule.id, body: { isActive } },
      { onError: (error) => toastError(error, 'Failed to update the forwarding rule. Please try again.') },
    );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-muted-foreground text-sm">
          The first active rule whose conditions all hold decides; otherwise the alias&apos;s forwarding type does.
        </p>
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" />
          Add Rule
        </Button>
      </div>
      {rules.isLoading ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading rules">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : rules.isError ? (
        <p className="text-destructive text-sm" role="alert">
          Could not load the rules. Please refresh the page.
        </p>
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center">
          <ListFilter className="text-muted-foreground size-6" aria-hidden="true" />
          <h3 className="font-semibold">No rules yet</h3>
          <p className="text-muted-foreground max-w-sm text-sm">
            Route by sender domain, subject or attachment: forward, block or answer automatically.
          </p>
        </div>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Forwarding rules">
          {list.map((rule) => (
            <li key={rule.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center" data-rule={rule.name}>
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="outline" title="Priority">
                    <span className="sr-only">Priority</span>
                    {rule.priority}
                  </Badge>
                  <span className="font-medium break-all">{rule.name}</span>
                  {rule.actions.block && <Badge variant="secondary">Block</Badge>}
                </div>
                <p className="text-muted-foreground text-sm break-words">
                  {conditionText(rule)} → {actionText(rule)}
                </p>
                {rule.pendingForwardTo.length > 0 && (
                  <p className="text-xs text-amber-800 dark:text-amber-300">
                    Awaiting confirmation: {rule.pendingForwardTo.join(', ')}
                  </p>
                )}
              </div>
              <div className="flex items-center gap-2">
                <Switch
                  checked={rule.isActive}
                  onCheckedChange={(on) => toggle(rule, on)}
                  aria-label={`Rule ${rule.name} active`}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setEditing(rule);
                    setEditOpen(true);
                  }}
                  aria-label={`Edit rule ${rule.name}`}
                  title={`Edit rule ${rule.name}`}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setDeleting(rule)}
                  aria-label={`Delete rule ${rule.name}`}
                  title={`Delete rule ${rule.name}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <RuleFormDialog alias={alias} nextPriority={nextPriority} open={adding} onOpenChange={setAdding} />
      <RuleFormDialog
        alias={alias}
        nextPriority={nextPriority}
        rule={editing}
        open={editOpen && editing !== null}
        onOpenChange={setEditOpen}
      />
      <ConfirmDeleteDialog
        title={deleting ? `Delete rule “${deleting.name}”?` : null}
        description="Messages it matched will follow the next rule or the alias's forwarding type."
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
