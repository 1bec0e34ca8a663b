import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'wouter';
import { Plus } from 'lucide-react';
import {
  createWebhookEndpointBodySchema,
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookEndpointBody,
} from '@sendwell/contract/webhooks';

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
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateWebhookEndpoint } from '../api/use-webhooks';

/** "Add endpoint": URL, description and the events it receives (none ticked: every event). */
export function CreateEndpointDialog() {
  const [open, setOpen] = React.useState(false);
  const [, navigate] = useLocation();
  const create = useCreateWebhookEndpoint();
  const form = useForm({
    resolver: zodResolver(createWebhookEndpointBodySchema),
    defaultValues: { url: '', description: '', eventTypes: [] } satisfies CreateWebhookEndpointBody,
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const created = await create.mutateAsync(body);
      toast({ title: 'Endpoint added', description: 'Reveal its signing secret on the endpoint page.' });
      setOpen(false);
      form.reset();
      navigate(`/webhooks/${created.id}`);
    } catch (err) {
      const message = getApiErrorFields(err).url;
      if (message) form.setError('url', { message });
      toastError(err, 'Could not add the endpoint');
    }
  });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          Add endpoint
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Add endpoint</DialogTitle>
          <DialogDescription>
            Sendwell POSTs each event to this URL, signed as Standard Webhooks describes.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          <div className="space-y-2">
            <Label htmlFor="webhook-url">Endpoint URL</Label>
            <Input
              id="webhook-url"
              type="url"
              placeholder="https://example.com/webhooks/sendwell"
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={errors.url ? 'webhook-url-error' : undefined}
              {...form.register('url')}
            />
            <FieldError id="webhook-url-error" message={errors.url?.message} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="webhook-description">Description (optional)</Label>
            <Input id="webhook-description" placeholder="CRM sync" {...form.register('description')} />
            <FieldError id="webhook-description-error" message={errors.description?.message} />
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Events</legend>
            <p className="text-muted-foreground text-sm">Tick none to receive every event.</p>
            <Controller
              control={form.control}
              name="eventTypes"
              render={({ field }) => (
                <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                  {WEBHOOK_EVENT_TYPES.map((type) => {
                    const checked = (field.value ?? []).includes(type);
                    return (
                      <label key={type} className="flex items-center gap-2 font-mono text-sm">
                        <Checkbox
                          checked={checked}
                          onCheckedChange={(value) =>
                            field.onChange(
                              value === true
                                ? [...(field.value ?? []), type]
                                : (field.value ?? []).filter((item) => item !== type),
                            )
                          }
                        />
                        {type}
                      </label>
                    );
                  })}
                </div>
              )}
            />
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              Add endpoint
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
