import * as React from 'react';
import { Handle, Position, type NodeProps, type NodeTypes } from '@xyflow/react';
import { Clock, GitBranch, Mail, Play, type LucideIcon } from 'lucide-react';
import { ELSE_HANDLE } from '@sendwell/contract/sequences';

import { cn } from '@/lib/utils';
import { describeNode, type BuilderNode } from '../../flow-graph';

/** The id of the node the last save was refused for (the API's 400 named it): drawn in red. */
export const InvalidNodeContext = React.createContext<string | null>(null);

const handleClass = '!bg-muted-foreground !size-2.5 !border-background';

function NodeCard({
  node,
  icon: Icon,
  selected,
  children,
}: {
  node: BuilderNode;
  icon: LucideIcon;
  selected: boolean;
  children?: React.ReactNode;
}) {
  const invalid = React.useContext(InvalidNodeContext) === node.id;
  return (
    <div
      data-node-id={node.id}
      data-invalid={invalid || undefined}
      className={cn(
        'bg-card text-card-foreground w-52 rounded-lg border px-3 py-2 text-left shadow-sm',
        selected && 'ring-ring ring-2',
        invalid && 'border-destructive ring-destructive ring-2',
      )}
    >
      <div className="flex items-center gap-2 text-sm font-medium">
        <Icon className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
        <span className="truncate">{node.data.label ?? node.id}</span>
      </div>
      <p className="text-muted-foreground mt-0.5 truncate text-xs">{describeNode(node)}</p>
      {children}
    </div>
  );
}

function asBuilderNode(props: NodeProps<BuilderNode>): BuilderNode {
  return { id: props.id, type: props.type, position: { x: 0, y: 0 }, data: props.data };
}

function StartNode(props: NodeProps<BuilderNode>) {
  return (
    <>
      <NodeCard node={asBuilderNode(props)} icon={Play} selected={props.selected} />
      <Handle type="source" position={Position.Bottom} className={handleClass} />
    </>
  );
}

function EmailNode(props: NodeProps<BuilderNode>) {
  return (
    <>
      <Handle type="target" position={Position.Top} className={handleClass} />
      <NodeCard node={asBuilderNode(props)} icon={Mail} selected={props.selected} />
      <Handle type="source" position={Position.Bottom} className={handleClass} />
    </>
  );
}

function DelayNode(props: NodeProps<BuilderNode>) {
  return (
    <>
      <Handle type="target" position={Position.Top} className={handleClass} />
      <NodeCard node={asBuilderNode(props)} icon={Clock} selected={props.selected} />
      <Handle type="source" position={Position.Bottom} className={handleClass} />
    </>
  );
}

/** A condition: its normal output bottom left ("yes"), its else output bottom right. */
function ConditionNode(props: NodeProps<BuilderNode>) {
  return (
    <>
      <Handle type="target" position={Position.Top} className={handleClass} />
      <NodeCard node={asBuilderNode(props)} icon={GitBranch} selected={props.selected}>
        <div className="text-muted-foreground mt-1 flex justify-between text-[11px]">
          <span>yes</span>
          <span>else</span>
        </div>
      </NodeCard>
      <Handle type="source" position={Position.Bottom} style={{ left: '25%' }} className={handleClass} />
      <Handle
        type="source"
        id={ELSE_HANDLE}
        position={Position.Bottom}
        style={{ left: '75%' }}
        className={cn(handleClass, '!bg-amber-600')}
      />
    </>
  );
}

/** The canvas's node types: the start node and the three step types. */
export const NODE_TYPES: NodeTypes = {
  input: StartNode,
  email: EmailNode,
  delay: DelayNode,
  condition: ConditionNode,
};
