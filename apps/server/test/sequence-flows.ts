import { START_NODE_ID, type FlowData } from '@sendwell/contract/sequences';

/** A sequence of one email step, sent at once on enrolment: the start node, the email, one edge. */
export function oneEmailFlow(email: { label?: string; subject?: string; text?: string } = {}): FlowData {
  return {
    nodes: [
      { id: START_NODE_ID, type: 'input', position: { x: 400, y: 50 }, data: { label: 'Start' } },
      {
        id: 'email-1',
        type: 'email',
        position: { x: 400, y: 200 },
        data: {
          label: email.label ?? 'Welcome',
          subject: email.subject ?? 'Welcome',
          blocks: [{ id: 'b1', type: 'text', content: { text: email.text ?? 'Hello', tag: 'p' }, styles: {} }],
          delay: '0',
        },
      },
    ],
    edges: [{ id: 'e1', source: START_NODE_ID, target: 'email-1' }],
  };
}
