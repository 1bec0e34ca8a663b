import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  createContactBodySchema,
  parseTagText,
  type Contact,
  type ContactList,
  type CreateContactBody,
} from '@sendwell/contract/contacts';

import { FieldError } from '@/components/field-error';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { getApiErrorFields } from '@/lib/api';
import { useToastClearance } from '@/lib/toast-clearance';

// The contract's schema, with the tags typed as comma-separated text (spec §5) instead of an array.
const contactFormSchema = createContactBodySchema.omit({ tags: true }).extend({ tagsText: z.string() });
export type ContactFormValues = z.input<typeof contactFormSchema>;

type TextField = 'email' | 'firstName' | 'lastName' | 'company' | 'jobTitle' | 'phone' | 'location';
const SERVER_FIELDS = ['email', 'firstName', 'lastName', 'company', 'jobTitle', 'phone', 'location', 'notes'] as const;

const EMPTY_CONTACT_FORM: ContactFormValues = {
  email: '',
  firstName: '',
  lastName: '',
  company: '',
  jobTitle: '',
  phone: '',
  location: '',
  notes: '',
  tagsText: '',
  isActive: true,
  listIds: [],
};

/**
 * The contact fields of spec §3 (email, names, company, job title, phone, location, notes, tags,
 * active, and the lists when `lists` is given), validated with the contract's schema. `onSubmit`
 * gets the API body; when it throws, the server's field messages are shown and `onError` decides
 * the toast.
 */
export function ContactForm({
  idPrefix,
  defaultValues = EMPTY_CONTACT_FORM,
  lists,
  submitLabel,
  pendingLabel,
  onSubmit,
  onError,
  onCancel,
}: {
  idPrefix: string;
  defaultValues?: ContactFormValues;
  lists?: readonly ContactList[];
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (body: CreateContactBody) => Promise<unknown>;
  onError: (error: unknown) => void;
  onCancel: () => void;
}) {
  const form = useForm({ resolver: zodResolver(contactFormSchema), defaultValues });
  const actionsRef = React.useRef<HTMLDivElement>(null);
  useToastClearance(actionsRef);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ tagsText, ...values }) => {
    try {
      await onSubmit({ ...values, tags: parseTagText(tagsText) });
    } catch (error) {
      const fields = getApiErrorFields(error);
      for (const name of SERVER_FIELDS) {
        const message = fields[name];
        if (message) form.setError(name, { message });
      }
      onError(error);
    }
  });

  const describedBy = (id: string, error?: string, help?: string) =>
    [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  const textField = (
    name: TextField,
    label: string,
    options: { type?: string; autoComplete?: string; required?: boolean } = {},
  ) => {
    const id = `${idPrefix}-${name}`;
    const error = errors[name]?.message;
    return (
      <div className="space-y-2">
        <Label htmlFor={id}>
          {label}
          {options.required && (
            <span className="text-destructive" aria-hidden="true">
              *
            </span>
          )}
        </Label>
        <Input
          id={id}
          type={options.type ?? 'text'}
          autoComplete={options.autoComplete ?? 'off'}
          aria-required={options.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error)}
          {...form.register(name)}
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
    );
  };

  const tagsId = `${idPrefix}-tags`;
  const notesId = `${idPrefix}-notes`;
  const activeId = `${idPrefix}-isActive`;

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">{textField('email', 'Email', { type: 'email', required: true })}</div>
        {textField('firstName', 'First name', { required: true })}
        {textField('lastName', 'Last name', { required: true })}
        {textField('company', 'Company')}
        {textField('jobTitle', 'Job title')}
        {textField('phone', 'Phone', { type: 'tel' })}
        {textField('location', 'Location')}
      </div>
      <div className="space-y-2">
        <Label htmlFor={tagsId}>Tags</Label>
        <Input
          id={tagsId}
          placeholder="customer, newsletter"
          aria-describedby={describedBy(tagsId, errors.tagsText?.message, 'help')}
          {...form.register('tagsText')}
        />
        <p id={`${tagsId}-help`} className="text-muted-foreground text-xs">
          Separate tags with commas.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor={notesId}>Notes</Label>
        <Textarea
          id={notesId}
          rows={3}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby={describedBy(notesId, errors.notes?.message)}
          {...form.register('notes')}
        />
        <FieldError id={`${notesId}-error`} message={errors.notes?.message} />
      </div>
      <div className="flex items-center justify-between gap-4 rounded-lg border p-3">
        <div className="space-y-0.5">
          <Label htmlFor={activeId}>Active</Label>
          <p id={`${activeId}-help`} className="text-muted-foreground text-xs">
            Inactive contacts are shown as Unsubscribed and receive no campaigns.
          </p>
        </div>
        <Controller
          control={form.control}
          name="isActive"
          render={({ field }) => (
            <Switch
              id={activeId}
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
              aria-describedby={`${activeId}-help`}
            />
          )}
        />
      </div>
      {lists && lists.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Add to lists</legend>
          <Controller
            control={form.control}
            name="listIds"
            render={({ field }) => {
              const selected = new Set(field.value ?? []);
              return (
                <div className="grid max-h-40 gap-2 overflow-y-auto rounded-lg border p-3 sm:grid-cols-2">
                  {lists.map((list) => {
                    const id = `${idPrefix}-list-${list.id}`;
                    return (
                      <div key={list.id} className="flex min-w-0 items-center gap-2">
                        <Checkbox
                          id={id}
                          checked={selected.has(list.id)}
                          onCheckedChange={(checked) => {
                            const next = new Set(selected);
                            if (checked === true) next.add(list.id);
                            else next.delete(list.id);
                            field.onChange([...next]);
                          }}
                        />
                        <Label htmlFor={id} className="truncate font-normal">
                          {list.name}
                        </Label>
                      </div>
                    );
                  })}
                </div>
              );
            }}
          />
        </fieldset>
      )}
      {/* Toasts stand above this row while the form is open: a 'already exists' toast covered Create (issue 34). */}
      <div ref={actionsRef} className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Form values for editing an existing contact. */
export function contactToFormValues(contact: Contact): ContactFormValues {
  return {
    email: contact.email,
    firstName: contact.firstName,
    lastName: contact.lastName,
    company: contact.company ?? '',
    jobTitle: contact.jobTitle ?? '',
    phone: contact.phone ?? '',
    location: contact.location ?? '',
    notes: contact.notes ?? '',
    tagsText: contact.tags.join(', '),
    isActive: contact.isActive,
    listIds: [],
  };
}
