import * as React from 'react';
import { BookmarkPlus } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { getApiErrorFields } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCreateCampaignTemplate } from '../../api/use-campaign-templates';
import type { CampaignDraft } from '../../editor/campaign-form';
import { TemplateNameDialog } from '../template-name-dialog';

/**
 * Save as template: the draft's content as it is now (blocks, or its own HTML, with the subject and
 * preview text) is kept under a name, to start new campaigns from. The campaign itself is unchanged.
 */
export function SaveAsTemplate({ draft, defaultName }: { draft: CampaignDraft; defaultName: string }) {
  const [open, setOpen] = React.useState(false);
  const create = useCreateCampaignTemplate();
  const empty = draft.rawHtml !== null ? draft.rawHtml.trim() === '' : draft.blocks.length === 0;

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        disabled={empty}
        title={empty ? 'Add some content first' : undefined}
      >
        <BookmarkPlus aria-hidden="true" />
        Save as template
      </Button>
      <TemplateNameDialog
        open={open}
        onOpenChange={setOpen}
        title="Save as template"
        description="Keep this design to start new campaigns from. The campaign itself is not changed."
        submitLabel="Save template"
        initialName={defaultName.trim()}
        pending={create.isPending}
        onSubmit={async (name) => {
          try {
            await create.mutateAsync({
              name,
              subject: draft.subject,
              preheader: draft.preheader,
              blocks: draft.rawHtml !== null ? [] : draft.blocks,
              html: draft.rawHtml ?? '',
            });
            setOpen(false);
            toast({ title: 'Template saved', description: `“${name}” is in Your templates.` });
            return null;
          } catch (error) {
            const fields = getApiErrorFields(error);
            if (fields.name) return fields.name;
            toastError(error, 'Could not save the template. Please try again.', { serverMessage: 'client-error' });
            return null;
          }
        }}
      />
    </>
  );
}
