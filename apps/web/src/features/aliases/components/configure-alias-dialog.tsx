import type { EmailAlias } from '@sendwell/contract/aliases';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { AliasSettingsForm } from './alias-settings-form';

/** The Basic panel's Configure dialog: the alias's settings, as on the Advanced panel's Overview. */
export function ConfigureAliasDialog({ alias, onClose }: { alias: EmailAlias | null; onClose: () => void }) {
  return (
    <Dialog
      open={alias !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Configure {alias?.address}</DialogTitle>
          <DialogDescription>Where its mail goes, and whether it answers senders.</DialogDescription>
        </DialogHeader>
        {alias && <AliasSettingsForm key={alias.id} alias={alias} idPrefix="configure-alias" onSaved={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
