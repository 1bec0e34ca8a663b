import type { Edge, Node, XYPosition } from '@xyflow/react';
import {
  CONDITION_CHOICES,
  ELSE_HANDLE,
  START_NODE_ID,
  startOnlyFlow,
  type FlowData,
  type FlowEdge,
  type FlowNode,
  type FlowNodeData,
} from '@sendwell/contract/sequences';

/** The three step types the sidebar offers (the start node is never added by hand). */
export const STEP_TYPES = ['email', 'delay', 'condition'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** Spec §2: the sidebar's draggable step types, their names and hints. */
export const STEP_PALETTE: readonly { type: StepType; title: string; hint: string }[] = [
  { type: 'email', title: 'Email Step', hint: 'Send an email' },
  { type: 'delay', title: 'Wait Step', hint: 'Add a delay' },
  { type: 'condition', title: 'Condition', hint: 'Branch logic' },
];

/** Spec §3: how a new node of each type is labelled ('Email 2', 'Wait 1', 'Condition 3'). */
const LABEL_PREFIX: Record<StepType, string> = { email: 'Email', delay: 'Wait', condition: 'Condition' };

/** Spec §3 defaults of a new email step's subject. */
const DEFAULT_EMAIL_SUBJECT = 'Click to edit subject';

/**
 * A builder node's data: the contract's node data, plus the saved node's own `style` kept aside
 * (the templates' start node carries one) so that a flow reopened and saved again is unchanged,
 * while the canvas draws every node in the app's own colours.
 */
export type BuilderNodeData = FlowNodeData & { savedStyle?: FlowNode['style'] };
export type BuilderNode = Node<BuilderNodeData, FlowNode['type']>;
export type BuilderEdge = Edge;

/** The flow as the canvas holds it: React Flow nodes and edges. */
export function toBuilder(flow: FlowData): { nodes: BuilderNode[]; edges: BuilderEdge[] } {
  return {
    nodes: flow.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      position: { x: node.position.x, y: node.position.y },
      data: node.style ? { ...node.data, savedStyle: node.style } : { ...node.data },
      // The start node is in every flow: it cannot be deleted from the canvas.
      ...(node.type === 'input' ? { deletable: false } : {}),
    })),
    edges: flow.edges.map(toBuilderEdge),
  };
}

function toBuilderEdge(edge: FlowEdge): BuilderEdge {
  const isElse = edge.sourceHandle === ELSE_HANDLE;
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
    ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}),
    ...(isElse ? { label: 'else' } : {}),
  };
}

/** The canvas's nodes and edges as the API takes them (flowData). */
export function fromBuilder(nodes: readonly BuilderNode[], edges: readonly BuilderEdge[]): FlowData {
  return {
    nodes: nodes.map((node) => {
      const { savedStyle, ...data } = node.data;
      const type = (node.type ?? 'email') as FlowNode['type'];
      return {
        id: node.id,
        type,
        position: { x: node.position.x, y: node.position.y },
        data,
        ...(savedStyle ? { style: savedStyle } : {}),
      };
    }),
    edges: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
      ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}),
    })),
  };
}

/** The canvas of a new sequence: the start node only (spec §4). */
export function startOnlyBuilder(): { nodes: BuilderNode[]; edges: BuilderEdge[] } {
  return toBuilder(startOnlyFlow());
}

/** A fresh node id: the type and the time (spec §3), with a suffix if that id is taken already. */
export function newNodeId(type: StepType, nodes: readonly { id: string }[], now: number = Date.now()): string {
  const taken = new Set(nodes.map((node) => node.id));
  let id = `${type}-${now}`;
  for (let n = 2; taken.has(id); n += 1) id = `${type}-${now}-${n}`;
  return id;
}

/** A new step of `type` at `position`, numbered by how many nodes of that type exist already (spec §4). */
export function newStepNode(
  type: StepType,
  position: XYPosition,
  nodes: readonly BuilderNode[],
  now: number = Date.now(),
): BuilderNode {
  const number = nodes.filter((node) => node.type === type).length + 1;
  const label = `${LABEL_PREFIX[type]} ${number}`;
  const data: BuilderNodeData =
    type === 'email'
      ? { label, subject: DEFAULT_EMAIL_SUBJECT, content: '', delay: '0' }
      : type === 'delay'
        ? { label, duration: '1', unit: 'days' }
        : { label, condition: CONDITION_CHOICES[0] };
  return { id: newNodeId(type, nodes, now), type, position, data };
}

