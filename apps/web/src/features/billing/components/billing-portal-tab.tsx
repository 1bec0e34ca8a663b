import { ExternalLink, FileText, ShieldCheck, Wallet } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

/** Billing Portal tab: explains the provider's customer portal and opens it. */
export function BillingPortalTab({ pending, onOpen }: { pending: boolean; onOpen: () => void }) {
  const blurbs = [
    { icon: ShieldCheck, title: 'Secure', text: 'PCI compliant payment processing by Stripe.' },
    { icon: FileText, title: 'Invoices', text: 'Download past invoices and receipts.' },
    { icon: Wallet, title: 'Payment Methods', text: 'Add, update or remove your cards.' },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Customer Billing Portal</h2>
        </CardTitle>
        <CardDescription>
          Manage your subscription in Stripe's secure customer portal: view your billing history, update payment methods
          and download invoices.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4 sm:grid-cols-3">
          {blurbs.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-lg border p-4">
              <Icon className="mb-2 size-5" aria-hidden="true" />
              <p className="font-medium">{title}</p>
              <p className="text-muted-foreground text-sm">{text}</p>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button onClick={onOpen} disabled={pending}>
          <ExternalLink aria-hidden="true" />
          {pending ? 'Opening...' : 'Open Billing Portal'}
        </Button>
      </CardFooter>
    </Card>
  );
}
