import * as React from 'react';
import { createPortal } from 'react-dom';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { CalendarClock, Save, Send } from 'lucide-react';
import type { CurrentUser } from '@sendwell/contract/auth';
import type { CampaignDetail, EmailBlock } from '@sendwell/contract/campaigns';
import type { UploadedImage } from '@sendwell/contract/uploads';

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
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getApiErrorFields, isUnauthorizedError } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { redirectToLogin } from '@/lib/unauthorized';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { cn } from '@/lib/utils';
import { fetchRecipientCount, useCreateCampaign, useSendTest, useUpdateCampaign } from '../../api/use-campaigns';
import { useContactLists, useDomainAliases, useDomains, useSegments, useUploadImage } from '../../api/use-editor-data';
import { SAVE_FAILED, SEND_FAILED } from '../../campaign-toasts';
import {
  BLOCK_TYPE_LABELS,
  createBlock,
  createImageBlock,
  describeBlock,
  duplicateBlock,
  insertBlock,
  moveBlock,
  removeBlock,
  springSaleTemplate,
  updateBlockContent,
  updateBlockStyles,
  type BlockType,
} from '../../editor/blocks';
import {
  draftFingerprint,
  initialDraft,
  serverDraftErrors,
  toCampaignBody,
  validateCampaignBody,
  type CampaignDraft,
  type DraftErrors,
  type SaveStatus,
} from '../../editor/campaign-form';
import { checkImageFile, imageFilesOf, toastUploadError, UPLOAD_FAILED } from '../../editor/image-files';
import { formatScheduleTime } from '../../editor/schedule';
import { defaultSender, isVerifiedSender, senderOptions } from '../../editor/sender-options';
import { SendConfirmDialog } from '../send-confirm-dialog';
import { BlockInspector } from './block-inspector';
import { BLOCK_ICONS, DesignElements } from './design-elements';
import { CANVAS_ID, EmailCanvas, type DragData } from './email-canvas';
import { EmailPreview, type PreviewMode } from './email-preview';
import { LogoLibrary } from './logo-library';
import { ScheduleDialog } from './schedule-dialog';
import { SendTestDialog } from './send-test-dialog';
import { CampaignSettings, RecipientPicker } from './settings-panel';

/** How the editor closed: nothing saved, or what happened to the campaign. */
export type EditorResult = { kind: 'saved' | 'scheduled' | 'sent'; campaign: CampaignDetail };
/** Lets the dialog around the editor ask it to close (Escape): the editor asks first when there are unsaved changes. */
export type EditorCloseHandle = { requestClose: () => void };

const NO_ERRORS: DraftErrors = { fields: {}, blocks: {} };
const SETTINGS_FIELDS = new Set([
  'name',
  'subject',
  'fromName',
  'fromEmail',
  'replyTo',
  'scheduledAt',
  'status',
  'listIds',
  'segmentIds',
]);
type LeftTab = 'settings' | 'design';

/**
 * The campaign editor (spec §2 Campaign editor, §4 Editor): settings and recipients, the design
 * elements and logo library, the block canvas (drag to add and reorder, keyboard accessible),
 * the Edit Component panel, the server-rendered preview, and Save Draft / Schedule / Send.
 */
