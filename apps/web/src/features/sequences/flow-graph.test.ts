import { describe, expect, it } from 'vitest';
import { validateFlow } from '@sendwell/contract/sequences';
import { SEQUENCE_TEMPLATES } from '@sendwell/contract/sequence-templates';
import {
  connectOutput,
  describeNode,
  fromBuilder,
  newNodeId,
  newStepNode,
  nextStepPosition,
  nodeIdFromFieldPath,
  removeNode,
  startOnlyBuilder,
  targetOf,
  toBuilder,
} from './flow-graph';

describe('flow <-> canvas conversion', () => {
  it('round-trips every template unchanged, the start node style and else handles included', () => {
    for (const template of SEQUENCE_TEMPLATES) {
      const canvas = toBuilder(template.flowData);
      expect(fromBuilder(canvas.nodes, canvas.edges)).toEqual(template.flowData);
    }
  });

  it('keeps a saved style off the canvas node and labels else edges', () => {
    const feedback = SEQUENCE_TEMPLATES.find((t) => t.id === 'feedback-loop');
    const canvas = toBuilder(feedback?.flowData ?? { nodes: [], edges: [] });
    const start = canvas.nodes.find((n) => n.id === 'start');
    expect(start?.style).toBeUndefined();
    expect(start?.deletable).toBe(false);
    expect(start?.data.savedStyle).toEqual({ background: '#10b981', color: 'white', border: 'none' });
    expect(canvas.edges.find((e) => e.sourceHandle === 'else')?.label).toBe('else');
  });

  it('starts a new sequence with the start node at 400,50 only', () => {
    const { nodes, edges } = startOnlyBuilder();
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ id: 'start', type: 'input', position: { x: 400, y: 50 } });
    expect(edges).toEqual([]);
  });
});

describe('new steps', () => {
  it('numbers a step by how many of its type exist and gives the spec defaults', () => {
    const { nodes } = startOnlyBuilder();
    const first = newStepNode('email', { x: 1, y: 2 }, nodes, 1000);
    expect(first).toMatchObject({
      id: 'email-1000',
      type: 'email',
      position: { x: 1, y: 2 },
      data: { label: 'Email 1', subject: 'Click to edit subject', delay: '0' },
    });
    const second = newStepNode('email', { x: 0, y: 0 }, [...nodes, first], 1000);
    expect(second.id).toBe('email-1000-2');
    expect(second.data.label).toBe('Email 2');
    expect(newStepNode('delay', { x: 0, y: 0 }, nodes, 5).data).toEqual({
      label: 'Wait 1',
      duration: '1',
      unit: 'days',
    });
    const wait = newStepNode('delay', { x: 0, y: 0 }, nodes, 5);
    expect(describeNode(wait)).toBe('Wait 1 day');
    expect(describeNode({ ...wait, data: { ...wait.data, duration: '3', unit: 'hours' } })).toBe('Wait 3 hours');
    expect(newStepNode('condition', { x: 0, y: 0 }, nodes, 5).data).toEqual({
      label: 'Condition 1',
      condition: 'Email opened',
    });
  });

  it('never reuses an id', () => {
    expect(newNodeId('delay', [{ id: 'delay-7' }, { id: 'delay-7-2' }], 7)).toBe('delay-7-3');
  });

  it('places a keyboard-added step below the selected or the lowest node', () => {
    const { nodes } = startOnlyBuilder();
    const email = newStepNode('email', { x: 400, y: 300 }, nodes, 1);
    expect(nextStepPosition([...nodes, email], 'start')).toEqual({ x: 400, y: 200 });
    expect(nextStepPosition([...nodes, email], null)).toEqual({ x: 400, y: 450 });
  });
});

describe('connections', () => {
  it('gives an output one next step, replacing the one it had, and refuses edges into the start', () => {
    let edges = connectOutput([], 'start', 'next', 'email-1');
    edges = connectOutput(edges, 'start', 'next', 'email-2');
    expect(edges).toEqual([{ id: 'e-start-email-2', source: 'start', target: 'email-2' }]);
    expect(targetOf(edges, 'start', 'next')).toBe('email-2');
    expect(connectOutput(edges, 'email-2', 'next', 'start')).toEqual(edges);
    expect(connectOutput(edges, 'start', 'next', null)).toEqual([]);
  });

  it('keeps a condition’s else output apart from its normal one', () => {
    let edges = connectOutput([], 'condition-1', 'next', 'email-1');
    edges = connectOutput(edges, 'condition-1', 'else', 'email-2');
    expect(targetOf(edges, 'condition-1', 'next')).toBe('email-1');
    expect(targetOf(edges, 'condition-1', 'else')).toBe('email-2');
    expect(edges[1]).toMatchObject({ sourceHandle: 'else', label: 'else' });
  });

  it('builds a flow the contract accepts from keyboard steps', () => {
    const start = startOnlyBuilder();
    const email = newStepNode('email', { x: 400, y: 200 }, start.nodes, 1);
    email.data.content = '<p>Hello</p>';
    const nodes = [...start.nodes, email];
    const edges = connectOutput(start.edges, 'start', 'next', email.id);
    expect(validateFlow(fromBuilder(nodes, edges))).toBeNull();
  });

  it('removes a node with its edges but never the start node', () => {
    const start = startOnlyBuilder();
    const email = newStepNode('email', { x: 0, y: 0 }, start.nodes, 1);
    const edges = connectOutput([], 'start', 'next', email.id);
    expect(removeNode([...start.nodes, email], edges, email.id)).toEqual({ nodes: start.nodes, edges: [] });
    expect(removeNode(start.nodes, edges, 'start').nodes).toHaveLength(1);
  });
});

describe('the node a 400 names', () => {
  it('reads node and edge paths of the flow that was sent', () => {
    const flow = SEQUENCE_TEMPLATES[0]?.flowData ?? { nodes: [], edges: [] };
    expect(nodeIdFromFieldPath('flowData.nodes.2', flow)).toBe('delay-1');
    expect(nodeIdFromFieldPath('flowData.nodes.2.data', flow)).toBe('delay-1');
    expect(nodeIdFromFieldPath('flowData.edges.0', flow)).toBe('start');
    expect(nodeIdFromFieldPath('name', flow)).toBeNull();
  });
});
