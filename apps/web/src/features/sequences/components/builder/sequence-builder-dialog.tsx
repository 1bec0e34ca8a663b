import * as React from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { AlertCircle, Clock, GitBranch, Mail, Plus, type LucideIcon } from 'lucide-react';
import type { Sequence } from '@sendwell/contract/sequences';
import type { SequenceTemplate } from '@sendwell/contract/sequence-templates';

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { DiscardChangesDialog } from '@/components/discard-changes-dialog';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useCloseGuard, type EditorCloseHandle } from '@/lib/use-close-guard';
import { STEP_PALETTE, type StepType } from '../../flow-graph';
import { editImpactText } from '../../sequence-labels';
import { FlowCanvas, STEP_DRAG_TYPE } from './flow-canvas';
import { TriggerFields } from './trigger-fields';
import { NodeSettingsPanel, type BlocksEditorSlot } from './node-settings-panel';
import { useBuilderState, type BuilderInitial, type BuilderState } from './use-builder-state';
import { useSaveSequence, type PendingImpact } from './use-save-sequence';

/** What the builder opens for: a new sequence (optionally from a template) or an existing one. */
export type BuilderTarget = { kind: 'new'; template?: SequenceTemplate } | { kind: 'edit'; sequence: Sequence };

const STEP_ICONS: Record<StepType, LucideIcon> = { email: Mail, delay: Clock, condition: GitBranch };

/** Spec §3: a new sequence is triggered by signup (a contact joining a list). */
const NEW_TRIGGER = { triggerType: 'signup', triggerConfig: {} } as const;

function initialOf(target: BuilderTarget): BuilderInitial {
  if (target.kind === 'edit') {
    const { sequence } = target;
    return {
      name: sequence.name,
      description: sequence.description ?? '',
      triggerType: sequence.triggerType,
      triggerConfig: sequence.triggerConfig,
      flowData: sequence.flowData,
    };
  }
  if (target.template) {
    const { template } = target;
    return { ...NEW_TRIGGER, name: template.name, description: template.description, flowData: template.flowData };
  }
  return { ...NEW_TRIGGER, name: '', description: '', flowData: null };
}

/**
 * The Email Sequence Builder (spec §2/§4): a full-screen dialog. Closing it (its Close button,
 * Escape) with unsaved changes asks 'Discard unsaved changes?' first, as the campaign editor does;
 * discarding throws the builder's state away, and each opening starts fresh from its target.
 */
export function SequenceBuilderDialog({
  target,
  onClose,
  renderBlocksEditor,
}: {
  target: BuilderTarget | null;
  onClose: () => void;
  renderBlocksEditor?: BlocksEditorSlot;
}) {
  const title = target?.kind === 'edit' ? `Edit: ${target.sequence.name}` : 'Email Sequence Builder';
  const [openCount, setOpenCount] = React.useState(0);
  const [lastTarget, setLastTarget] = React.useState(target);
  if (target !== lastTarget) {
    setLastTarget(target);
    if (target) setOpenCount((count) => count + 1);
  }
  const closeRef = React.useRef<EditorCloseHandle | null>(null);
  const requestClose = () => {
    if (closeRef.current) closeRef.current.requestClose();
    else onClose();
  };
  useBackButtonCloses(target !== null, () => closeRef.current?.requestClose());
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && requestClose()}>
      <DialogContent
        className="flex h-[100dvh] max-h-[100dvh] w-screen max-w-none flex-col gap-0 overflow-hidden rounded-none p-0 sm:max-w-none"
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader className="border-b px-4 py-3 pr-12 sm:px-6">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Drag steps onto the canvas, or add them with the buttons, then connect them.
          </DialogDescription>
        </DialogHeader>
        {target && (
          <ReactFlowProvider key={openCount}>
            <BuilderBody
              target={target}
              onClose={onClose}
              closeRef={closeRef}
              renderBlocksEditor={renderBlocksEditor}
            />
          </ReactFlowProvider>
        )}
      </DialogContent>
    </Dialog>
  );
}

const BUILDER_HISTORY_MARK = 'sequence-builder';

/**
 * The browser's Back button while the builder is open closes it as its Close button does (asking
 * first when there are unsaved changes) rather than leaving the page: the builder holds one history
 * entry of the same address while open, given back when it closes.
 */
function useBackButtonCloses(open: boolean, requestClose: () => void) {
  const requestCloseRef = React.useRef(requestClose);
  React.useEffect(() => {
    requestCloseRef.current = requestClose;
  });
  React.useEffect(() => {
    if (!open) return;
    const mark = () => window.history.pushState({ [BUILDER_HISTORY_MARK]: true }, '');
    const marked = () => (window.history.state as Record<string, unknown> | null)?.[BUILDER_HISTORY_MARK] === true;
    mark();
    const onPopState = () => {
      // Held again until the builder really closes (a question may keep it open).
      mark();
      requestCloseRef.current();
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      if (marked()) window.history.back();
    };
  }, [open]);
}

/** What a save would send, as one string: equal to the opening's when nothing was changed. */
function savedFormOf(builder: BuilderState): string {
  return JSON.stringify([builder.name, builder.description, builder.trigger, builder.flowData()]);
}

