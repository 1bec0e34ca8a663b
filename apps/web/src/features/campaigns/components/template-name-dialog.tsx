import * as React from 'react';
import type { z } from 'zod';
import { renameCampaignTemplateBodySchema } from '@sendwell/contract/campaign-templates';

import { FieldError } from '@/components/field-error';
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
import { Spinner } from '@/components/ui/spinner';

/**
 * Asks for a template's name: Save as template (in the editor) and Rename (in the gallery). The
 * name is checked with the contract's own rule before it is sent; `onSubmit` resolves to an error
 * message to show, or null when it is done.
 */
export function TemplateNameDialog({
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  initialName,
  pending,
  onSubmit,
  label = 'Template name',
  nameSchema = renameCampaignTemplateBodySchema,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  submitLabel: string;
  initialName: string;
  pending: boolean;
  onSubmit: (name: string) => Promise<string | null>;
  /** The name field's label (a saved block is named too). */
  label?: string;
  /** The contract's rule for the name. */
  nameSchema?: z.ZodType<{ name: string }>;
}) {
  const [name, setName] = React.useState(initialName);
  const [error, setError] = React.useState<string | undefined>();
  const [openedWith, setOpenedWith] = React.useState<string | null>(null);
  // Each opening starts from the name it was opened with.
  if (open && openedWith !== initialName) {
    setOpenedWith(initialName);
    setName(initialName);
    setError(undefined);
  }
  if (!open && openedWith !== null) setOpenedWith(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = nameSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    const problem = await onSubmit(parsed.data.name);
    if (problem) setError(problem);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="template-name">{label}</Label>
            <Input
              id="template-name"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setError(undefined);
              }}
              maxLength={120}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'template-name-error' : undefined}
            />
            <FieldError id="template-name-error" message={error} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending && <Spinner className="size-4" label="Saving" />}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
