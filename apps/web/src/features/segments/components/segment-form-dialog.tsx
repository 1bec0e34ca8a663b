import { Controller, useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, Plus } from 'lucide-react';
import type { z } from 'zod';
import { createSegmentBodySchema, type CreateSegmentBody, type Segment } from '@sendwell/contract/segments';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
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
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { useCreateSegment, useUpdateSegment } from '../api/use-segments';
import { useLastNonNull } from '../use-last-non-null';
import { newRuleId } from '../segment-ids';
import { humanizeRuleMessage, newRule, type EditableRule } from '../segment-rules';
import { MatchPreview } from './match-preview';
import { RuleRow, ruleValueInputId, type RuleErrors } from './rule-row';
import { SEGMENT_FAILURE, toastSegmentSuccess } from './segment-feedback';

/** The editor's values: the contract's create body with every text present and rule values as strings. */
interface SegmentFormValues extends CreateSegmentBody {
  name: string;
  description: string;
  isActive: boolean;
  isAutoUpdate: boolean;
  conditions: { operator: 'AND' | 'OR'; rules: EditableRule[] };
}

type SegmentFormOutput = z.output<typeof createSegmentBodySchema>;

/**
 * The contract's schema validates the form. Its resolver is typed by the schema's looser input; the
 * form's values are a subtype of that input (see SegmentFormValues), so narrowing the type is sound.
 */
const segmentResolver = zodResolver(createSegmentBodySchema) as unknown as Resolver<
  SegmentFormValues,
  unknown,
  SegmentFormOutput
>;

/** What the dialog edits: a new segment (blank or from a template) or an existing one. */
export type SegmentDialogTarget =
  { kind: 'create'; initial?: CreateSegmentBody; templateName?: string } | { kind: 'edit'; segment: Segment };

function toFormValues(source: CreateSegmentBody | Segment | undefined): SegmentFormValues {
  const rules = (source?.conditions.rules ?? []).map((rule) => ({
    // Template rules carry fixed ids; every rule in the editor gets its own.
    id: newRuleId(),
    field: rule.field,
    operator: rule.operator,
    value: rule.value === null || rule.value === undefined ? '' : String(rule.value),
  }));
  return {
    name: source?.name ?? '',
    description: source?.description ?? '',
    isActive: source?.isActive ?? true,
    isAutoUpdate: source?.isAutoUpdate ?? false,
    conditions: {
      operator: source?.conditions.operator ?? 'AND',
      rules: rules.length > 0 ? rules : [newRule(newRuleId())],
    },
  };
}

/** Paths of a server 400's `fields` that this form shows next to a control. */
function isFormPath(key: string): key is FieldPath<SegmentFormValues> {
  return key === 'name' || key === 'description' || /^conditions\.rules\.\d+\.(field|operator|value)$/.test(key);
}

