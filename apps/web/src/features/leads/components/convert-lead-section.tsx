import * as React from 'react';
import type { Lead } from '@sendwell/contract/leads';

import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useContactListsForLeads, useConvertLead } from '../api/use-leads';
import { convertBlockedReason } from '../lead-display';

const CONVERT_FAILED = 'Failed to add the lead to the contact list';

/** 'Add to contact list': creates or updates the lead's contact in the chosen list; explains when it cannot. */
export function ConvertLeadSection({ lead }: { lead: Lead }) {
  const blocked = convertBlockedReason(lead);
  const lists = useContactListsForLeads(blocked === null);
  const convert = useConvertLead();
  const [listId, setListId] = React.useState('');
  const available = lists.data ?? [];

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const list = available.find((l) => String(l.id) === listId);
    if (!list) return;
    convert.mutate(
      { id: lead.id, listId: list.id },
      {
        onSuccess: (result) =>
          toast({
            title: 'Added to contact list',
            description: `${result.createdContact ? 'A new contact was created' : 'The existing contact was updated'} in “${list.name}”.`,
          }),
        onError: (error) => toastError(error, CONVERT_FAILED),
      },
    );
  };

  return (
    <section aria-labelledby="lead-convert-title" className="space-y-2">
      <h3 id="lead-convert-title" className="text-sm font-semibold">
        Add to contact list
      </h3>
      {lead.contactId !== null && (
        <p className="text-muted-foreground text-sm">This lead is a contact already; you can add it to another list.</p>
      )}
      {blocked !== null ? (
        <p className="text-muted-foreground text-sm" data-testid="convert-blocked">
          {blocked}
        </p>
      ) : lists.isLoading ? (
        <p className="text-muted-foreground text-sm">Loading lists...</p>
      ) : available.length === 0 ? (
        <p className="text-muted-foreground text-sm">Create a contact list on the Contacts page first.</p>
      ) : null}
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={submit}>
        <div className="flex-1 space-y-1.5">
          <Label htmlFor="lead-convert-list">Contact list</Label>
          <Select value={listId} onValueChange={setListId} disabled={blocked !== null || available.length === 0}>
            <SelectTrigger id="lead-convert-list" className="w-full">
              <SelectValue placeholder="Choose a list" />
            </SelectTrigger>
            <SelectContent>
              {available.map((list) => (
                <SelectItem key={list.id} value={String(list.id)}>
                  {list.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button type="submit" disabled={blocked !== null || listId === '' || convert.isPending}>
          {convert.isPending ? 'Adding...' : 'Add to list'}
        </Button>
      </form>
    </section>
  );
}