function BuilderBody({
  target,
  onClose,
  closeRef,
  renderBlocksEditor,
}: {
  target: BuilderTarget;
  onClose: () => void;
  closeRef: React.RefObject<EditorCloseHandle | null>;
  renderBlocksEditor?: BlocksEditorSlot;
}) {
  const [initial] = React.useState(() => initialOf(target));
  const builder = useBuilderState(initial);
  const editing = target.kind === 'edit' ? target.sequence : null;
  const saver = useSaveSequence(builder, editing, onClose);
  // Selecting, zooming or panning changes nothing a save sends, so it asks nothing on close.
  const [openedForm] = React.useState(() => savedFormOf(builder));
  const closing = useCloseGuard({
    dirty: savedFormOf(builder) !== openedForm,
    blocked: () => saver.isSaving,
    closeRef,
    onClose,
  });
  const nameBlank = builder.name.trim() === '';
  // A refused save scrolls its message into view: the sidebar is usually scrolled down to Save.
  const problemRef = React.useRef<HTMLDivElement>(null);
  const problem = builder.problem;
  React.useEffect(() => {
    if (problem) problemRef.current?.scrollIntoView({ block: 'nearest' });
  }, [problem]);
  const saveLabel = saver.isSaving ? 'Saving...' : editing ? 'Update Sequence' : 'Save Sequence';

  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto md:flex-row md:overflow-hidden">
      <aside
        aria-label="Sequence settings"
        className="space-y-5 border-b p-4 md:w-96 md:shrink-0 md:overflow-y-auto md:border-r md:border-b-0"
      >
        <div className="space-y-1.5">
          <Label htmlFor="sequence-name">Sequence Name</Label>
          <Input
            id="sequence-name"
            value={builder.name}
            onChange={(e) => builder.setName(e.target.value)}
            placeholder="e.g., Welcome Series"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="sequence-description">Description (Optional)</Label>
          <Textarea
            id="sequence-description"
            rows={2}
            value={builder.description}
            onChange={(e) => builder.setDescription(e.target.value)}
          />
        </div>

        <TriggerFields
          triggerType={builder.trigger.type}
          triggerConfig={builder.trigger.config}
          onChange={builder.setTrigger}
        />

        <section aria-labelledby="step-types-title" className="space-y-2">
          <h3 id="step-types-title" className="text-sm font-semibold">
            Steps
          </h3>
          <ul className="space-y-2">
            {STEP_PALETTE.map((step) => {
              const Icon = STEP_ICONS[step.type];
              return (
                <li key={step.type}>
                  <button
                    type="button"
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.setData(STEP_DRAG_TYPE, step.type);
                      event.dataTransfer.effectAllowed = 'move';
                    }}
                    onClick={() => builder.addStep(step.type)}
                    aria-label={`Add ${step.title}`}
                    data-step-type={step.type}
                    className="group hover:bg-accent focus-visible:ring-ring/50 flex w-full cursor-grab items-center gap-3 rounded-md border px-3 py-2 text-left outline-none focus-visible:ring-[3px]"
                  >
                    <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
                    <span className="min-w-0 flex-1">
                      <span className="block text-sm font-medium">{step.title}</span>
                      <span className="text-muted-foreground group-hover:text-foreground block text-xs">
                        {step.hint}
                      </span>
                    </span>
                    <Plus className="text-muted-foreground size-4" aria-hidden="true" />
                  </button>
                </li>
              );
            })}
          </ul>
        </section>

        {builder.problem && (
          <Alert variant="destructive" data-testid="flow-problem" ref={problemRef}>
            <AlertCircle aria-hidden="true" />
            <AlertTitle>This sequence cannot be saved yet</AlertTitle>
            <AlertDescription>{builder.problem.message}</AlertDescription>
          </Alert>
        )}

        {builder.selectedNode ? (
          <NodeSettingsPanel
            key={builder.selectedNode.id}
            builder={builder}
            node={builder.selectedNode}
            renderBlocksEditor={renderBlocksEditor}
          />
        ) : (
          <p className="text-muted-foreground text-sm">Select a step on the canvas to edit its settings.</p>
        )}

        <div className="flex flex-col gap-2">
          <Button onClick={() => void saver.save()} disabled={nameBlank || saver.isSaving}>
            {saveLabel}
          </Button>
          <Button variant="outline" onClick={builder.clear} disabled={saver.isSaving}>
            Clear Canvas
          </Button>
        </div>

        <section aria-labelledby="builder-help-title" className="text-muted-foreground space-y-1 text-xs">
          <h3 id="builder-help-title" className="text-foreground text-sm font-semibold">
            How to build
          </h3>
          <ol className="list-decimal space-y-1 pl-4">
            <li>Drag a step onto the canvas, or press its button to add it below the selected step.</li>
            <li>Connect steps by dragging from one dot to another, or with “Connect to” in the settings.</li>
            <li>A condition’s right dot is its else branch.</li>
            <li>Select a step and press Delete to remove it.</li>
          </ol>
        </section>
      </aside>
      <div className="h-[60vh] min-h-[24rem] flex-1 md:h-auto">
        <FlowCanvas builder={builder} />
      </div>
      <EditImpactDialog pending={saver.pendingImpact} onConfirm={saver.confirmImpact} onCancel={saver.cancelImpact} />
      <DiscardChangesDialog
        open={closing.discardOpen}
        onOpenChange={closing.setDiscardOpen}
        onDiscard={onClose}
        subject="this sequence"
      />
    </div>
  );
}

/** Before an edit of a sequence with enrolments in flight is saved: how many it affects. */
function EditImpactDialog({
  pending,
  onConfirm,
  onCancel,
}: {
  pending: PendingImpact | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const impact = pending?.impact;
  return (
    <AlertDialog open={pending !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Update a sequence in use?</AlertDialogTitle>
          <AlertDialogDescription data-testid="edit-impact">
            {impact ? editImpactText(impact) : ''}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button onClick={onConfirm}>Update Sequence</Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
