import type * as React from 'react';
import { Trash2 } from 'lucide-react';
import type { EmailBlock } from '@sendwell/contract/campaigns';
import { CONDITION_CHOICES, DELAY_UNITS, START_NODE_ID } from '@sendwell/contract/sequences';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { targetOf, type BuilderNode, type Output } from '../../flow-graph';
import type { BuilderState } from './use-builder-state';

/**
 * The campaign editor's block editing, passed in by the page (features never import each other):
 * edits an email step's blocks, or copies a saved campaign's subject and blocks into it.
 */
export type BlocksEditorSlot = (props: {
  id: string;
  blocks: EmailBlock[];
  onChange: (blocks: EmailBlock[]) => void;
  onCopyCampaign: (copied: { subject: string; blocks: EmailBlock[] }) => void;
}) => React.ReactNode;

/** Radix Select has no empty value: this one stands for "not connected". */
const NOT_CONNECTED = '__none__';

/** The node settings editor (spec §2/§4): the selected node's fields, applied live, its connections and delete. */
export function NodeSettingsPanel({
  builder,
  node,
  renderBlocksEditor,
}: {
  builder: BuilderState;
  node: BuilderNode;
  renderBlocksEditor?: BlocksEditorSlot;
}) {
  const { data } = node;
  const set = (patch: Parameters<BuilderState['updateNodeData']>[1]) => builder.updateNodeData(node.id, patch);
  const fieldId = (field: string) => `node-${node.id}-${field}`;

  return (
    <section aria-labelledby="node-settings-title" className="space-y-3" data-testid="node-settings">
      <h3 id="node-settings-title" className="text-sm font-semibold">
        Settings: {data.label ?? node.id}
      </h3>

      {node.type !== 'input' && (
        <div className="space-y-1.5">
          <Label htmlFor={fieldId('label')}>Step name</Label>
          <Input id={fieldId('label')} value={data.label ?? ''} onChange={(e) => set({ label: e.target.value })} />
        </div>
      )}

      {node.type === 'email' && (
        <>
          <div className="space-y-1.5">
            <Label htmlFor={fieldId('subject')}>Subject</Label>
            <Input
              id={fieldId('subject')}
              value={data.subject ?? ''}
              onChange={(e) => set({ subject: e.target.value })}
            />
          </div>
          {renderBlocksEditor?.({
            id: fieldId('blocks'),
            blocks: data.blocks ?? [],
            onChange: (blocks) => set({ blocks }),
            onCopyCampaign: ({ subject, blocks }) => set({ subject, blocks }),
          })}
          <div className="space-y-1.5">
            <Label htmlFor={fieldId('content')}>
              {(data.blocks?.length ?? 0) > 0 ? 'HTML content (not used while there are blocks)' : 'Content'}
            </Label>
            <Textarea
              id={fieldId('content')}
              rows={6}
              value={data.content ?? ''}
              placeholder="<p>Hi {{firstName|there}},</p>"
              onChange={(e) => set({ content: e.target.value })}
              aria-describedby={fieldId('content-hint')}
            />
            <p id={fieldId('content-hint')} className="text-muted-foreground text-xs">
              HTML or plain text. Merge tags such as {'{{firstName|there}}'} work as in campaigns.
            </p>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={fieldId('delay')}>Delay (days)</Label>
            <Input
              id={fieldId('delay')}
              type="number"
              inputMode="decimal"
              min={0}
              value={String(data.delay ?? '0')}
              onChange={(e) => set({ delay: e.target.value })}
            />
          </div>
        </>
      )}

      {node.type === 'delay' && <WaitFields builder={builder} node={node} label="Duration" />}

      {node.type === 'condition' && (
        <>
          <div className="space-y-1.5">
            <Label htmlFor={fieldId('condition')}>Condition</Label>
            <Select value={data.condition ?? CONDITION_CHOICES[0]} onValueChange={(condition) => set({ condition })}>
              <SelectTrigger id={fieldId('condition')} className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CONDITION_CHOICES.map((choice) => (
                  <SelectItem key={choice} value={choice}>
                    {choice}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <WaitFields builder={builder} node={node} label="Wait before testing" />
        </>
      )}

      <ConnectSelect
        builder={builder}
        node={node}
        output="next"
        label={node.type === 'condition' ? 'If yes, go to' : 'Connect to'}
      />
      {node.type === 'condition' && (
        <>
          <ConnectSelect builder={builder} node={node} output="else" label="Else, go to" />
          <div className="flex items-center justify-between gap-2">
            <Label htmlFor={fieldId('else-ends')}>Else ends the sequence</Label>
            <Switch
              id={fieldId('else-ends')}
              checked={data.elseEnds ?? false}
              onCheckedChange={(checked) => set({ elseEnds: checked })}
            />
          </div>
        </>
      )}

      {node.id !== START_NODE_ID && (
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive w-full"
          onClick={() => builder.deleteNode(node.id)}
        >
          <Trash2 aria-hidden="true" />
          Delete step
        </Button>
      )}
    </section>
  );
}

/** A wait's duration and unit (a Wait step's, or a condition's optional wait before it tests). */
function WaitFields({ builder, node, label }: { builder: BuilderState; node: BuilderNode; label: string }) {
  const durationId = `node-${node.id}-duration`;
  const unitId = `node-${node.id}-unit`;
  return (
    <div className="grid grid-cols-2 gap-2">
      <div className="space-y-1.5">
        <Label htmlFor={durationId}>{label}</Label>
        <Input
          id={durationId}
          type="number"
          inputMode="decimal"
          min={0}
          value={String(node.data.duration ?? '')}
          onChange={(e) => builder.updateNodeData(node.id, { duration: e.target.value })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={unitId}>Unit</Label>
        <Select value={node.data.unit ?? 'days'} onValueChange={(unit) => builder.updateNodeData(node.id, { unit })}>
          <SelectTrigger id={unitId} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {DELAY_UNITS.map((unit) => (
              <SelectItem key={unit} value={unit}>
                {unit}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}

/** Keyboard connecting: which step an output of this node leads to. */
function ConnectSelect({
  builder,
  node,
  output,
  label,
}: {
  builder: BuilderState;
  node: BuilderNode;
  output: Output;
  label: string;
}) {
  const id = `node-${node.id}-connect-${output}`;
  const choices = builder.nodes.filter((other) => other.id !== node.id && other.id !== START_NODE_ID);
  const current = targetOf(builder.edges, node.id, output);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={current ?? NOT_CONNECTED}
        onValueChange={(value) => builder.connect(node.id, output, value === NOT_CONNECTED ? null : value)}
      >
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NOT_CONNECTED}>{output === 'else' ? 'Not connected' : 'Nothing (end here)'}</SelectItem>
          {choices.map((choice) => (
            <SelectItem key={choice.id} value={choice.id}>
              {choice.data.label ?? choice.id}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
