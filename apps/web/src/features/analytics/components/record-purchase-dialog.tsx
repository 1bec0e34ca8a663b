import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { recordPurchaseFormSchema, type Purchase } from '@sendwell/contract/analytics';

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
import { Skeleton } from '@/components/ui/skeleton';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { formatDate, formatDollars } from '@/lib/format';
import { toast } from '@/lib/use-toast';
import { useRecentPurchases, useRecordPurchase } from '../api/use-purchases';

/** A campaign a purchase can be credited to (one that has sent mail). */
export interface CreditableCampaign {
  id: number;
  name: string;
}

/** Radix Select reserves '' for "no value", so "no campaign" has a value of its own. */
const NO_CAMPAIGN = 'none';
const FIELDS = ['email', 'amount', 'campaignId'] as const;

/** 'Record a purchase' (from the Revenue card): email, amount, optional campaign; the figures refresh after it. */
export function RecordPurchaseDialog({
  open,
  onOpenChange,
  campaigns,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  campaigns: readonly CreditableCampaign[];
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Record a purchase</DialogTitle>
          <DialogDescription>
            Add an order one of your contacts placed. It counts toward your revenue, and toward a campaign’s when you
            pick the campaign that brought it.
          </DialogDescription>
        </DialogHeader>
        {open && <RecordPurchaseForm campaigns={campaigns} onDone={() => onOpenChange(false)} />}
        {open && <RecentPurchases />}
      </DialogContent>
    </Dialog>
  );
}

function RecordPurchaseForm({ campaigns, onDone }: { campaigns: readonly CreditableCampaign[]; onDone: () => void }) {
  const recordPurchase = useRecordPurchase();
  const form = useForm({
    resolver: zodResolver(recordPurchaseFormSchema),
    defaultValues: { email: '', amount: '', campaignId: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (body) => {
    try {
      const purchase = await recordPurchase.mutateAsync(body);
      toast({
        title: 'Purchase recorded',
        description: `${formatDollars(purchase.amount)} from ${purchase.email ?? body.email}.`,
      });
      onDone();
    } catch (error) {
      // 400 (validation) and 422 (not a contact, unknown campaign) name the field at fault.
      const fields = getApiErrorFields(error);
      const known = FIELDS.filter((field) => fields[field]);
      for (const field of known) form.setError(field, { message: fields[field] });
      if (known.length === 0) toastError(error, 'Failed to record the purchase. Please try again.');
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor="purchase-email">Contact email</Label>
        <Input
          id="purchase-email"
          type="email"
          autoComplete="off"
          placeholder="customer@example.com"
          aria-required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? 'purchase-email-error' : undefined}
          {...form.register('email')}
        />
        <FieldError id="purchase-email-error" message={errors.email?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="purchase-amount">Amount (USD)</Label>
        <div className="relative">
          <span
            className="text-muted-foreground pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm"
            aria-hidden="true"
          >
            $
          </span>
          <Input
            id="purchase-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="49.99"
            className="pl-7"
            aria-required
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? 'purchase-amount-help purchase-amount-error' : 'purchase-amount-help'}
            {...form.register('amount')}
          />
        </div>
        <p id="purchase-amount-help" className="text-muted-foreground text-sm">
          In dollars, up to 2 decimals.
        </p>
        <FieldError id="purchase-amount-error" message={errors.amount?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="purchase-campaign">Campaign (optional)</Label>
        <Controller
          control={form.control}
          name="campaignId"
          render={({ field }) => (
            <Select
              value={field.value || NO_CAMPAIGN}
              onValueChange={(value) => field.onChange(value === NO_CAMPAIGN ? '' : value)}
            >
              <SelectTrigger
                id="purchase-campaign"
                className="w-full"
                aria-invalid={errors.campaignId ? true : undefined}
                aria-describedby={errors.campaignId ? 'purchase-campaign-error' : undefined}
                onBlur={field.onBlur}
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={NO_CAMPAIGN}>No campaign</SelectItem>
                {campaigns.map((campaign) => (
                  <SelectItem key={campaign.id} value={String(campaign.id)}>
                    {campaign.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
        <FieldError id="purchase-campaign-error" message={errors.campaignId?.message} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Recording...' : 'Record Purchase'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The latest purchases, so the user sees what is already recorded. */
function RecentPurchases() {
  const purchases = useRecentPurchases(true);
  if (purchases.isError) return null;
  return (
    <section aria-labelledby="recent-purchases-heading" className="border-t pt-4">
      <h3 id="recent-purchases-heading" className="mb-2 text-sm font-medium">
        Recent purchases
      </h3>
      {purchases.isLoading || !purchases.data ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading purchases">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ) : purchases.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No purchases recorded yet.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {purchases.data.map((purchase) => (
            <PurchaseRow key={purchase.id} purchase={purchase} />
          ))}
        </ul>
      )}
    </section>
  );
}

function PurchaseRow({ purchase }: { purchase: Purchase }) {
  return (
    <li className="flex items-baseline justify-between gap-3">
      <span className="min-w-0 truncate">
        {purchase.email ?? 'Deleted contact'}
        {purchase.campaignName && <span className="text-muted-foreground"> · {purchase.campaignName}</span>}
      </span>
      <span className="shrink-0 tabular-nums">
        {formatDollars(purchase.amount)} <span className="text-muted-foreground">{formatDate(purchase.createdAt)}</span>
      </span>
    </li>
  );
}
