import type { FlowData } from './sequences.ts';

/** A sequence template (spec part 2 §3): what choosing it loads into a new builder. */
export type SequenceTemplate = {
  id: string;
  name: string;
  description: string;
  /** The badge: how long the sequence runs. */ duration: string;
  flowData: FlowData;
};

/** The six templates (spec part 2 §3, §9), each a flow that validateFlow accepts and the engine runs. */
export const SEQUENCE_TEMPLATES: readonly SequenceTemplate[] = [
  {
    id: 'welcome-series',
    name: 'Welcome Series',
    description: 'Greet new subscribers and introduce your brand over five days',
    duration: '5 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'Welcome aboard, {{firstName|there}}!',
            content:
              '<p>Hi {{firstName|there}},</p><p>Thanks for joining us. Here is what you can expect from us: useful tips, product news and the occasional offer.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '2', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 400, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'Getting the most out of your account',
            content:
              '<p>Hi {{firstName|there}},</p><p>Here are three things our happiest customers do in their first week.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-2',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 2', duration: '3', unit: 'days' },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 3',
            subject: 'Anything we can help with?',
            content:
              '<p>Hi {{firstName|there}},</p><p>Just reply to this email if you have a question. A real person reads every reply.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-delay-1', source: 'email-1', target: 'delay-1' },
        { id: 'e-delay-1-email-2', source: 'delay-1', target: 'email-2' },
        { id: 'e-email-2-delay-2', source: 'email-2', target: 'delay-2' },
        { id: 'e-delay-2-email-3', source: 'delay-2', target: 'email-3' },
      ],
    },
  },
  {
    id: 'product-launch',
    name: 'Product Launch',
    description: 'Build anticipation and drive sales for a new product',
    duration: '14 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'Something new is coming',
            content:
              '<p>Hi {{firstName|there}},</p><p>We have been working on something we think you will love. More soon.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '3', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 400, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'A first look',
            content: '<p>Hi {{firstName|there}},</p><p>Here is a sneak peek at what we are launching.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-2',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 2', duration: '4', unit: 'days' },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 3',
            subject: 'It is here',
            content: '<p>Hi {{firstName|there}},</p><p>Our new product is live. Be among the first to try it.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-3',
          type: 'delay',
          position: { x: 400, y: 950 },
          data: { label: 'Wait 3', duration: '2', unit: 'days' },
        },
        {
          id: 'email-4',
          type: 'email',
          position: { x: 400, y: 1100 },
          data: {
            label: 'Email 4',
            subject: 'What early customers are saying',
            content: '<p>Hi {{firstName|there}},</p><p>The first reviews are in, and here is what people think.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-4',
          type: 'delay',
          position: { x: 400, y: 1250 },
          data: { label: 'Wait 4', duration: '3', unit: 'days' },
        },
        {
          id: 'email-5',
          type: 'email',
          position: { x: 400, y: 1400 },
          data: {
            label: 'Email 5',
            subject: 'Last chance for the launch offer',
            content: '<p>Hi {{firstName|there}},</p><p>The launch offer ends soon.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-delay-1', source: 'email-1', target: 'delay-1' },
        { id: 'e-delay-1-email-2', source: 'delay-1', target: 'email-2' },
        { id: 'e-email-2-delay-2', source: 'email-2', target: 'delay-2' },
        { id: 'e-delay-2-email-3', source: 'delay-2', target: 'email-3' },
        { id: 'e-email-3-delay-3', source: 'email-3', target: 'delay-3' },
        { id: 'e-delay-3-email-4', source: 'delay-3', target: 'email-4' },
        { id: 'e-email-4-delay-4', source: 'email-4', target: 'delay-4' },
        { id: 'e-delay-4-email-5', source: 'delay-4', target: 'email-5' },
      ],
    },
  },
  {
    id: 're-engagement',
    name: 'Re-engagement',
    description: 'Win back subscribers who have gone quiet',
    duration: '21 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'We miss you, {{firstName|there}}',
            content: '<p>Hi {{firstName|there}},</p><p>It has been a while. Here is what you missed.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '7', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 400, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'A little something to welcome you back',
            content: '<p>Hi {{firstName|there}},</p><p>Here is an offer, just for you.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-2',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 2', duration: '7', unit: 'days' },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 3',
            subject: 'Still interested?',
            content: '<p>Hi {{firstName|there}},</p><p>Tell us what you would like to hear about.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-3',
          type: 'delay',
          position: { x: 400, y: 950 },
          data: { label: 'Wait 3', duration: '7', unit: 'days' },
        },
        {
          id: 'email-4',
          type: 'email',
          position: { x: 400, y: 1100 },
          data: {
            label: 'Email 4',
            subject: 'Should we stop writing?',
            content:
              '<p>Hi {{firstName|there}},</p><p>If you no longer want our emails, the unsubscribe link is below. No hard feelings.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-delay-1', source: 'email-1', target: 'delay-1' },
        { id: 'e-delay-1-email-2', source: 'delay-1', target: 'email-2' },
        { id: 'e-email-2-delay-2', source: 'email-2', target: 'delay-2' },
        { id: 'e-delay-2-email-3', source: 'delay-2', target: 'email-3' },
        { id: 'e-email-3-delay-3', source: 'email-3', target: 'delay-3' },
        { id: 'e-delay-3-email-4', source: 'delay-3', target: 'email-4' },
      ],
    },
  },
  {
    id: 'abandoned-cart',
    name: 'Abandoned Cart',
    description: 'Remind shoppers about items left in their cart',
    duration: '7 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'You left something behind',
            content: '<p>Hi {{firstName|there}},</p><p>Your cart is still waiting for you.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '1', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 400, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'Your cart is about to expire',
            content:
              '<p>Hi {{firstName|there}},</p><p>The items in your cart are popular. Complete your order before they sell out.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-2',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 2', duration: '5', unit: 'days' },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 3',
            subject: 'A small discount to help you decide',
            content: '<p>Hi {{firstName|there}},</p><p>Here is a discount on the items in your cart.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-delay-1', source: 'email-1', target: 'delay-1' },
        { id: 'e-delay-1-email-2', source: 'delay-1', target: 'email-2' },
        { id: 'e-email-2-delay-2', source: 'email-2', target: 'delay-2' },
        { id: 'e-delay-2-email-3', source: 'delay-2', target: 'email-3' },
      ],
    },
  },
  {
    id: 'educational-drip',
    name: 'Educational Drip',
    description: 'Teach subscribers step by step with a course-style series',
    duration: '30 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'Lesson 1: the basics',
            content: '<p>Hi {{firstName|there}},</p><p>Welcome to lesson one. Today: the basics.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 350 },
          data: { label: 'Wait 1', duration: '5', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 400, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'Lesson 2: building on the basics',
            content: '<p>Hi {{firstName|there}},</p><p>Lesson two builds on what you learned last time.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-2',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 2', duration: '5', unit: 'days' },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 3',
            subject: 'Lesson 3: common mistakes',
            content: '<p>Hi {{firstName|there}},</p><p>Lesson three covers the mistakes most people make.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-3',
          type: 'delay',
          position: { x: 400, y: 950 },
          data: { label: 'Wait 3', duration: '5', unit: 'days' },
        },
        {
          id: 'email-4',
          type: 'email',
          position: { x: 400, y: 1100 },
          data: {
            label: 'Email 4',
            subject: 'Lesson 4: advanced techniques',
            content: '<p>Hi {{firstName|there}},</p><p>Lesson four: techniques the experts use.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-4',
          type: 'delay',
          position: { x: 400, y: 1250 },
          data: { label: 'Wait 4', duration: '5', unit: 'days' },
        },
        {
          id: 'email-5',
          type: 'email',
          position: { x: 400, y: 1400 },
          data: {
            label: 'Email 5',
            subject: 'Lesson 5: putting it together',
            content: '<p>Hi {{firstName|there}},</p><p>Lesson five brings everything together.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-5',
          type: 'delay',
          position: { x: 400, y: 1550 },
          data: { label: 'Wait 5', duration: '5', unit: 'days' },
        },
        {
          id: 'email-6',
          type: 'email',
          position: { x: 400, y: 1700 },
          data: {
            label: 'Email 6',
            subject: 'Lesson 6: what comes next',
            content: '<p>Hi {{firstName|there}},</p><p>You finished the course. Here is where to go from here.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-delay-1', source: 'email-1', target: 'delay-1' },
        { id: 'e-delay-1-email-2', source: 'delay-1', target: 'email-2' },
        { id: 'e-email-2-delay-2', source: 'email-2', target: 'delay-2' },
        { id: 'e-delay-2-email-3', source: 'delay-2', target: 'email-3' },
        { id: 'e-email-3-delay-3', source: 'email-3', target: 'delay-3' },
        { id: 'e-delay-3-email-4', source: 'delay-3', target: 'email-4' },
        { id: 'e-email-4-delay-4', source: 'email-4', target: 'delay-4' },
        { id: 'e-delay-4-email-5', source: 'delay-4', target: 'email-5' },
        { id: 'e-email-5-delay-5', source: 'email-5', target: 'delay-5' },
        { id: 'e-delay-5-email-6', source: 'delay-5', target: 'email-6' },
      ],
    },
  },
  {
    id: 'feedback-loop',
    name: 'Feedback Loop',
    description: 'Ask for feedback and follow up based on whether they opened',
    duration: '14 days',
    flowData: {
      nodes: [
        {
          id: 'start',
          type: 'input',
          position: { x: 400, y: 50 },
          data: { label: 'Sequence Start' },
          style: { background: '#10b981', color: 'white', border: 'none' },
        },
        {
          id: 'email-1',
          type: 'email',
          position: { x: 400, y: 200 },
          data: {
            label: 'Email 1',
            subject: 'How are we doing, {{firstName|there}}?',
            content: '<p>Hi {{firstName|there}},</p><p>We would love your feedback. It takes two minutes.</p>',
            delay: '0',
          },
        },
        {
          id: 'condition-1',
          type: 'condition',
          position: { x: 400, y: 350 },
          data: { label: 'Condition 1', condition: 'Email opened', duration: '7', unit: 'days' },
        },
        {
          id: 'email-2',
          type: 'email',
          position: { x: 250, y: 500 },
          data: {
            label: 'Email 2',
            subject: 'Thank you for reading',
            content:
              '<p>Hi {{firstName|there}},</p><p>Thanks for taking a look. Here is what we are changing because of feedback like yours.</p>',
            delay: '0',
          },
        },
        {
          id: 'email-3',
          type: 'email',
          position: { x: 550, y: 500 },
          data: {
            label: 'Email 3',
            subject: 'A quick reminder: we would value your opinion',
            content:
              '<p>Hi {{firstName|there}},</p><p>In case you missed it: we would love to hear what you think.</p>',
            delay: '0',
          },
        },
        {
          id: 'delay-1',
          type: 'delay',
          position: { x: 400, y: 650 },
          data: { label: 'Wait 1', duration: '7', unit: 'days' },
        },
        {
          id: 'email-4',
          type: 'email',
          position: { x: 400, y: 800 },
          data: {
            label: 'Email 4',
            subject: 'Here is what we heard',
            content:
              '<p>Hi {{firstName|there}},</p><p>Thank you to everyone who answered. Here is a summary of what you told us.</p>',
            delay: '0',
          },
        },
      ],
      edges: [
        { id: 'e-start-email-1', source: 'start', target: 'email-1' },
        { id: 'e-email-1-condition-1', source: 'email-1', target: 'condition-1' },
        { id: 'e-condition-1-email-2', source: 'condition-1', target: 'email-2' },
        { id: 'e-condition-1-email-3', source: 'condition-1', target: 'email-3', sourceHandle: 'else' },
        { id: 'e-email-2-delay-1', source: 'email-2', target: 'delay-1' },
        { id: 'e-email-3-delay-1', source: 'email-3', target: 'delay-1' },
        { id: 'e-delay-1-email-4', source: 'delay-1', target: 'email-4' },
      ],
    },
  },
];
