import * as React from 'react';
import type { EnrolBody, Sequence } from '@sendwell/contract/sequences';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDate, formatNumber } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import {
  ENROLMENTS_PAGE_SIZE,
  useContactChoices,
  useEnrol,
  useEnrolments,
  useListChoices,
  useSegmentChoices,
} from '../api/use-sequences';
import { SEQUENCE_FAILURE } from '../sequence-feedback';
import { ENROLMENT_STATE_LABELS, enrolResultText } from '../sequence-labels';

type EnrolMode = 'contacts' | 'list' | 'segment';

/** A sequence's enrolments: enrol contacts, a list or a segment by hand, and the enrolments with their current step. */
export function EnrolmentsDialog({ sequence, onClose }: { sequence: Sequence | null; onClose: () => void }) {
  return (
    <Dialog open={sequence !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Enrolments: {sequence?.name}</DialogTitle>
          <DialogDescription>
            Enrol contacts by hand. Contacts already in this sequence are not enrolled twice.
            {sequence && sequence.status !== 'active' && ' Emails go out once the sequence is activated.'}
          </DialogDescription>
        </DialogHeader>
        {sequence && <EnrolmentsBody key={sequence.id} sequence={sequence} />}
      </DialogContent>
    </Dialog>
  );
}

function EnrolmentsBody({ sequence }: { sequence: Sequence }) {
  const [mode, setMode] = React.useState<EnrolMode>('contacts');
  const [search, setSearch] = React.useState('');
  const debouncedSearch = useDebouncedValue(search, 300);
  const [chosenContacts, setChosenContacts] = React.useState<Set<number>>(new Set());
  const [listId, setListId] = React.useState<string>('');
  const [segmentId, setSegmentId] = React.useState<string>('');
  const [result, setResult] = React.useState<number | null>(null);
  const [page, setPage] = React.useState(1);
  const contacts = useContactChoices(debouncedSearch, mode === 'contacts');
  const lists = useListChoices(mode === 'list');
  const segments = useSegmentChoices(mode === 'segment');
  const enrol = useEnrol(sequence.id);
  const enrolments = useEnrolments(sequence.id, page);

  const body: EnrolBody | null =
    mode === 'contacts'
      ? chosenContacts.size > 0
        ? { contactIds: [...chosenContacts] }
        : null
      : mode === 'list'
        ? listId
          ? { listId: Number(listId) }
          : null
        : segmentId
          ? { segmentId: Number(segmentId) }
          : null;

  const submit = () => {
    if (!body) return;
    setResult(null);
    enrol.mutate(body, {
      onSuccess: ({ enrolled }) => {
        setResult(enrolled);
        setChosenContacts(new Set());
      },
      onError: (error) => toastError(error, SEQUENCE_FAILURE.enrol, { serverMessage: 'client-error' }),
    });
  };

  const toggleContact = (id: number, checked: boolean) =>
    setChosenContacts((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });

  const total = enrolments.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ENROLMENTS_PAGE_SIZE));

  return (
    <div className="min-w-0 space-y-6">
      <section aria-labelledby="enrol-title" className="space-y-3">
        <h3 id="enrol-title" className="text-sm font-semibold">
          Enrol contacts
        </h3>
        <Tabs value={mode} onValueChange={(value) => setMode(value as EnrolMode)} className="gap-3">
          <TabsList>
            <TabsTrigger value="contacts">Contacts</TabsTrigger>
            <TabsTrigger value="list">A list</TabsTrigger>
            <TabsTrigger value="segment">A segment</TabsTrigger>
          </TabsList>
          <TabsContent value="contacts" className="space-y-2">
            <Label htmlFor="enrol-search">Search contacts</Label>
            <Input
              id="enrol-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Name or email"
            />
            <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border p-2" aria-label="Contacts to enrol">
              {contacts.isLoading && <li className="text-muted-foreground text-sm">Loading contacts...</li>}
              {contacts.data?.data.length === 0 && (
                <li className="text-muted-foreground text-sm">No contacts found.</li>
              )}
              {contacts.data?.data.map((contact) => {
                const id = `enrol-contact-${contact.id}`;
                return (
                  <li key={contact.id} className="flex items-center gap-2">
                    <Checkbox
                      id={id}
                      checked={chosenContacts.has(contact.id)}
                      onCheckedChange={(checked) => toggleContact(contact.id, checked === true)}
                    />
                    <Label htmlFor={id} className="min-w-0 font-normal break-all">
                      {contact.email}
                    </Label>
                  </li>
                );
              })}
            </ul>
          </TabsContent>
          <TabsContent value="list" className="space-y-2">
            <Label htmlFor="enrol-list">Contact list</Label>
            <Select value={listId} onValueChange={setListId}>
              <SelectTrigger id="enrol-list" className="w-full">
                <SelectValue placeholder={lists.isLoading ? 'Loading lists...' : 'Choose a list'} />
              </SelectTrigger>
              <SelectContent>
                {(lists.data ?? []).map((list) => (
                  <SelectItem key={list.id} value={String(list.id)}>
                    {list.name} ({formatNumber(list.subscriberCount)})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </TabsContent>
          <TabsContent value="segment" className="space-y-2">
            <Label htmlFor="enrol-segment">Segment</Label>
            <Select value={segmentId} onValueChange={setSegmentId}>
              <SelectTrigger id="enrol-segment" className="w-full">
                <SelectValue placeholder={segments.isLoading ? 'Loading segments...' : 'Choose a segment'} />
              </SelectTrigger>
              <SelectContent>
                {(segments.data ?? []).map((segment) => (
                  <SelectItem key={segment.id} value={String(segment.id)}>
                    {segment.name} ({formatNumber(segment.contactCount)})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </TabsContent>
        </Tabs>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={submit} disabled={!body || enrol.isPending}>
            {enrol.isPending ? 'Enrolling...' : 'Enrol'}
          </Button>
          <p role="status" className="text-sm" data-testid="enrol-result">
            {result !== null && enrolResultText(result)}
          </p>
        </div>
      </section>

      <section aria-labelledby="enrolments-title" className="space-y-3">
        <h3 id="enrolments-title" className="text-sm font-semibold">
          Enrolments ({formatNumber(total)})
        </h3>
        {enrolments.isLoading ? (
          <p className="text-muted-foreground text-sm">Loading enrolments...</p>
        ) : total === 0 ? (
          <p className="text-muted-foreground text-sm">No one is enrolled yet.</p>
        ) : (
          <div
            role="region"
            aria-label="Enrolments"
            tabIndex={0}
            className="focus-visible:ring-ring/50 w-full overflow-x-auto rounded-md outline-none focus-visible:ring-[3px]"
          >
            <table className="w-full caption-bottom text-sm">
              <TableHeader>
                <TableRow>
                  <TableHead>Contact</TableHead>
                  <TableHead>Current step</TableHead>
                  <TableHead>State</TableHead>
                  <TableHead>Entered</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {(enrolments.data?.data ?? []).map((enrolment) => (
                  <TableRow key={enrolment.id} data-enrolment={enrolment.email}>
                    <TableCell className="break-all">{enrolment.email}</TableCell>
                    <TableCell>{enrolment.currentStep}</TableCell>
                    <TableCell>
                      <Badge variant={enrolment.state === 'active' ? 'default' : 'secondary'}>
                        {ENROLMENT_STATE_LABELS[enrolment.state]}
                      </Badge>
                      {enrolment.exitReason && (
                        <span className="text-muted-foreground ml-2 text-xs">{enrolment.exitReason}</span>
                      )}
                    </TableCell>
                    <TableCell>{formatDate(enrolment.enteredAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </table>
          </div>
        )}
        {pages > 1 && (
          <div className="flex items-center justify-end gap-2 text-sm">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}
