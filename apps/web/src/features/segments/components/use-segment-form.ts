import { useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { createSegmentBodySchema, type CreateSegmentBody, type Segment } from '@sendwell/contract/segments';

import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { useCreateSegment, useUpdateSegment } from '../api/use-segments';
import { newRuleId } from '../segment-ids';
import { humanizeRuleMessage, newRule, type EditableRule } from '../segment-rules';
import { ruleValueInputId, type RuleErrors } from './rule-row';
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

/**
 * The Create / Edit Segment form: its values checked by the contract's schema, the rules being
 * edited, saving (create or update), and the errors shown: a rule's own messages in plain words,
 * a server 400's fields next to their controls, anything else above the footer.
 */
export function useSegmentForm(target: SegmentDialogTarget, onSaved: (segment: Segment) => void) {
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

  return {
    form,
    errors,
    editing,
    title,
    description,
    /** Save is offered once the segment has a name and no save is running. */
    canSave: name.trim() !== '' && !pending,
    pending,
    operator,
    setOperator: (value: string) => {
      if (value === 'AND' || value === 'OR') form.setValue('conditions.operator', value, { shouldDirty: true });
    },
    rules,
    setRules,
    ruleErrors,
    rulesMessage,
    onSubmit,
  };
}
