import * as React from 'react';
import {
  Background,
  BackgroundVariant,
  ConnectionMode,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './sequence-canvas.css';

import { STEP_TYPES, type BuilderNode, type StepType } from '../../flow-graph';
import { InvalidNodeContext, NODE_TYPES } from './flow-nodes';
import type { BuilderState } from './use-builder-state';

/** Spec §9: the canvas's constants. */
const CANVAS = {
  minZoom: 0.5,
  maxZoom: 2,
  snapGrid: [15, 15] as [number, number],
  minimap: { width: 200, height: 150 },
  dotsGap: 20,
} as const;

/** The drag data type a sidebar step carries onto the canvas. */
export const STEP_DRAG_TYPE = 'application/x-sendwell-step';

function isStepType(value: string): value is StepType {
  return (STEP_TYPES as readonly string[]).includes(value);
}

/** The canvas (spec §2): zoom controls, a minimap, a dotted background; steps are dropped onto it. */
export function FlowCanvas({ builder }: { builder: BuilderState }) {
  const { screenToFlowPosition } = useReactFlow();

  const onDrop = (event: React.DragEvent) => {
    event.preventDefault();
    const type = event.dataTransfer.getData(STEP_DRAG_TYPE);
    if (!isStepType(type)) return;
    builder.addStep(type, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };

  return (
    <InvalidNodeContext.Provider value={builder.problem?.nodeId ?? null}>
      <div
        className="sequence-canvas h-full min-h-[24rem] w-full"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
        }}
        onDrop={onDrop}
        data-testid="sequence-canvas"
      >
        <ReactFlow<BuilderNode>
          nodes={builder.nodes}
          edges={builder.edges}
          nodeTypes={NODE_TYPES}
          onNodesChange={builder.onNodesChange}
          onEdgesChange={builder.onEdgesChange}
          onConnect={builder.onConnect}
          onNodeClick={(_, node) => builder.selectNode(node.id)}
          onPaneClick={() => builder.selectNode(null)}
          onSelectionChange={builder.onSelectionChange}
          connectionMode={ConnectionMode.Loose}
          snapToGrid
          snapGrid={CANVAS.snapGrid}
          minZoom={CANVAS.minZoom}
          maxZoom={CANVAS.maxZoom}
          fitView
          fitViewOptions={{ maxZoom: 1 }}
          proOptions={{ hideAttribution: true }}
          ariaLabelConfig={{ 'node.a11yDescription.default': 'Press enter or space to select this step.' }}
        >
          <Background variant={BackgroundVariant.Dots} gap={CANVAS.dotsGap} />
          <Controls showInteractive={false} />
          <MiniMap
            pannable
            zoomable
            ariaLabel="Sequence minimap"
            style={{ width: CANVAS.minimap.width, height: CANVAS.minimap.height }}
            className="hidden sm:block"
          />
        </ReactFlow>
      </div>
    </InvalidNodeContext.Provider>
  );
}
