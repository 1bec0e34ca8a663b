import * as React from 'react';
import { createPortal } from 'react-dom';
import { DndContext, DragOverlay } from '@dnd-kit/core';
import { Redo2, Undo2 } from 'lucide-react';
import type { CurrentUser } from '@sendwell/contract/auth';
import type { BrandKit } from '@sendwell/contract/brand-kit';
import type { CampaignDetail } from '@sendwell/contract/campaigns';
import type { CampaignStart, ContactSelection } from '../../editor/campaign-form';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { historyShortcut } from '../../editor/block-history';
import { SendConfirmDialog } from '../send-confirm-dialog';
import { DiscardChangesDialog } from '@/components/discard-changes-dialog';
import { DragChip } from './drag-chip';
import { EditorActionBar } from './editor-action-bar';
import { EditorSidebar } from './editor-sidebar';
import { EmailCanvas } from './email-canvas';
import { EmailPreview, type PreviewMode } from './email-preview';
import { SaveAsTemplate } from './save-as-template';
import { ScheduleDialog } from './schedule-dialog';
import { SendTestDialog } from './send-test-dialog';
import { useBlockDnd } from './use-block-dnd';
import { useCampaignDraft } from './use-campaign-draft';
import { useCloseGuard, type EditorCloseHandle } from '@/lib/use-close-guard';
import { useEditorImages } from './use-editor-images';
import { PRE_SEND_CHECKLIST_ID, usePreSendChecks } from './use-pre-send-checks';
import { useSaveAndSend, type EditorResult } from './use-save-and-send';
import { useSenderChoices } from './use-sender-choices';

// CodeMirror is its own chunk, fetched only when a campaign written in its own HTML is opened.
const HtmlCodeEditor = React.lazy(() =>
  import('./html-code-editor').then((module) => ({ default: module.HtmlCodeEditor })),
);

/**
 * The campaign editor (spec §2 Campaign editor, §4 Editor): settings and recipients, the design
 * elements and logo library, the block canvas (drag to add and reorder, keyboard accessible),
 * the Edit Component panel, the server-rendered preview, and Save Draft / Schedule / Send.
 * The state lives in hooks: the draft, the sender choices, the images, drag and drop, saving and
 * sending, and closing; this component lays them out.
 */
