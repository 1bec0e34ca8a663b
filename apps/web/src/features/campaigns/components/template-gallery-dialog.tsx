import * as React from 'react';
import { Code2, LayoutTemplate, Pencil, Trash2 } from 'lucide-react';
import { galleryTemplates, type CampaignTemplate } from '@sendwell/contract/campaign-templates';

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getApiErrorFields } from '@/lib/api';
import { publicUrl } from '@/lib/public-url';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import {
  useCampaignTemplates,
  useDeleteCampaignTemplate,
  useRenameCampaignTemplate,
} from '../api/use-campaign-templates';
import type { CampaignStart } from '../editor/campaign-form';
import { TemplateNameDialog } from './template-name-dialog';

/** What a new campaign written in its own HTML starts with: a small, valid email to edit. */
const STARTING_HTML = `<!-- Write or paste your email's HTML. Merge tags such as {{firstName|there}} are filled in per reader. -->
<div style="max-width:600px;margin:0 auto;font-family:Arial,Helvetica,sans-serif;color:#333333;">
  <h1 style="font-size:28px;color:#111827;">Hello {{firstName|there}}!</h1>
  <p style="font-size:16px;line-height:1.5;">Write your message here.</p>
  <p><a href="https://example.com" style="display:inline-block;background:#2563eb;color:#ffffff;padding:12px 24px;border-radius:4px;text-decoration:none;">Read more</a></p>
  <p style="font-size:12px;color:#6b7280;"><a href="{{unsubscribe}}">Unsubscribe</a></p>
</div>
`;

/**
 * Start from a template: the starting templates shipped with the app (and a blank page for your
 * own HTML), and the account's own saved templates, which can be renamed and deleted here.
 */
