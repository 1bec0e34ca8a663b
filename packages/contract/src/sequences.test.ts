import { describe, expect, it } from 'vitest';
import { SEQUENCE_TEMPLATES } from './sequence-templates.ts';
import {
  createSequenceBodySchema,
  flowDataSchema,
  startOnlyFlow,
  validateFlow,
  waitMilliseconds,
  type FlowData,
  type FlowNode,
} from './sequences.ts';

const start = startOnlyFlow().nodes[0] as FlowNode;
const email = (id: string, data: FlowNode['data'] = {}): FlowNode => ({
  id,
  type: 'email',
  position: { x: 0, y: 0 },
  data: { label: id, subject: 'Hello', content: '<p>Hi</p>', ...data },
});
const delay = (id: string, data: FlowNode['data'] = {}): FlowNode => ({
  id,
  type: 'delay',
  position: { x: 0, y: 0 },
  data: { label: id, duration: '1', unit: 'days', ...data },
});
const condition = (id: string, data: FlowNode['data'] = {}): FlowNode => ({
  id,
  type: 'condition',
  position: { x: 0, y: 0 },
  data: { label: id, condition: 'Email opened', ...data },
});
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}->${target}${sourceHandle ?? ''}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});
const flow = (nodes: FlowNode[], edges: ReturnType<typeof edge>[]): FlowData => ({ nodes: [start, ...nodes], edges });

