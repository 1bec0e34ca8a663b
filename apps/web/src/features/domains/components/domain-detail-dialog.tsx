import { useState } from 'react';
import { RefreshCw, Star, Trash2 } from 'lucide-react';
import type { Domain } from '@sendwell/contract/domains';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Separator } from '@/components/ui/separator';
import { formatDate } from '@/lib/format';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useDeleteDomain, useMakePrimaryDomain, useVerifyDomain } from '../api/use-domains';
import { formatTimeAgo, verifiedCount } from '../domain-display';
import { DnsRecordList } from './dns-record-list';
import { DomainStatusBadge } from './status-badges';

/**
 * Configure (spec §2 Domains tab): the domain's records with their real status and a check now,
 * the primary choice, and delete behind a confirmation. `domain` is the latest copy from the list.
 */
export function DomainDetailDialog({
  domain,
  onOpenChange,
}: {
  domain: Domain | null;
  onOpenChange: (open: boolean) => void;
}) {
  const verify = useVerifyDomain();
  const makePrimary = useMakePrimaryDomain();
  const deleteDomain = useDeleteDomain();
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const checkNow = async (target: Domain) => {
    try {
      const checked = await verify.mutateAsync(target.id);
      toast({
        title: checked.isVerified ? `${checked.domain} is verified` : 'Not verified yet',
        description: checked.isVerified
          ? 'All three records are in place.'
          : `${verifiedCount(checked)} of 3 records verified.`,
      });
    } catch (failure) {
      toastError(failure, 'Failed to check the DNS records. Please try again.', { serverMessage: 'client-error' });
    }
  };

  const choosePrimary = async (target: Domain) => {
    try {
      await makePrimary.mutateAsync(target.id);
      toast({ title: 'Primary domain changed', description: `${target.domain} is now your primary sending domain.` });
    } catch (failure) {
      toastError(failure, 'Failed to change the primary domain. Please try again.', { serverMessage: 'client-error' });
    }
  };

  const remove = async (target: Domain) => {
    try {
      await deleteDomain.mutateAsync(target.id);
      setConfirmingDelete(false);
      onOpenChange(false);
      toast({ title: 'Domain deleted', description: `${target.domain} was removed.` });
    } catch (failure) {
      setConfirmingDelete(false);
      toastError(failure, 'Failed to delete the domain. Please try again.', { serverMessage: 'client-error' });
    }
  };

  return (
    <>
      <Dialog open={domain !== null} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-2xl">
          {domain && (
            <>
              <DialogHeader>
                <DialogTitle>Configure {domain.domain}</DialogTitle>
                <DialogDescription>
                  Added {formatDate(domain.createdAt)} · last checked {formatTimeAgo(domain.lastCheckedAt)}
                </DialogDescription>
              </DialogHeader>
              <div className="flex flex-wrap items-center gap-2">
                <DomainStatusBadge isVerified={domain.isVerified} />
                {domain.isPrimary && <Badge variant="outline">Primary sending domain</Badge>}
                <span className="text-muted-foreground text-sm">{verifiedCount(domain)} of 3 records verified</span>
                <Button
                  variant="outline"
                  size="sm"
                  className="sm:ml-auto"
                  onClick={() => void checkNow(domain)}
                  disabled={verify.isPending}
                >
                  <RefreshCw className={verify.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
                  {verify.isPending ? 'Checking...' : 'Check now'}
                </Button>
              </div>
              <DnsRecordList records={domain.records} domain={domain.domain} />
              <Separator />
              <section aria-labelledby="domain-primary-heading" className="space-y-2">
                <h3 id="domain-primary-heading" className="font-semibold">
                  Primary domain
                </h3>
                {domain.isPrimary ? (
                  <p className="text-muted-foreground text-sm">This is your primary sending domain.</p>
                ) : (
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="text-muted-foreground text-sm">
                      Make {domain.domain} the domain shown first and used by default.
                    </p>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => void choosePrimary(domain)}
                      disabled={makePrimary.isPending}
                    >
                      <Star aria-hidden="true" />
                      Make Primary
                    </Button>
                  </div>
                )}
              </section>
              <Separator />
              <section
                aria-labelledby="domain-delete-heading"
                className="flex flex-wrap items-center justify-between gap-2"
              >
                <div>
                  <h3 id="domain-delete-heading" className="font-semibold">
                    Delete domain
                  </h3>
                  <p className="text-muted-foreground text-sm">
                    Its DKIM key is destroyed. Mail already sent stays in your history.
                  </p>
                </div>
                <Button variant="destructive" size="sm" onClick={() => setConfirmingDelete(true)}>
                  <Trash2 aria-hidden="true" />
                  Delete
                </Button>
              </section>
            </>
          )}
        </DialogContent>
      </Dialog>
      <AlertDialog open={confirmingDelete && domain !== null} onOpenChange={setConfirmingDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {domain?.domain}?</AlertDialogTitle>
            <AlertDialogDescription>
              You will no longer be able to send from this domain, and its aliases go with it. This action cannot be
              undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive hover:bg-destructive/90 text-white"
              disabled={deleteDomain.isPending}
              onClick={(event) => {
                // Keep the confirmation open until the call answers.
                event.preventDefault();
                if (domain) void remove(domain);
              }}
            >
              {deleteDomain.isPending ? 'Deleting...' : 'Delete Domain'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