export function TemplateGalleryDialog({
  open,
  onOpenChange,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (start: CampaignStart) => void;
}) {
  const saved = useCampaignTemplates(open);
  // Their sample images are addressed from PUBLIC_URL, like the editor's own sample image (issue 34).
  const gallery = React.useMemo(() => galleryTemplates(publicUrl()), []);
  const [renaming, setRenaming] = React.useState<CampaignTemplate | null>(null);
  const [deleting, setDeleting] = React.useState<CampaignTemplate | null>(null);
  const rename = useRenameCampaignTemplate();
  const remove = useDeleteCampaignTemplate();
  const savedCount = saved.data?.length;

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="flex max-h-[90dvh] flex-col gap-4 overflow-hidden sm:max-w-5xl">
          <DialogHeader>
            <DialogTitle>Start from a template</DialogTitle>
            <DialogDescription>
              Pick a design to start a new campaign with, or one you saved. You can change everything in the editor.
            </DialogDescription>
          </DialogHeader>
          <Tabs defaultValue="gallery" className="min-h-0 flex-1 gap-4">
            <TabsList className="w-full sm:w-auto">
              <TabsTrigger value="gallery">Starting templates</TabsTrigger>
              <TabsTrigger value="saved">
                Your templates{savedCount !== undefined ? ` (${savedCount})` : ''}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="gallery" className="min-h-0 overflow-y-auto pr-1">
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Starting templates">
                {gallery.map((template) => (
                  <li key={template.id}>
                    <TemplateCard
                      name={template.name}
                      description={template.description}
                      onUse={() =>
                        onChoose({
                          templateName: template.name,
                          subject: template.subject,
                          preheader: template.preheader,
                          blocks: template.blocks,
                          html: null,
                        })
                      }
                      picture={
                        <img
                          src={template.imagePath}
                          alt=""
                          width={600}
                          height={280}
                          className="aspect-[15/7] w-full object-cover"
                        />
                      }
                    />
                  </li>
                ))}
                <li>
                  <TemplateCard
                    name="Your own HTML"
                    description="Write or paste HTML in a code editor, with a live preview beside it."
                    onUse={() =>
                      onChoose({
                        templateName: 'Your own HTML',
                        subject: '',
                        preheader: '',
                        blocks: [],
                        html: STARTING_HTML,
                      })
                    }
                    picture={
                      <div className="bg-muted text-muted-foreground flex aspect-[15/7] w-full items-center justify-center">
                        <Code2 className="size-10" aria-hidden="true" />
                      </div>
                    }
                  />
                </li>
              </ul>
            </TabsContent>
            <TabsContent value="saved" className="min-h-0 overflow-y-auto pr-1">
              {saved.isLoading ? (
                <div className="space-y-2" aria-busy="true" aria-label="Loading your templates">
                  <Skeleton className="h-16 w-full" />
                  <Skeleton className="h-16 w-full" />
                </div>
              ) : saved.isError ? (
                <p className="text-destructive text-sm" role="alert">
                  Your templates could not be loaded. Close this and try again.
                </p>
              ) : !saved.data?.length ? (
                <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center text-sm">
                  <LayoutTemplate className="size-8" aria-hidden="true" />
                  <p className="text-foreground font-medium">No saved templates yet</p>
                  <p>
                    In the campaign editor, use Save as template to keep a design here and start new campaigns from it.
                  </p>
                </div>
              ) : (
                <ul className="divide-y rounded-lg border" aria-label="Your templates">
                  {saved.data.map((template) => (
                    <li key={template.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                      <div className="min-w-0 flex-1">
                        <p className="font-medium break-words">{template.name}</p>
                        <p className="text-muted-foreground text-xs">
                          {template.blocks.length > 0
                            ? `${template.blocks.length} ${template.blocks.length === 1 ? 'block' : 'blocks'}`
                            : 'Your own HTML'}{' '}
                          · saved {new Date(template.updatedAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
                        </p>
                      </div>
                      <div className="flex gap-1.5">
                        <Button
                          size="sm"
                          onClick={() =>
                            onChoose({
                              templateName: template.name,
                              subject: template.subject,
                              preheader: template.preheader,
                              blocks: template.blocks,
                              html: template.blocks.length > 0 ? null : template.html,
                            })
                          }
                          aria-label={`Use ${template.name}`}
                        >
                          Use
                        </Button>
                        <Button
                          variant="outline"
                          size="icon"
                          className="size-8"
                          onClick={() => setRenaming(template)}
                          aria-label={`Rename ${template.name}`}
                          title="Rename"
                        >
                          <Pencil aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          className="text-muted-foreground hover:text-destructive size-8"
                          onClick={() => setDeleting(template)}
                          aria-label={`Delete ${template.name}`}
                          title="Delete"
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </TabsContent>
          </Tabs>
        </DialogContent>
      </Dialog>

      <TemplateNameDialog
        open={renaming !== null}
        onOpenChange={(next) => !next && setRenaming(null)}
        title="Rename template"
        description="The new name shows in Your templates."
        submitLabel="Rename"
        initialName={renaming?.name ?? ''}
        pending={rename.isPending}
        onSubmit={async (name) => {
          if (!renaming) return null;
          try {
            await rename.mutateAsync({ id: renaming.id, body: { name } });
            setRenaming(null);
            toast({ title: 'Template renamed', description: `It is now called “${name}”.` });
            return null;
          } catch (error) {
            const field = getApiErrorFields(error).name;
            if (field) return field;
            toastError(error, 'Could not rename the template. Please try again.', { serverMessage: 'client-error' });
            return null;
          }
        }}
      />

      <AlertDialog open={deleting !== null} onOpenChange={(next) => !next && !remove.isPending && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this template?</AlertDialogTitle>
            <AlertDialogDescription>
              “{deleting?.name}” will no longer be offered for new campaigns. Campaigns started from it keep their
              content.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => {
                if (!deleting) return;
                const { id, name } = deleting;
                remove.mutate(id, {
                  onSuccess: () => {
                    setDeleting(null);
                    toast({ title: 'Template deleted', description: `“${name}” was deleted.` });
                  },
                  onError: (error) => {
                    setDeleting(null);
                    toastError(error, 'Could not delete the template. Please try again.', {
                      serverMessage: 'client-error',
                    });
                  },
                });
              }}
            >
              {remove.isPending && <Spinner className="size-4" label="Deleting" />}
              Delete template
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** A starting template: its picture, name and what it is for; the whole card starts a campaign from it. */
function TemplateCard({
  name,
  description,
  picture,
  onUse,
}: {
  name: string;
  description: string;
  picture: React.ReactNode;
  onUse: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onUse}
      className="group bg-card hover:border-primary focus-visible:ring-ring/50 flex h-full w-full flex-col overflow-hidden rounded-lg border text-left shadow-xs transition-colors outline-none focus-visible:ring-[3px]"
      aria-label={`Use the ${name} template`}
    >
      {picture}
      <span className="flex flex-1 flex-col gap-1 p-4">
        <span className="font-medium">{name}</span>
        <span className="text-muted-foreground text-sm">{description}</span>
      </span>
    </button>
  );
}