export default function CampaignEditor({
  title,
  campaign,
  initialListIds,
  user,
  closeRef,
  onDone,
}: {
  title: string;
  campaign: CampaignDetail | undefined;
  initialListIds: number[];
  user: CurrentUser;
  closeRef: React.RefObject<EditorCloseHandle | null>;
  onDone: (result?: EditorResult) => void;
}) {
  // ── Data ────────────────────────────────────────────────────────────────────
  const lists = useContactLists(true);
  const segments = useSegments(true);
  const domains = useDomains(true);
  const firstDomainId = domains.data?.[0]?.id ?? null;
  const aliases = useDomainAliases(firstDomainId);
  const sendersSettled = !domains.isLoading && !(firstDomainId !== null && aliases.isLoading);

  // ── Draft state ─────────────────────────────────────────────────────────────
  const [draft, setDraft] = React.useState<CampaignDraft>(() =>
    initialDraft(campaign, {
      fromEmail: '',
      fromName: user.company || `${user.firstName} ${user.lastName}`.trim(),
      listIds: initialListIds,
      blocks: springSaleTemplate(),
    }),
  );
  const [savedPrint, setSavedPrint] = React.useState(() => draftFingerprint(draft));
  const [campaignId, setCampaignId] = React.useState<number | null>(campaign?.id ?? null);
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const [errors, setErrors] = React.useState<DraftErrors>(NO_ERRORS);
  const [leftTab, setLeftTab] = React.useState<LeftTab>(campaign ? 'design' : 'settings');
  const [previewMode, setPreviewMode] = React.useState<PreviewMode>('desktop');
  const dirty = draftFingerprint(draft) !== savedPrint;

  const senders = senderOptions({
    domains: domains.data,
    aliases: aliases.data,
    userEmail: user.email,
    keep: draft.fromEmail || campaign?.fromEmail,
  });

  // A new campaign gets the default sender (marketing@…) once the domains are known; that is
  // not a change the user made, so the saved fingerprint moves with it.
  React.useEffect(() => {
    if (draft.fromEmail || !sendersSettled) return;
    const fromEmail = defaultSender(senders);
    if (!fromEmail) return;
    const next = { ...draft, fromEmail };
    setSavedPrint((print) => (print === draftFingerprint(draft) ? draftFingerprint(next) : print));
    setDraft(next);
  }, [draft, sendersSettled, senders]);

  const patchDraft = (patch: Partial<CampaignDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setBlocks = (update: (blocks: EmailBlock[]) => EmailBlock[]) =>
    setDraft((current) => ({ ...current, blocks: update(current.blocks) }));

  const clearFieldError = (fields: string[]) =>
    setErrors((current) => {
      if (!fields.some((field) => current.fields[field])) return current;
      const next = { ...current.fields };
      for (const field of fields) delete next[field];
      return { ...current, fields: next };
    });
  const clearBlockError = (id: string) =>
    setErrors((current) => {
      if (!current.blocks[id]) return current;
      const next = { ...current.blocks };
      delete next[id];
      return { ...current, blocks: next };
    });

  // ── Block operations ────────────────────────────────────────────────────────
  const selectBlock = (id: string | null) => {
    setSelectedId(id);
    if (id) setLeftTab('design');
  };
  const addBlock = (type: BlockType, index?: number) => {
    const block = createBlock(type);
    setBlocks((blocks) => insertBlock(blocks, block, index));
    selectBlock(block.id);
    clearFieldError(['content']);
  };
  const addImage = (src: string, alt: string) => {
    const block = createImageBlock(src, alt);
    setBlocks((blocks) => insertBlock(blocks, block));
    selectBlock(block.id);
  };
  const duplicate = (id: string) => {
    const result = duplicateBlock(draft.blocks, id);
    setBlocks(() => result.blocks);
    if (result.copyId) setSelectedId(result.copyId);
  };
  const remove = (id: string) => {
    const result = removeBlock(draft.blocks, id, selectedId);
    setBlocks(() => result.blocks);
    setSelectedId(result.selectedId);
    clearBlockError(id);
  };
  const selectedBlock = draft.blocks.find((block) => block.id === selectedId) ?? null;

  // ── Uploads ─────────────────────────────────────────────────────────────────
  const uploadImage = useUploadImage();
  const [uploadingCount, setUploadingCount] = React.useState(0);

  /** Image files dropped on the canvas: each becomes an image block; failures are skipped and reported once. */
  const onFilesDropped = async (files: File[]) => {
    const images = imageFilesOf(files);
    if (images.length === 0) {
      if (files.length > 0)
        toast({
          title: 'Invalid file type',
          description: 'Please select an image file (JPG, PNG, GIF, etc.)',
          variant: 'destructive',
        });
      return;
    }
    const accepted = images.filter((file) => {
      const problem = checkImageFile(file);
      if (problem) toast({ ...problem, variant: 'destructive' });
      return problem === null;
    });
    let failed = 0;
    setUploadingCount((n) => n + accepted.length);
    for (const file of accepted) {
      try {
        const uploaded = await uploadImage.mutateAsync(file);
        addImage(uploaded.url, altFromFileName(file.name));
      } catch (error) {
        // Spec §5: a failed upload is logged and that file is skipped; the others still go in.
        console.error('Image upload failed', file.name, error);
        if (isUnauthorizedError(error)) return;
        failed += 1;
      } finally {
        setUploadingCount((n) => n - 1);
      }
    }
    if (failed > 0) toast({ ...UPLOAD_FAILED, variant: 'destructive' });
  };

  /** An image chosen in the Edit Component panel replaces that block's picture. */
  const onUploadForBlock = (blockId: string, file: File) => {
    const problem = checkImageFile(file);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    uploadImage.mutate(file, {
      onSuccess: (uploaded) => {
        setBlocks((blocks) => updateBlockContent<'image'>(blocks, blockId, { src: uploaded.url }));
        clearBlockError(blockId);
      },
      onError: toastUploadError,
    });
  };

  const insertLogo = (logo: UploadedImage) => addImage(logo.url, user.company ? `${user.company} logo` : 'Logo');

  // ── Saving ──────────────────────────────────────────────────────────────────
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const [busy, setBusy] = React.useState<null | 'save' | 'schedule' | 'send' | 'test'>(null);

  /** Shows validation errors where they belong: settings on the Settings tab, a block's in its panel. */
  const showErrors = (next: DraftErrors) => {
    setErrors(next);
    const fields = Object.keys(next.fields);
    const firstBlock = Object.keys(next.blocks)[0];
    if (fields.some((field) => SETTINGS_FIELDS.has(field))) {
      setLeftTab('settings');
    } else if (firstBlock) {
      selectBlock(firstBlock);
    }
  };

  /** Saves the draft (create or update) with a status; null when it did not save (errors are shown). */
  const persist = async (status: SaveStatus, scheduledAt?: string): Promise<CampaignDetail | null> => {
    const body = toCampaignBody(draft, status, scheduledAt);
    const invalid = validateCampaignBody(body);
    if (invalid) {
      showErrors(invalid);
      const first = Object.values(invalid.fields)[0] ?? Object.values(invalid.blocks)[0];
      toast({ title: 'Error', description: first ?? SAVE_FAILED, variant: 'destructive' });
      return null;
    }
    setErrors(NO_ERRORS);
    const print = draftFingerprint(draft);
    try {
      const saved =
        campaignId === null ? await create.mutateAsync(body) : await update.mutateAsync({ id: campaignId, body });
      setCampaignId(saved.id);
      setSavedPrint(print);
      return saved;
    } catch (error) {
      const fields = getApiErrorFields(error);
      if (Object.keys(fields).length > 0) showErrors(serverDraftErrors(fields, draft.blocks));
      toastError(error, SAVE_FAILED, { serverMessage: 'client-error' });
      return null;
    }
  };

  const saveDraft = async () => {
    setBusy('save');
    const saved = await persist('draft');
    setBusy(null);
    if (!saved) return;
    toast({ title: 'Campaign Saved', description: 'Your campaign has been saved successfully!' });
    onDone({ kind: 'saved', campaign: saved });
  };

  const [scheduleOpen, setScheduleOpen] = React.useState(false);
  const schedule = async (iso: string, date: Date) => {
    setBusy('schedule');
    const saved = await persist('scheduled', iso);
    setBusy(null);
    setScheduleOpen(false);
    if (!saved) return;
    toast({ title: 'Campaign Scheduled', description: `“${saved.name}” will be sent ${formatScheduleTime(date)}.` });
    onDone({ kind: 'scheduled', campaign: saved });
  };

  // Send Campaign: save, then confirm with the recipient count, then save with status 'sent' (spec §4).
  const [confirm, setConfirm] = React.useState<{
    id: number;
    name: string;
    count: number | null;
    countError: boolean;
  } | null>(null);
  const startSend = async () => {
    setBusy('send');
    const saved = await persist('draft');
    if (!saved) {
      setBusy(null);
      return;
    }
    setConfirm({ id: saved.id, name: saved.name, count: null, countError: false });
    try {
      const { count } = await fetchRecipientCount(saved.id);
      setConfirm((current) => current && { ...current, count });
    } catch (error) {
      if (isUnauthorizedError(error)) {
        setConfirm(null);
        redirectToLogin();
      } else {
        setConfirm((current) => current && { ...current, countError: true });
      }
    } finally {
      setBusy(null);
    }
  };
  const confirmSend = async () => {
    if (!confirm) return;
    setBusy('send');
    try {
      const sent = await update.mutateAsync({ id: confirm.id, body: { status: 'sent' } });
      setConfirm(null);
      toast({
        title: 'Campaign Sending',
        description: `“${sent.name}” is on its way to ${formatNumber(sent.totalRecipients)} ${sent.totalRecipients === 1 ? 'recipient' : 'recipients'}.`,
      });
      onDone({ kind: 'sent', campaign: sent });
    } catch (error) {
      setConfirm(null);
      toastError(error, SEND_FAILED, { serverMessage: 'client-error' });
    } finally {
      setBusy(null);
    }
  };

  // Send Test: saves the draft when it has changes, then sends the test.
  const [testOpen, setTestOpen] = React.useState(false);
  const sendTest = useSendTest();
  const runSendTest = async (emails: string[]): Promise<boolean> => {
    setBusy('test');
    try {
      let id = campaignId;
      if (id === null || dirty) {
        const saved = await persist('draft');
        if (!saved) {
          setTestOpen(false);
          return false;
        }
        id = saved.id;
      }
      const { sent } = await sendTest.mutateAsync({ id, emails });
      toast({
        title: 'Test Email Sent',
        description: `Sent a test to ${sent === 1 ? emails[0] : `${sent} addresses`}.`,
      });
      return true;
    } catch (error) {
      toastError(error, 'Failed to send the test email. Please try again.', { serverMessage: 'client-error' });
      return false;
    } finally {
      setBusy(null);
    }
  };

  // ── Closing ─────────────────────────────────────────────────────────────────
  const [discardOpen, setDiscardOpen] = React.useState(false);
  const draggingRef = React.useRef(false);
  const requestClose = () => {
    if (draggingRef.current || busy) return;
    if (dirty) setDiscardOpen(true);
    else onDone();
  };
  React.useEffect(() => {
    closeRef.current = { requestClose };
    return () => {
      closeRef.current = null;
    };
  });

  // Unsaved work survives a mistaken reload or tab close.
  React.useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // A file dropped beside the canvas must not make the browser open it (and lose the editor).
  React.useEffect(() => {
    const stop = (event: DragEvent) => {
      if (event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);

  // ── Drag and drop ───────────────────────────────────────────────────────────
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [activeDrag, setActiveDrag] = React.useState<DragData | null>(null);
  const [insertAt, setInsertAt] = React.useState<number | null>(null);

  const dragData = (event: { active: { data: { current?: unknown } } }) =>
    (event.active.data.current ?? null) as DragData | null;

  /** Where a palette item over the canvas would land: before or after the block under it, else at the end. */
  const paletteIndex = (event: DragMoveEvent | DragEndEvent): number | null => {
    const over = event.over;
    if (!over) return null;
    if (over.id === CANVAS_ID) return draft.blocks.length;
    const index = draft.blocks.findIndex((block) => block.id === over.id);
    if (index < 0) return null;
    const rect = event.active.rect.current.translated;
    const middle = over.rect.top + over.rect.height / 2;
    return rect && rect.top + rect.height / 2 > middle ? index + 1 : index;
  };

  const onDragStart = (event: DragStartEvent) => {
    draggingRef.current = true;
    setActiveDrag(dragData(event));
  };
  const onDragMove = (event: DragMoveEvent) => {
    if (dragData(event)?.kind !== 'palette') return;
    const index = paletteIndex(event);
    setInsertAt((current) => (current === index ? current : index));
  };
  const endDrag = () => {
    setActiveDrag(null);
    setInsertAt(null);
    // Escape ends a keyboard drag; let that key press finish before Escape may close the dialog again.
    setTimeout(() => {
      draggingRef.current = false;
    }, 0);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const data = dragData(event);
    if (data?.kind === 'palette') {
      const index = paletteIndex(event);
      if (index !== null) addBlock(data.type, index);
    } else if (
      data?.kind === 'block' &&
      event.over &&
      event.over.id !== event.active.id &&
      event.over.id !== CANVAS_ID
    ) {
      const overId = String(event.over.id);
      setBlocks((blocks) => moveBlock(blocks, data.id, overId));
    }
    endDrag();
  };

  /** Palette drags land where the pointer is (a block, else the canvas); reordering uses the closest block. */
  const collisionDetection: CollisionDetection = (args) => {
    const data = (args.active.data.current ?? null) as DragData | null;
    if (data?.kind === 'palette') {
      const hits = pointerWithin(args);
      const onBlock = hits.find((hit) => hit.id !== CANVAS_ID);
      return onBlock ? [onBlock] : hits;
    }
    return closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter((container) => container.id !== CANVAS_ID),
    });
  };

  const dragLabel = (data: DragData | null): string => {
    if (!data) return 'The element';
    if (data.kind === 'palette') return `New ${BLOCK_TYPE_LABELS[data.type].toLowerCase()} block`;
    const block = draft.blocks.find((b) => b.id === data.id);
    return block ? describeBlock(block) : 'The block';
  };
  const positionOf = (id: string | number | undefined) => draft.blocks.findIndex((block) => block.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${dragLabel(active.data.current as DragData)}.`,
    onDragOver: ({ active, over }) =>
      over && over.id !== CANVAS_ID
        ? `${dragLabel(active.data.current as DragData)} is at position ${positionOf(over.id)} of ${draft.blocks.length}.`
        : over
          ? `${dragLabel(active.data.current as DragData)} is over the email.`
          : `${dragLabel(active.data.current as DragData)} is no longer over the email.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${dragLabel(active.data.current as DragData)} was dropped${over.id !== CANVAS_ID ? ` at position ${positionOf(over.id)}` : ''}.`
        : `${dragLabel(active.data.current as DragData)} was dropped outside the email.`,
    onDragCancel: ({ active }) => `Moving ${dragLabel(active.data.current as DragData)} was cancelled.`,
  };

  const settingsErrorCount = Object.keys(errors.fields).filter((field) => SETTINGS_FIELDS.has(field)).length;
  const generalError = errors.fields.content;

  return (
    <>
      <DialogHeader className="flex-row items-center justify-between gap-4 space-y-0 border-b px-4 py-3 text-left sm:px-6">
        <div className="min-w-0 space-y-1">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className="truncate">
            {draft.name.trim() ? draft.name : 'Design your email, choose who gets it, then send or schedule it.'}
          </DialogDescription>
        </div>
      </DialogHeader>

      <DndContext
        sensors={sensors}
        collisionDetection={collisionDetection}
        onDragStart={onDragStart}
        onDragMove={onDragMove}
        onDragEnd={onDragEnd}
        onDragCancel={endDrag}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move a block, press Space or Enter to pick it up, use the arrow keys to move it, and press Space or Enter again to drop it. Press Escape to cancel.',
          },
        }}
      >
        <div className="min-h-0 flex-1 overflow-y-auto lg:grid lg:grid-cols-[300px_minmax(0,1fr)_minmax(320px,400px)] lg:overflow-hidden">
          {/* Left column: settings and recipients, design elements, logos, Edit Component. */}
          <aside
            aria-label="Campaign settings and design"
            className="border-b lg:min-h-0 lg:overflow-y-auto lg:border-r lg:border-b-0"
          >
            <Tabs value={leftTab} onValueChange={(value) => setLeftTab(value as LeftTab)} className="gap-0">
              <div className="bg-background/95 sticky top-0 z-10 border-b px-4 py-3 backdrop-blur">
                <TabsList className="w-full">
                  <TabsTrigger value="settings">
                    Settings
                    {settingsErrorCount > 0 && (
                      <span className="bg-destructive text-destructive-foreground rounded-full px-1.5 text-[10px] leading-4">
                        {settingsErrorCount}
                        <span className="sr-only"> {settingsErrorCount === 1 ? 'error' : 'errors'}</span>
                      </span>
                    )}
                  </TabsTrigger>
                  <TabsTrigger value="design">Design</TabsTrigger>
                </TabsList>
              </div>
              <TabsContent value="settings" className="space-y-6 p-4">
                <CampaignSettings
                  values={draft}
                  errors={errors.fields}
                  senders={senders}
                  sendersLoading={!sendersSettled && !draft.fromEmail}
                  senderVerified={isVerifiedSender(draft.fromEmail, domains.data)}
                  onChange={(patch) => {
                    patchDraft(patch);
                    clearFieldError(Object.keys(patch));
                  }}
                />
                <RecipientPicker
                  lists={lists}
                  segments={segments}
                  listIds={draft.listIds}
                  segmentIds={draft.segmentIds}
                  error={errors.fields.listIds ?? errors.fields.segmentIds}
                  onListIds={(listIds) => patchDraft({ listIds })}
                  onSegmentIds={(segmentIds) => patchDraft({ segmentIds })}
                />
              </TabsContent>
              <TabsContent value="design" className="space-y-6 p-4">
                {selectedBlock && (
                  <BlockInspector
                    key={selectedBlock.id}
                    block={selectedBlock}
                    error={errors.blocks[selectedBlock.id]}
                    uploading={uploadImage.isPending}
                    onContent={(patch) => {
                      setBlocks((blocks) => updateBlockContent(blocks, selectedBlock.id, patch));
                      clearBlockError(selectedBlock.id);
                      clearFieldError(['content']);
                    }}
                    onStyles={(patch) => setBlocks((blocks) => updateBlockStyles(blocks, selectedBlock.id, patch))}
                    onResetStyles={() =>
                      setBlocks((blocks) => blocks.map((b) => (b.id === selectedBlock.id ? { ...b, styles: {} } : b)))
                    }
                    onUploadImage={(file) => onUploadForBlock(selectedBlock.id, file)}
                    onClose={() => setSelectedId(null)}
                  />
                )}
                <DesignElements onAdd={(type) => addBlock(type)} />
                <LogoLibrary onInsert={insertLogo} />
              </TabsContent>
            </Tabs>
          </aside>

          {/* Centre: the canvas. */}
          <section
            aria-labelledby="canvas-heading"
            className="bg-muted/40 flex min-h-[480px] flex-col lg:min-h-0 lg:overflow-y-auto"
          >
            <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-2 sm:px-6">
              <h3 id="canvas-heading" className="text-sm font-semibold">
                Email Canvas
              </h3>
              <p className="text-muted-foreground text-xs">
                {draft.blocks.length} {draft.blocks.length === 1 ? 'block' : 'blocks'}
              </p>
            </div>
            {generalError && (
              <p className="text-destructive mx-4 mb-2 text-sm font-medium sm:mx-6" role="alert">
                {generalError}
              </p>
            )}
            <div className="flex-1 px-4 pb-6 sm:px-6">
              <EmailCanvas
                blocks={draft.blocks}
                selectedId={selectedId}
                blockErrors={errors.blocks}
                insertAt={insertAt}
                paletteDragging={activeDrag?.kind === 'palette'}
                reordering={activeDrag?.kind === 'block'}
                uploadingCount={uploadingCount}
                onSelect={selectBlock}
                onDuplicate={duplicate}
                onDelete={remove}
                onFilesDropped={(files) => void onFilesDropped(files)}
              />
            </div>
          </section>

          {/* Right: the server-rendered preview and Send Test. */}
          <aside
            aria-label="Preview"
            className="flex min-h-[560px] flex-col border-t p-4 lg:min-h-0 lg:border-t-0 lg:border-l"
          >
            <EmailPreview
              blocks={draft.blocks}
              subject={draft.subject}
              mode={previewMode}
              onModeChange={setPreviewMode}
              onSendTest={() => setTestOpen(true)}
            />
          </aside>
        </div>

        {createPortal(
          <DragOverlay zIndex={1000} dropAnimation={null}>
            {activeDrag ? <DragChip data={activeDrag} blocks={draft.blocks} /> : null}
          </DragOverlay>,
          document.body,
        )}
      </DndContext>

      {/* Bottom bar. */}
      <div className="bg-background flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3 sm:px-6">
        <p className="text-muted-foreground text-xs" aria-live="polite">
          {dirty ? 'Unsaved changes' : campaignId !== null ? 'All changes saved' : 'Not saved yet'}
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={requestClose} disabled={busy !== null}>
            Cancel
          </Button>
          <Button variant="outline" onClick={() => void saveDraft()} disabled={busy !== null}>
            {busy === 'save' ? <Spinner className="size-4" label="Saving" /> : <Save aria-hidden="true" />}
            {busy === 'save' ? 'Saving...' : 'Save Draft'}
          </Button>
          <Button variant="outline" onClick={() => setScheduleOpen(true)} disabled={busy !== null}>
            <CalendarClock aria-hidden="true" />
            Schedule Later
          </Button>
          <Button onClick={() => void startSend()} disabled={busy !== null}>
            {busy === 'send' && !confirm ? <Spinner className="size-4" label="Saving" /> : <Send aria-hidden="true" />}
            Send Campaign
          </Button>
        </div>
      </div>

      <ScheduleDialog
        open={scheduleOpen}
        onOpenChange={setScheduleOpen}
        initialIso={campaign?.scheduledAt ?? null}
        pending={busy === 'schedule'}
        onSchedule={(iso, date) => void schedule(iso, date)}
      />
      <SendTestDialog
        open={testOpen}
        onOpenChange={setTestOpen}
        defaultEmail={user.email}
        pending={busy === 'test'}
        onSend={runSendTest}
      />
      <SendConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        campaignName={confirm?.name ?? ''}
        count={confirm?.count ?? null}
        countError={confirm?.countError}
        pending={busy === 'send'}
        onConfirm={() => void confirmSend()}
      />
      <AlertDialog open={discardOpen} onOpenChange={setDiscardOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Discard unsaved changes?</AlertDialogTitle>
            <AlertDialogDescription>
              Your latest changes to this campaign have not been saved and will be lost.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep editing</AlertDialogCancel>
            <AlertDialogAction
              className={cn('bg-destructive hover:bg-destructive/90 text-white')}
              onClick={() => onDone()}
            >
              Discard
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** What follows the pointer while dragging: the element's icon and name. */
function DragChip({ data, blocks }: { data: DragData; blocks: readonly EmailBlock[] }) {
  const block = data.kind === 'block' ? blocks.find((b) => b.id === data.id) : undefined;
  const type = data.kind === 'palette' ? data.type : (block?.type ?? 'text');
  const Icon = BLOCK_ICONS[type];
  return (
    <div
      aria-hidden="true"
      className="bg-background text-foreground flex w-max max-w-72 items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium shadow-lg"
    >
      <Icon className="text-muted-foreground size-4 shrink-0" />
      <span className="truncate">{block ? describeBlock(block) : BLOCK_TYPE_LABELS[type]}</span>
    </div>
  );
}

/** 'spring-banner_v2.png' → 'spring banner v2' (a starting alt text the user can improve). */
function altFromFileName(name: string): string {
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim()
    .slice(0, 300);
}
