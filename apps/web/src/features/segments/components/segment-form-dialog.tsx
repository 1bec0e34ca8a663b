import { Controller } from 'react-hook-form';
import { AlertCircle } from 'lucide-react';
import type { Segment } from '@sendwell/contract/segments';

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
import { useLastNonNull } from '../use-last-non-null';
import { MatchPreview } from './match-preview';
import { SegmentRulesEditor } from './segment-rules-editor';
import { useSegmentForm, type SegmentDialogTarget } from './use-segment-form';

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
  const segmentForm = useSegmentForm(target, onSaved);
  const { form, errors } = segmentForm;

  return (
    <>
      <DialogHeader className="pr-6">
        <DialogTitle>{segmentForm.title}</DialogTitle>
        <DialogDescription>{segmentForm.description}</DialogDescription>
      </DialogHeader>
      <form onSubmit={segmentForm.onSubmit} noValidate className="min-w-0 space-y-5">
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

        <SegmentRulesEditor
          operator={segmentForm.operator}
          rules={segmentForm.rules}
          rulesMessage={segmentForm.rulesMessage}
          ruleErrors={segmentForm.ruleErrors}
          onOperatorChange={segmentForm.setOperator}
          setRules={segmentForm.setRules}
        />

        {errors.root?.server?.message && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertDescription>{errors.root.server.message}</AlertDescription>
          </Alert>
        )}

        {/* Stays in view while the rules scroll, so the live count answers every edit. */}
        <div className="bg-background sticky -bottom-6 z-10 -mx-6 -mb-6 space-y-3 border-t px-6 pt-4 pb-6">
          <MatchPreview operator={segmentForm.operator} rules={segmentForm.rules} />
          <DialogFooter className="flex-row justify-end">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={!segmentForm.canSave}>
              {segmentForm.pending ? 'Saving...' : segmentForm.editing ? 'Save Changes' : 'Create Segment'}
            </Button>
          </DialogFooter>
        </div>
      </form>
    </>
  );
}