/** Where a step added by keyboard goes: below the selected node, else below the lowest node. */
export function nextStepPosition(nodes: readonly BuilderNode[], selectedId: string | null): XYPosition {
  const selected = nodes.find((node) => node.id === selectedId);
  if (selected) return { x: selected.position.x, y: selected.position.y + 150 };
  const lowest = nodes.reduce<BuilderNode | null>(
    (low, node) => (low === null || node.position.y > low.position.y ? node : low),
    null,
  );
  return lowest ? { x: lowest.position.x, y: lowest.position.y + 150 } : { x: 400, y: 200 };
}

/** Which output of a node an edge leaves by: the condition's else output, or the normal one. */
export type Output = 'next' | 'else';

function outputOf(edge: { sourceHandle?: string | null }): Output {
  return edge.sourceHandle === ELSE_HANDLE ? 'else' : 'next';
}

/** The node an output leads to, or null when it is not connected. */
export function targetOf(edges: readonly BuilderEdge[], source: string, output: Output): string | null {
  return edges.find((edge) => edge.source === source && outputOf(edge) === output)?.target ?? null;
}

/**
 * The edges with `source`'s `output` leading to `target` (null: to nothing). An output has one next
 * step, so a new connection replaces the one it had; the edge into the start node is refused.
 */
export function connectOutput(
  edges: readonly BuilderEdge[],
  source: string,
  output: Output,
  target: string | null,
): BuilderEdge[] {
  const kept = edges.filter((edge) => !(edge.source === source && outputOf(edge) === output));
  if (target === null || target === START_NODE_ID || target === source) return kept;
  const isElse = output === 'else';
  return [
    ...kept,
    {
      id: `e-${source}-${target}${isElse ? '-else' : ''}`,
      source,
      target,
      ...(isElse ? { sourceHandle: ELSE_HANDLE, label: 'else' } : {}),
    },
  ];
}

/** The canvas without `nodeId` and the edges touching it (the start node stays). */
export function removeNode(
  nodes: readonly BuilderNode[],
  edges: readonly BuilderEdge[],
  nodeId: string,
): { nodes: BuilderNode[]; edges: BuilderEdge[] } {
  if (nodeId === START_NODE_ID) return { nodes: [...nodes], edges: [...edges] };
  return {
    nodes: nodes.filter((node) => node.id !== nodeId),
    edges: edges.filter((edge) => edge.source !== nodeId && edge.target !== nodeId),
  };
}

/**
 * The node a 400 from the API names. Its `fields` key is a path into the flowData that was sent
 * ('flowData.nodes.2', 'flowData.edges.0'): a node path names that node; an edge path names the
 * edge's source (or, the server's validateFlow having said which, the caller may know better).
 */
export function nodeIdFromFieldPath(path: string, flow: FlowData): string | null {
  const match = /^flowData\.(nodes|edges)\.(\d+)/.exec(path);
  if (!match) return null;
  const index = Number(match[2]);
  if (match[1] === 'nodes') return flow.nodes[index]?.id ?? null;
  return flow.edges[index]?.source ?? null;
}

/** A short summary of a node for its card on the canvas and for the "Connect to" choices. */
export function describeNode(node: BuilderNode): string {
  const data = node.data;
  switch (node.type) {
    case 'email':
      return data.subject?.trim() || 'No subject yet';
    case 'delay': {
      const unit = data.unit ?? 'days';
      // "Wait 1 day", not "Wait 1 days".
      return `Wait ${data.duration ?? ''} ${Number(data.duration) === 1 ? unit.replace(/s$/, '') : unit}`.trim();
    }
    case 'condition':
      return `If ${(data.condition ?? CONDITION_CHOICES[0]).toLowerCase()}`;
    default:
      return 'Enrolled contacts start here';
  }
}

/** How many emails a flow sends at most (the templates' cards say it). */
export function emailCount(flow: FlowData): number {
  return flow.nodes.filter((node) => node.type === 'email').length;
}
