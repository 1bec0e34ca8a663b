import * as React from 'react';
import { useEdgesState, useNodesState, type Connection, type XYPosition } from '@xyflow/react';
import type { FlowData, TriggerConfig, TriggerType } from '@sendwell/contract/sequences';

import {
  connectOutput,
  fromBuilder,
  newStepNode,
  nextStepPosition,
  removeNode,
  startOnlyBuilder,
  toBuilder,
  type BuilderEdge,
  type BuilderNode,
  type BuilderNodeData,
  type Output,
  type StepType,
} from '../../flow-graph';

/** What the builder opens with: a sequence's saved fields, a template's, or nothing (a new sequence). */
export interface BuilderInitial {
  name: string;
  description: string;
  triggerType: TriggerType;
  triggerConfig: TriggerConfig;
  flowData: FlowData | null;
}

/** A save the API refused for the flow: the node it named and its message. */
export interface FlowProblem {
  nodeId: string | null;
  message: string;
}

/** The builder's state: name, description, the canvas, the selected node and the last refused save's problem. */
export function useBuilderState(initial: BuilderInitial) {
  const start = React.useMemo(
    () => (initial.flowData && initial.flowData.nodes.length > 0 ? toBuilder(initial.flowData) : startOnlyBuilder()),
    [initial.flowData],
  );
  const [name, setName] = React.useState(initial.name);
  const [description, setDescription] = React.useState(initial.description);
  const [trigger, setTrigger] = React.useState({ type: initial.triggerType, config: initial.triggerConfig });
  const [nodes, setNodes, onNodesChange] = useNodesState<BuilderNode>(start.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState<BuilderEdge>(start.edges);
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const [problem, setProblem] = React.useState<FlowProblem | null>(null);

  const selectNode = React.useCallback(
    (id: string | null) => {
      setSelectedId(id);
      setNodes((current) => current.map((node) => ({ ...node, selected: node.id === id })));
    },
    [setNodes],
  );

  /** The canvas's own selection (a click, or Enter on a focused node): its one node's settings open. */
  const onSelectionChange = React.useCallback(({ nodes: selected }: { nodes: BuilderNode[] }) => {
    if (selected.length === 1 && selected[0]) setSelectedId(selected[0].id);
  }, []);

  /** Adds a step at `position` (a drop point), or below the selected node for a keyboard add, and selects it. */
  const addStep = (type: StepType, position?: XYPosition) => {
    const node = newStepNode(type, position ?? nextStepPosition(nodes, selectedId), nodes);
    setNodes([...nodes.map((n) => ({ ...n, selected: false })), { ...node, selected: true }]);
    setSelectedId(node.id);
    return node;
  };

  /** Live edits of a node's settings. */
  const updateNodeData = (id: string, patch: Partial<BuilderNodeData>) => {
    setNodes((current) =>
      current.map((node) => (node.id === id ? { ...node, data: { ...node.data, ...patch } } : node)),
    );
    // The refused node being edited: its red mark would now point at a problem that may be gone.
    if (problem?.nodeId === id) setProblem(null);
  };

  /** Connects `source`'s output to `target` (null: disconnects it). */
  const connect = (source: string, output: Output, target: string | null) =>
    setEdges((current) => connectOutput(current, source, output, target));

  /** A connection drawn on the canvas (loose mode: from whichever handle the drag began at). */
  const onConnect = (connection: Connection) =>
    connect(connection.source, connection.sourceHandle === 'else' ? 'else' : 'next', connection.target);

  const deleteNode = (id: string) => {
    const next = removeNode(nodes, edges, id);
    setNodes(next.nodes);
    setEdges(next.edges);
    if (selectedId === id) setSelectedId(null);
    if (problem?.nodeId === id) setProblem(null);
  };

  /** Clear Canvas: back to the start node only. */
  const clear = () => {
    const empty = startOnlyBuilder();
    setNodes(empty.nodes);
    setEdges(empty.edges);
    setSelectedId(null);
    setProblem(null);
  };

  return {
    name,
    setName,
    description,
    setDescription,
    trigger,
    setTrigger: (type: TriggerType, config: TriggerConfig) => setTrigger({ type, config }),
    nodes,
    edges,
    onNodesChange,
    onEdgesChange,
    onConnect,
    selectedId,
    selectedNode: nodes.find((node) => node.id === selectedId) ?? null,
    selectNode,
    onSelectionChange,
    addStep,
    updateNodeData,
    connect,
    deleteNode,
    clear,
    problem,
    setProblem,
    flowData: () => fromBuilder(nodes, edges),
  };
}

export type BuilderState = ReturnType<typeof useBuilderState>;