describe('validateFlow', () => {
  it('accepts each of the six templates', () => {
    expect(SEQUENCE_TEMPLATES.map((t) => t.id)).toEqual([
      'welcome-series',
      'product-launch',
      're-engagement',
      'abandoned-cart',
      'educational-drip',
      'feedback-loop',
    ]);
    for (const template of SEQUENCE_TEMPLATES) {
      expect(validateFlow(template.flowData), template.id).toBeNull();
      expect(flowDataSchema.safeParse(template.flowData).success, template.id).toBe(true);
    }
  });

  it('the templates have the spec part 2 §3 shape (emails and waits)', () => {
    const shape = (id: string) => {
      const template = SEQUENCE_TEMPLATES.find((t) => t.id === id);
      const nodes = template?.flowData.nodes ?? [];
      return {
        emails: nodes.filter((n) => n.type === 'email').length,
        waits: nodes.filter((n) => n.type === 'delay').map((n) => Number(n.data.duration)),
        conditions: nodes.filter((n) => n.type === 'condition').length,
      };
    };
    expect(shape('welcome-series')).toEqual({ emails: 3, waits: [2, 3], conditions: 0 });
    expect(shape('product-launch')).toEqual({ emails: 5, waits: [3, 4, 2, 3], conditions: 0 });
    expect(shape('re-engagement')).toEqual({ emails: 4, waits: [7, 7, 7], conditions: 0 });
    expect(shape('abandoned-cart')).toEqual({ emails: 3, waits: [1, 5], conditions: 0 });
    expect(shape('educational-drip')).toEqual({ emails: 6, waits: [5, 5, 5, 5, 5], conditions: 0 });
    expect(shape('feedback-loop')).toEqual({ emails: 4, waits: [7], conditions: 1 });
  });

  it('accepts the start-only flow every new sequence begins with', () => {
    expect(validateFlow(startOnlyFlow())).toBeNull();
    expect(startOnlyFlow().nodes[0]).toMatchObject({ id: 'start', position: { x: 400, y: 50 } });
  });

  it('names the node in each refusal', () => {
    const cases: [FlowData, RegExp][] = [
      [{ nodes: [email('email-1')], edges: [] }, /needs a start node/],
      [flow([{ ...start, id: 'start-2' }], []), /more than one start node: Sequence Start \(start-2\)/],
      [flow([email('email-1'), email('email-1')], []), /Two nodes have the id 'email-1'/],
      [flow([email('email-1', { subject: '  ' })], []), /email-1 needs a subject/],
      [flow([email('email-1', { content: '', label: 'Email 1' })], []), /Email 1 \(email-1\) needs content/],
      [flow([email('email-1', { delay: '-1' })], []), /email-1: the delay in days/],
      [flow([delay('delay-1', { duration: '0' })], []), /delay-1: the wait must be a positive number/],
      [flow([delay('delay-1', { duration: 'soon' })], []), /delay-1: the wait must be a positive number/],
      [flow([delay('delay-1', { unit: 'fortnights' })], []), /delay-1: the unit must be minutes, hours, days or weeks/],
      [flow([delay('delay-1', { duration: '600', unit: 'weeks' })], []), /at most 10 years/],
      [flow([condition('condition-1', { condition: 'Moon is full' })], []), /condition-1: the condition must be/],
      [flow([condition('condition-1')], []), /condition-1: connect its else output or mark it to end/],
      [flow([email('email-1')], [edge('start', 'nowhere')]), /ends at a node that does not exist \(nowhere\)/],
      [flow([email('email-1')], [edge('ghost', 'email-1')]), /starts at a node that does not exist \(ghost\)/],
      [flow([email('email-1')], [edge('email-1', 'start')]), /leads into the start node/],
      [flow([email('email-1')], [edge('email-1', 'email-1', 'else')]), /email-1 has no else output/],
      [
        flow([email('email-1'), email('email-2')], [edge('start', 'email-1'), edge('start', 'email-2')]),
        /Sequence Start \(start\) has two next steps/,
      ],
      [
        flow([email('email-1'), email('email-2')], [edge('email-1', 'email-2'), edge('email-2', 'email-1')]),
        /is on a loop with no wait in it/,
      ],
      [flow([email('email-1')], [edge('email-1', 'email-1')]), /email-1 is on a loop with no wait/],
      // Issue 27: "email → wait 1 minute → back to the email" would mail one contact ~1,440 times a day.
      [
        flow(
          [email('email-1', { label: 'Welcome' }), delay('delay-1', { duration: '1', unit: 'minutes' })],
          [edge('start', 'email-1'), edge('email-1', 'delay-1'), edge('delay-1', 'email-1')],
        ),
        /^Welcome \(email-1\) is on a loop that waits only 1 minute in all; a loop must wait at least 1 day$/,
      ],
      [
        flow(
          [
            email('email-1'),
            delay('delay-1', { duration: '23', unit: 'hours' }),
            condition('condition-1', { duration: '59', unit: 'minutes', elseEnds: true }),
          ],
          [edge('email-1', 'delay-1'), edge('delay-1', 'condition-1'), edge('condition-1', 'email-1')],
        ),
        /email-1 is on a loop that waits only 1439 minutes in all/,
      ],
    ];
    for (const [candidate, message] of cases) {
      expect(validateFlow(candidate)?.message, String(message)).toMatch(message);
    }
  });

  it('accepts a loop that passes a wait, and a condition whose else deliberately ends', () => {
    const loop = flow(
      [email('email-1'), delay('delay-1')],
      [edge('start', 'email-1'), edge('email-1', 'delay-1'), edge('delay-1', 'email-1')],
    );
    expect(validateFlow(loop)).toBeNull();
    const ends = flow(
      [email('email-1'), condition('condition-1', { elseEnds: true })],
      [edge('email-1', 'condition-1')],
    );
    expect(validateFlow(ends)).toBeNull();
    const waitingCondition = flow(
      [email('email-1'), condition('condition-1', { duration: '2', unit: 'days', elseEnds: true })],
      [edge('email-1', 'condition-1'), edge('condition-1', 'email-1')],
    );
    expect(validateFlow(waitingCondition)).toBeNull();
  });

  it('refuses through the request schema with the path of the node', () => {
    const result = createSequenceBodySchema.safeParse({
      name: 'S',
      flowData: flow([email('email-1'), delay('delay-1', { duration: '-3' })], []),
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['flowData', 'nodes', 2],
      message: 'delay-1: the wait must be a positive number',
    });
  });

  it('turns durations and units into milliseconds', () => {
    expect(waitMilliseconds(1, 'minutes')).toBe(60_000);
    expect(waitMilliseconds(2, 'hours')).toBe(7_200_000);
    expect(waitMilliseconds(1.5, 'days')).toBe(129_600_000);
    expect(waitMilliseconds(1, 'weeks')).toBe(604_800_000);
  });
});
