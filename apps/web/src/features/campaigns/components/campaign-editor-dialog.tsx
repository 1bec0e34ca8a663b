import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useBrandKit } from '../api/use-brand-kit';
import { useCampaign } from '../api/use-campaigns';
import type { CampaignStart, ContactSelection } from '../editor/campaign-form';
import type { EditorCloseHandle } from '@/lib/use-close-guard';
import type { EditorResult } from './editor/use-save-and-send';

// The editor (with @dnd-kit) is its own chunk, fetched when the dialog first opens, so the
// Campaigns page and the app's first page stay small.
const CampaignEditor = React.lazy(() => import('./editor/campaign-editor'));

/** Starts fetching the editor's code early (on hover of New Campaign), so the dialog opens at once. */
export function preloadCampaignEditor(): void {
  void import('./editor/campaign-editor');
}

export type EditorTarget =
  | { kind: 'new'; listIds: number[]; selection?: ContactSelection; start?: CampaignStart }
  | { kind: 'edit'; campaignId: number };

/**
 * The New / Edit Campaign dialog (spec §2): 80% of the viewport high, holding the lazy-loaded
 * editor. Closing goes through the editor, which asks before throwing away unsaved changes.
 */
export function CampaignEditorDialog({
  target,
  user,
  onClose,
}: {
  target: EditorTarget | null;
  user: CurrentUser;
  onClose: (result?: EditorResult) => void;
}) {
  const editId = target?.kind === 'edit' ? target.campaignId : null;
  const campaign = useCampaign(editId, editId !== null);
  // The editor starts from a fresh copy of the campaign, read once per opening: later refetches
  // (after the editor saves) must not unmount it and lose what is being edited.
  const [readyId, setReadyId] = React.useState<number | null>(null);
  if (editId === null && readyId !== null) setReadyId(null);
  if (editId !== null && readyId !== editId && campaign.data?.id === editId && !campaign.isFetching) setReadyId(editId);
  // A new campaign starts in the account's brand kit, so the editor waits for it (an error starts unbranded).
  const brandKit = useBrandKit(target?.kind === 'new');
  const brandKitPending = target?.kind === 'new' && brandKit.isPending;
  const closeRef = React.useRef<EditorCloseHandle | null>(null);
  const requestClose = () => {
    if (closeRef.current) closeRef.current.requestClose();
    else onClose();
  };
  const title = target?.kind === 'edit' ? 'Edit Campaign' : 'New Campaign';

  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && requestClose()}>
      <DialogContent
        showCloseButton={false}
        className="flex h-[100dvh] max-h-[100dvh] w-screen max-w-none flex-col gap-0 overflow-hidden rounded-none p-0 sm:h-[80vh] sm:max-h-[80vh] sm:w-[min(96vw,1640px)] sm:max-w-none sm:rounded-lg"
        onEscapeKeyDown={(event) => {
          // Escape cancels a keyboard drag or closes a menu first; the editor decides the rest.
          event.preventDefault();
          requestClose();
        }}
        // A click beside the dialog must not throw away an email in progress.
        onInteractOutside={(event) => event.preventDefault()}
      >
        {target?.kind === 'edit' && readyId !== editId ? (
          <>
            <DialogHeader className="border-b px-6 py-4">
              <DialogTitle>{title}</DialogTitle>
              <DialogDescription>Loading the campaign…</DialogDescription>
            </DialogHeader>
            <div className="flex flex-1 items-center justify-center">
              {campaign.isError ? (
                <div className="space-y-3 text-center">
                  <p className="text-destructive text-sm" role="alert">
                    This campaign could not be loaded. It may have been deleted.
                  </p>
                  <Button variant="outline" onClick={() => onClose()}>
                    Close
                  </Button>
                </div>
              ) : (
                <Spinner className="text-muted-foreground size-6" label="Loading the campaign" />
              )}
            </div>
          </>
        ) : brandKitPending ? (
          <EditorLoading title={title} />
        ) : target ? (
          <React.Suspense fallback={<EditorLoading title={title} />}>
            <CampaignEditor
              key={target.kind === 'edit' ? `edit-${target.campaignId}` : 'new'}
              title={title}
              campaign={target.kind === 'edit' ? (campaign.data as CampaignDetail) : undefined}
              initialListIds={target.kind === 'new' ? target.listIds : []}
              initialSelection={target.kind === 'new' ? target.selection : undefined}
              start={target.kind === 'new' ? target.start : undefined}
              brandKit={target.kind === 'new' ? brandKit.data : undefined}
              user={user}
              closeRef={closeRef}
              onDone={onClose}
            />
          </React.Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function EditorLoading({ title }: { title: string }) {
  return (
    <>
      <DialogHeader className="border-b px-6 py-4">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>Loading the editor…</DialogDescription>
      </DialogHeader>
      <div className="flex flex-1 items-center justify-center">
        <Spinner className="text-muted-foreground size-6" label="Loading the editor" />
      </div>
    </>
  );
}