export default function CampaignEditor({
  title,
  campaign,
  initialListIds,
  initialSelection,
  start,
  brandKit,
  user,
  closeRef,
  onDone,
}: {
  title: string;
  campaign: CampaignDetail | undefined;
  initialListIds: number[];
  /** Contacts picked on the Contacts page, offered as a recipient (their list is made on save). */
  initialSelection?: ContactSelection;
  /** A new campaign started from a template, or as raw HTML. */
  start?: CampaignStart;
  /** The account's brand kit: a new campaign's blocks start in it. */
  brandKit?: BrandKit;
  user: CurrentUser;
  closeRef: React.RefObject<EditorCloseHandle | null>;
  onDone: (result?: EditorResult) => void;
}) {
  const draft = useCampaignDraft({ campaign, user, initialListIds, initialSelection, start, brandKit });
  const { draft: values, errors, dirty } = draft;
  const htmlMode = values.rawHtml !== null;
  const senders = useSenderChoices({ fromEmail: values.fromEmail, onDefaultSender: draft.adoptDefaultSender });
  const images = useEditorImages(draft, user);
  const dnd = useBlockDnd(draft);
  const actions = useSaveAndSend(draft, onDone);
  const checks = usePreSendChecks(draft, senders, user);
  /** The action bar's "fix" link: the Settings tab, scrolled to the checklist. */
  const showChecklist = () => {
    draft.setLeftTab('settings');
    window.setTimeout(() => {
      const checklist = document.getElementById(PRE_SEND_CHECKLIST_ID);
      checklist?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      checklist?.focus({ preventScroll: true });
    }, 0);
  };
  const closing = useCloseGuard({
    dirty,
    blocked: () => dnd.isDragging() || actions.busy !== null,
    closeRef,
    onClose: () => onDone(),
  });
  const [previewMode, setPreviewMode] = React.useState<PreviewMode>('desktop');
  /**
   * Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z undo and redo block changes wherever the focus is in the editor
   * (also on the dialog itself); in a text box they keep their usual meaning (the box's own undo),
   * and nothing happens while another dialog (Schedule, Send Test, a confirmation) is on top.
   */
  const historyActions = React.useRef({ undo: draft.undo, redo: draft.redo });
  React.useEffect(() => {
    historyActions.current = { undo: draft.undo, redo: draft.redo };
  });
  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = historyShortcut(event);
      if (!action || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (document.querySelectorAll('[role="dialog"], [role="alertdialog"]').length > 1) return;
      event.preventDefault();
      historyActions.current[action]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  const generalError = errors.fields.content;

  return (
    <>
      <DialogHeader className="flex-row items-center justify-between gap-4 space-y-0 border-b px-4 py-3 text-left sm:px-6">
        <div className="min-w-0 space-y-1">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className="truncate">
            {values.name.trim()
              ? values.name
              : start
                ? `Started from “${start.templateName}”. Choose who gets it, then send or schedule it.`
                : 'Design your email, choose who gets it, then send or schedule it.'}
          </DialogDescription>
        </div>
        <SaveAsTemplate draft={values} defaultName={values.name} />
      </DialogHeader>

      <DndContext {...dnd.contextProps}>
        <div className="min-h-0 flex-1 overflow-y-auto lg:grid lg:grid-cols-[300px_minmax(0,1fr)_minmax(320px,400px)] lg:overflow-hidden">
          {/* Left column: settings and recipients, design elements, logos, Edit Component. */}
          <EditorSidebar draft={draft} senders={senders} images={images} checks={checks} />

          {htmlMode && (
            /* Centre: the campaign's own HTML in a code editor. */
            <section
              aria-labelledby="html-editor-heading"
              className="bg-muted/40 flex min-h-[480px] flex-col gap-2 px-4 pt-3 pb-6 sm:px-6 lg:min-h-0"
            >
              <h3 id="html-editor-heading" className="text-sm font-semibold">
                Your HTML
              </h3>
              <p id="html-editor-help" className="text-muted-foreground text-xs">
                Merge tags such as {'{{firstName|there}}'} are filled in for each reader and links are tracked. Put{' '}
                {'{{unsubscribe}}'} where the unsubscribe link goes, or our footer with it is added at the bottom.
              </p>
              {generalError && (
                <p className="text-destructive text-sm font-medium" role="alert">
                  {generalError}
                </p>
              )}
              <div className="min-h-0 flex-1">
                <React.Suspense fallback={<Skeleton className="h-full min-h-[320px] w-full" />}>
                  <HtmlCodeEditor
                    value={values.rawHtml ?? ''}
                    onChange={draft.editRawHtml}
                    labelledBy="html-editor-heading"
                    describedBy="html-editor-help"
                  />
                </React.Suspense>
              </div>
            </section>
          )}

          {/* Centre: the canvas. */}
          <section
            aria-labelledby="canvas-heading"
            hidden={htmlMode}
            className="bg-muted/40 flex min-h-[480px] flex-col lg:min-h-0 lg:overflow-y-auto"
          >
            <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-2 sm:px-6">
              <h3 id="canvas-heading" className="text-sm font-semibold">
                Email Canvas
              </h3>
              <div className="flex items-center gap-1">
                <p className="text-muted-foreground mr-1 text-xs">
                  {values.blocks.length} {values.blocks.length === 1 ? 'block' : 'blocks'}
                </p>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  onClick={draft.undo}
                  disabled={!draft.canUndo}
                  aria-label="Undo"
                  title="Undo (Ctrl+Z)"
                  aria-keyshortcuts="Control+Z Meta+Z"
                >
                  <Undo2 aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  onClick={draft.redo}
                  disabled={!draft.canRedo}
                  aria-label="Redo"
                  title="Redo (Shift+Ctrl+Z)"
                  aria-keyshortcuts="Shift+Control+Z Shift+Meta+Z"
                >
                  <Redo2 aria-hidden="true" />
                </Button>
              </div>
            </div>
            {generalError && (
              <p className="text-destructive mx-4 mb-2 text-sm font-medium sm:mx-6" role="alert">
                {generalError}
              </p>
            )}
            <div className="flex-1 px-4 pb-6 sm:px-6">
              <EmailCanvas
                blocks={values.blocks}
                selectedId={draft.selectedId}
                blockErrors={errors.blocks}
                insertAt={dnd.insertAt}
                paletteDragging={dnd.activeDrag?.kind === 'palette' || dnd.activeDrag?.kind === 'saved'}
                reordering={dnd.activeDrag?.kind === 'block'}
                uploadingCount={images.uploadingCount}
                onSelect={draft.selectBlock}
                onDuplicate={draft.duplicateBlock}
                onDelete={draft.removeBlock}
                onFilesDropped={(files, beforeId) => void images.onFilesDropped(files, beforeId)}
                onAddToColumn={draft.addToColumn}
              />
            </div>
          </section>

          {/* Right: the server-rendered preview and Send Test. */}
          <aside
            aria-label="Preview"
            className="flex min-h-[560px] flex-col border-t p-4 lg:min-h-0 lg:border-t-0 lg:border-l"
          >
            <EmailPreview
              blocks={values.blocks}
              html={values.rawHtml}
              subject={values.subject}
              mode={previewMode}
              onModeChange={setPreviewMode}
              onSendTest={() => actions.setTestOpen(true)}
            />
          </aside>
        </div>

        {createPortal(
          <DragOverlay zIndex={1000} dropAnimation={null}>
            {dnd.activeDrag ? <DragChip data={dnd.activeDrag} blocks={values.blocks} /> : null}
          </DragOverlay>,
          document.body,
        )}
      </DndContext>

      <EditorActionBar
        dirty={dirty}
        everSaved={draft.campaignId !== null}
        autosave={actions.autosave}
        busy={actions.busy}
        confirmingSend={actions.confirm !== null}
        blocked={checks.blocked}
        onShowChecklist={showChecklist}
        onCancel={closing.requestClose}
        onSave={() => void actions.saveDraft()}
        onSchedule={() => actions.setScheduleOpen(true)}
        onSend={() => void actions.startSend()}
      />

      <ScheduleDialog
        open={actions.scheduleOpen}
        onOpenChange={actions.setScheduleOpen}
        initialIso={campaign?.scheduledAt ?? null}
        initialTimeZone={campaign?.timeZone ?? user.timeZone}
        pending={actions.busy === 'schedule'}
        onSchedule={(iso, date, timeZone) => void actions.schedule(iso, date, timeZone)}
      />
      <SendTestDialog
        open={actions.testOpen}
        onOpenChange={actions.setTestOpen}
        defaultEmail={user.email}
        pending={actions.busy === 'test'}
        onSend={actions.runSendTest}
      />
      <SendConfirmDialog
        open={actions.confirm !== null}
        onOpenChange={(open) => !open && actions.cancelSend()}
        campaignName={actions.confirm?.name ?? ''}
        count={actions.confirm?.count ?? null}
        countError={actions.confirm?.countError}
        pending={actions.busy === 'send'}
        onConfirm={() => void actions.confirmSend()}
        checks={checks.checks}
      />
      <DiscardChangesDialog
        open={closing.discardOpen}
        onOpenChange={closing.setDiscardOpen}
        onDiscard={() => onDone()}
        subject="this campaign"
      />
    </>
  );
}
