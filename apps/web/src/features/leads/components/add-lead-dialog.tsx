import * as React from 'react';
import { createLeadBodySchema, lawfulBases, type LawfulBasis } from '@sendwell/contract/leads';

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
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getApiErrorFields, isUnauthorizedError } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateLead } from '../api/use-leads';
import { lawfulBasisLabels } from '../lead-display';

const CREATE_FAILED = 'Failed to add lead';

const textFields = [
  ['email', 'Email', 'email'],
  ['firstName', 'First name', 'text'],
  ['lastName', 'Last name', 'text'],
  ['company', 'Company', 'text'],
  ['jobTitle', 'Job title', 'text'],
  ['location', 'Location', 'text'],
  ['phone', 'Phone', 'tel'],
  ['website', 'Website', 'url'],
] as const;
type TextField = (typeof textFields)[number][0];

/** POST /api/leads: one lead added by hand (spec §7's fields); the server scores it. */
export function AddLeadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add Lead</DialogTitle>
          <DialogDescription>
            Add one lead you met or were introduced to. Its score is computed from its data.
          </DialogDescription>
        </DialogHeader>
        {open && <AddLeadForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function AddLeadForm({ onDone }: { onDone: () => void }) {
  const create = useCreateLead();
  const [values, setValues] = React.useState<Record<TextField, string>>({
    email: '',
    firstName: '',
    lastName: '',
    company: '',
    jobTitle: '',
    location: '',
    phone: '',
    website: '',
  });
  const [lawfulBasis, setLawfulBasis] = React.useState<LawfulBasis | ''>('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = createLeadBodySchema.safeParse({ ...values, lawfulBasis: lawfulBasis || null });
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: 'Success', description: 'Lead added' });
        onDone();
      },
      onError: (error) => {
        const fields = getApiErrorFields(error);
        if (Object.keys(fields).length > 0 && !isUnauthorizedError(error)) setErrors(fields);
        else toastError(error, CREATE_FAILED);
      },
    });
  };

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {textFields.map(([field, label, type]) => (
          <div key={field} className={field === 'email' ? 'space-y-1.5 sm:col-span-2' : 'space-y-1.5'}>
            <Label htmlFor={`lead-${field}`}>{field === 'email' ? label : `${label} (optional)`}</Label>
            <Input
              id={`lead-${field}`}
              type={type}
              value={values[field]}
              onChange={(event) => setValues((v) => ({ ...v, [field]: event.target.value }))}
              aria-invalid={Boolean(errors[field])}
              aria-describedby={errors[field] ? `lead-${field}-error` : undefined}
            />
            <FieldError id={`lead-${field}-error`} message={errors[field]} />
          </div>
        ))}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="lead-basis">Lawful basis (optional)</Label>
        <Select value={lawfulBasis} onValueChange={(value) => setLawfulBasis(value as LawfulBasis)}>
          <SelectTrigger id="lead-basis" className="w-full" aria-describedby="lead-basis-hint">
            <SelectValue placeholder="Not recorded" />
          </SelectTrigger>
          <SelectContent>
            {lawfulBases.map((basis) => (
              <SelectItem key={basis} value={basis}>
                {lawfulBasisLabels[basis]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id="lead-basis-hint" className="text-muted-foreground text-xs">
          Needed before the lead can be added to a contact list.
        </p>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add Lead'}
        </Button>
      </DialogFooter>
    </form>
  );
}