/** The Create / Edit Segment dialog (spec §2, §5). Unmounting on close resets it. */
export function SegmentFormDialog({
  target,
  onOpenChange,
  onSaved,
}: {
  target: SegmentDialogTarget | null;
  onOpenChange: (open: boolean) => void;
  onSaved?: (segment: Segment) => void;
}) {
  // The content stays filled while the dialog animates closed.
  const shown = useLastNonNull(target);
  return (
    <Dialog open={target !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        {shown && (
          <SegmentForm
            key={shown.kind === 'edit' ? `edit-${shown.segment.id}` : `create-${shown.templateName ?? ''}`}
            target={shown}
            onCancel={() => onOpenChange(false)}
            onSaved={(segment) => {
              onOpenChange(false);
              onSaved?.(segment);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function SegmentForm({
  target,
  onCancel,
  onSaved,
}: {
  target: SegmentDialogTarget;
  onCancel: () => void;
  onSaved: (segment: Segment) => void;
}) {
  const editing = target.kind === 'edit' ? target.segment : null;
  const createSegment = useCreateSegment();
  const updateSegment = useUpdateSegment();
  const form = useForm<SegmentFormValues, unknown, SegmentFormOutput>({
    resolver: segmentResolver,
    defaultValues: toFormValues(editing ?? (target.kind === 'create' ? target.initial : undefined)),
  });
  const { errors, isSubmitted } = form.formState;
  const name = useWatch({ control: form.control, name: 'name' });
  const operator = useWatch({ control: form.control, name: 'conditions.operator' });
  const rules = useWatch({ control: form.control, name: 'conditions.rules' });
  const pending = createSegment.isPending || updateSegment.isPending;

  const setRules = (next: EditableRule[]) =>
    form.setValue('conditions.rules', next, { shouldDirty: true, shouldValidate: isSubmitted });

  const onSubmit = form.handleSubmit(
    async (body) => {
      form.clearErrors('root.server');
      try {
        const saved = editing
          ? await updateSegment.mutateAsync({ id: editing.id, body })
          : await createSegment.mutateAsync(body);
        toastSegmentSuccess(editing ? 'Contact segment updated successfully' : 'Contact segment created successfully');
        onSaved(saved);
      } catch (error) {
        showServerError(error);
        toastError(error, editing ? SEGMENT_FAILURE.update : SEGMENT_FAILURE.create, { serverMessage: 'never' });
      }
    },
    () => {
      // Move to the first rule that needs a value; the message is shown under that rule.
      const current = form.getValues('conditions.rules');
      const rule = current.find((_, index) => form.getFieldState(`conditions.rules.${index}`).invalid);
      const input = rule ? document.getElementById(ruleValueInputId(rule.id)) : null;
      if (!input) return;
      input.focus({ preventScroll: true });
      // Centre the whole rule once its message has rendered, so the sticky footer does not cover it.
      requestAnimationFrame(() => input.closest('li')?.scrollIntoView({ block: 'center' }));
    },
  );

  function showServerError(error: unknown) {
    if (getApiErrorStatus(error) !== 400) return;
    let placed = false;
    for (const [key, message] of Object.entries(getApiErrorFields(error))) {
      if (isFormPath(key)) {
        form.setError(key, { message });
        placed = true;
      }
    }
    if (!placed)
      form.setError('root.server', { message: getApiErrorMessage(error) ?? 'The segment could not be saved.' });
  }

  const ruleErrors = (index: number, rule: EditableRule): RuleErrors | undefined => {
    const ruleError = errors.conditions?.rules?.[index];
    if (!ruleError) return undefined;
    const humanize = (message: string | undefined) => (message ? humanizeRuleMessage(message, rule.field) : undefined);
    return {
      field: humanize(ruleError.field?.message),
      operator: humanize(ruleError.operator?.message),
      value: humanize(ruleError.value?.message),
    };
  };
  const rulesMessage = errors.conditions?.rules?.message ?? errors.conditions?.rules?.root?.message;
  const title = editing ? 'Edit Segment' : 'Create Segment';
  const description = editing
    ? 'Change the rules and settings of this segment. Saving recomputes its members.'
    : target.kind === 'create' && target.templateName
      ? `Prefilled from the ${target.templateName} template. Adjust anything before saving.`
      : 'Group contacts that match a set of rules.';

  return (
    <>
      <DialogHeader className="pr-6">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="min-w-0 space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor="segment-name">Name</Label>
            <Input
              id="segment-name"
              placeholder="e.g. Engaged customers"
              maxLength={120}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 'segment-name-error' : undefined}
              {...form.register('name')}
            />
            {errors.name && (
              <p id="segment-name-error" className="text-destructive text-sm">
                {errors.name.message}
              </p>
            )}
          </div>
          <div className="space-y-2 sm:row-span-2">
            <Label htmlFor="segment-description">Description</Label>
            <Textarea
              id="segment-description"
              placeholder="What this segment is for (optional)"
              rows={3}
              maxLength={1000}
              aria-invalid={errors.description ? true : undefined}
              {...form.register('description')}
            />
            {errors.description && <p className="text-destructive text-sm">{errors.description.message}</p>}
          </div>
          <div className="space-y-3">
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <div className="flex items-center justify-between gap-3">
                  <Label htmlFor="segment-active">Active</Label>
                  <Switch id="segment-active" checked={field.value} onCheckedChange={field.onChange} />
                </div>
              )}
            />
            <Controller
              control={form.control}
              name="isAutoUpdate"
              render={({ field }) => (
                <div className="flex items-start justify-between gap-3">
                  <div className="space-y-1">
                    <Label htmlFor="segment-auto-update">Auto-update</Label>
                    <p id="segment-auto-update-help" className="text-muted-foreground text-xs">
                      Keeps membership current as contacts change.
                    </p>
                  </div>
                  <Switch
                    id="segment-auto-update"
                    aria-describedby="segment-auto-update-help"
                    checked={field.value}
                    onCheckedChange={field.onChange}
                  />
                </div>
              )}
            />
          </div>
        </div>

        <div role="group" aria-labelledby="segment-rules-label" className="min-w-0 space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id="segment-rules-label" className="text-sm font-medium">
              Rules
            </h3>
            <ToggleGroup
              type="single"
              variant="outline"
              size="sm"
              aria-label="How rules combine"
              value={operator}
              onValueChange={(value) => {
                if (value === 'AND' || value === 'OR')
                  form.setValue('conditions.operator', value, { shouldDirty: true });
              }}
            >
              <ToggleGroupItem
                value="AND"
                className="data-[state=on]:bg-primary data-[state=on]:text-primary-foreground"
              >
                Match ALL rules
              </ToggleGroupItem>
              <ToggleGroupItem
                value="OR"
                className="data-[state=on]:bg-primary data-[state=on]:text-primary-foreground"
              >
                Match ANY rule
              </ToggleGroupItem>
            </ToggleGroup>
          </div>
          <ol className="space-y-2">
            {rules.map((rule, index) => (
              <RuleRow
                key={rule.id}
                rule={rule}
                index={index}
                joinWord={index > 0 ? operator : undefined}
                canRemove={rules.length > 1}
                errors={ruleErrors(index, rule)}
                onChange={(next) => setRules(rules.map((r) => (r.id === rule.id ? next : r)))}
                onRemove={() => {
                  if (rules.length > 1) setRules(rules.filter((r) => r.id !== rule.id));
                }}
              />
            ))}
          </ol>
          {rulesMessage && <p className="text-destructive text-sm">{rulesMessage}</p>}
          <Button type="button" variant="outline" size="sm" onClick={() => setRules([...rules, newRule(newRuleId())])}>
            <Plus aria-hidden="true" />
            Add rule
          </Button>
        </div>

        {errors.root?.server?.message && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertDescription>{errors.root.server.message}</AlertDescription>
          </Alert>
        )}

        {/* Stays in view while the rules scroll, so the live count answers every edit. */}
        <div className="bg-background sticky -bottom-6 z-10 -mx-6 -mb-6 space-y-3 border-t px-6 pt-4 pb-6">
          <MatchPreview operator={operator} rules={rules} />
          <DialogFooter className="flex-row justify-end">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={name.trim() === '' || pending}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : 'Create Segment'}
            </Button>
          </DialogFooter>
        </div>
      </form>
    </>
  );
}
