// Rendering one campaign for 10,000 recipients on one core, as the send path does it before building
// the MIME message: the server's renderer (compiled once per campaign, filled per recipient) with
// merge tags and every tracked link (clicks, open pixel, unsubscribe, preferences), which carry the
// recipient's one token, signed per recipient with node:crypto's HMAC-SHA-256. Target: at least
// 20,000 renders/s. No database or network is involved.
import { performance } from 'node:perf_hooks';
import { emailBlockSchema, type EmailBlockInput } from '@sendwell/contract/campaigns';
import {
  compileEmail,
  renderForRecipient,
  trackedLinks,
  untrackedLinks,
} from '../apps/server/src/modules/rendering/index.ts';
import type { Recipient } from '../apps/server/src/modules/rendering/email-renderer.ts';
import { seededRandom } from './support.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_PER_SECOND = 20_000;
const PUBLIC_URL = 'https://mail.sendwell.example';
// A fixed secret keeps runs comparable; it signs nothing outside this process.
const SECRET = 'bench-session-secret-0123456789abcdef0123456789abcdef';

/**
 * A realistic newsletter: headings, paragraphs with merge tags, a linked hero image, two buttons,
 * rich text with a link and a list, two columns and social links (issue 30's blocks).
 */
const BLOCKS: EmailBlockInput[] = [
  {
    id: 'logo',
    type: 'image',
    content: { src: '/uploads/logo/acme.png', alt: 'Acme Outdoor', href: 'https://acme.example/' },
    styles: { width: 40, textAlign: 'center' },
  },
  {
    id: 'h1',
    type: 'text',
    content: { text: 'Hi {{firstName|there}}, spring is here', tag: 'h1' },
    styles: { textAlign: 'center' },
  },
  {
    id: 'intro',
    type: 'text',
    content: {
      text: 'Thanks for being with us, {{firstName|friend}}. This season we picked the gear that teams at {{company|your company}} asked for most:\nlighter tents, warmer bags & faster stoves — with 20% off until Sunday.',
      tag: 'p',
    },
  },
  {
    id: 'hero',
    type: 'image',
    content: {
      src: 'https://cdn.acme.example/spring/hero.jpg',
      alt: 'Camp by the lake',
      href: 'https://acme.example/spring?utm_source=email&utm_campaign=spring',
    },
    styles: { width: 100 },
  },
  {
    id: 'cta',
    type: 'button',
    content: { text: 'Shop the sale', url: 'https://acme.example/sale?utm_source=email&utm_campaign=spring' },
    styles: { backgroundColor: '#0f766e', borderRadius: 6 },
  },
  { id: 'div1', type: 'divider', content: {} },
  { id: 'h2', type: 'text', content: { text: 'New for {{company|you}}: team accounts', tag: 'h2' } },
  {
    id: 'teams',
    type: 'text',
    content: {
      text: "Order for the whole team, {{firstName|there}}: one invoice, shared carts and delivery to {{email}}'s office or anywhere else.",
      tag: 'p',
    },
    styles: { color: '#52525b' },
  },
  {
    id: 'cta2',
    type: 'button',
    content: { text: 'Set up a team account', url: 'https://acme.example/teams' },
    styles: { backgroundColor: '#1d4ed8' },
  },
  {
    id: 'news',
    type: 'text',
    content: {
      text: 'What is new',
      tag: 'p',
      doc: {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'This week, {{firstName|there}}: ', marks: [{ type: 'bold' }] },
              {
                type: 'text',
                text: 'the packing list for a weekend by the lake',
                marks: [{ type: 'link', attrs: { href: 'https://acme.example/journal/packing' } }],
              },
            ],
          },
          {
            type: 'bulletList',
            content: ['Tents from 1.2 kg', 'Stoves that boil in 3 minutes', 'Free repairs for a year'].map((item) => ({
              type: 'listItem',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: item }] }],
            })),
          },
        ],
      },
    },
  },
  {
    id: 'cols',
    type: 'columns',
    content: {
      columns: [
        {
          blocks: [
            { id: 'c1i', type: 'image', content: { src: 'https://cdn.acme.example/tent.jpg', alt: 'Tent' } },
            { id: 'c1b', type: 'button', content: { text: 'Tents', url: 'https://acme.example/tents' } },
          ],
        },
        {
          blocks: [
            { id: 'c2i', type: 'image', content: { src: 'https://cdn.acme.example/stove.jpg', alt: 'Stove' } },
            { id: 'c2b', type: 'button', content: { text: 'Stoves', url: 'https://acme.example/stoves' } },
          ],
        },
      ],
    },
  },
  { id: 'space', type: 'spacer', content: {}, styles: { height: 24 } },
  {
    id: 'sign',
    type: 'text',
    content: { text: 'See you outside,\nThe Acme Outdoor team', tag: 'p' },
    styles: { fontSize: 14 },
  },
  {
    id: 'social',
    type: 'social',
    content: {
      links: [
        { network: 'instagram', url: 'https://instagram.com/acme' },
        { network: 'youtube', url: 'https://youtube.com/@acme' },
        { network: 'x', url: 'https://x.com/acme' },
      ],
    },
  },
];
const SUBJECT = '{{firstName|Friend}}, 20% off spring gear for {{company|you}}';
const SENDER = { company: 'Acme Outdoor & Co.', postalAddress: '12 Harbour Road\nPortland, OR 97201', year: 2026 };

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Ken', 'Frances', 'José', 'Zoë', ''];
const LAST = [
  'Lovelace',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Turing',
  'Liskov',
  'Thompson',
  'Allen',
  'Núñez',
  "O'Brien",
];
const COMPANIES = ['Initech', 'Globex <Europe>', 'Umbrella & Sons', 'Hooli', null, null];

const random = seededRandom(42);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const recipients: (Recipient & { sendId: number })[] = Array.from({ length: RECIPIENTS }, (_, i) => {
  const firstName = pick(FIRST);
  return {
    sendId: 1_000_000 + i,
    contactId: i + 1,
    firstName,
    lastName: pick(LAST),
    email: `${(firstName || 'user').toLowerCase()}.${i}@example.com`,
    company: pick(COMPANIES),
    location: pick(['Berlin', 'Paris', null]),
  };
});

const blocks = BLOCKS.map((block) => emailBlockSchema.parse(block));
const compileStarted = performance.now();
const compiled = compileEmail(blocks, SUBJECT, SENDER, PUBLIC_URL);
const compileMs = performance.now() - compileStarted;
// Link ids as stored in campaign_links; the renderer numbers links in order of appearance.
const linkIds = compiled.links.map((_, i) => 5_000 + i);

/**
 * One pass over every recipient. Answers renders per second of this process's CPU time (one core's
 * worth of work, so other load on the machine does not count against it), per second of wall time,
 * and the bytes produced (summed so that no work can be skipped).
 */
function pass(render: (recipient: Recipient & { sendId: number }) => { subject: string; html: string; text: string }) {
  let bytes = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const recipient of recipients) {
    const out = render(recipient);
    bytes += out.subject.length + out.html.length + out.text.length;
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { perCpuSecond: RECIPIENTS / ((cpu.user + cpu.system) / 1e6), perWallSecond: RECIPIENTS / wallSeconds, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perSecond = (n: number) => Math.round(n).toLocaleString('en-US').padStart(8);

function measure(label: string, render: Parameters<typeof pass>[0]) {
  pass(render); // warm-up: lets the JIT compile the hot paths first
  const rounds = Array.from({ length: ROUNDS }, () => pass(render));
  const cpu = median(rounds.map((r) => r.perCpuSecond));
  const wall = median(rounds.map((r) => r.perWallSecond));
  const kb = (rounds[0]?.bytes ?? 0) / RECIPIENTS / 1024;
  console.log(
    `${label.padEnd(44)} ${perSecond(cpu)} renders/s per CPU second, ${perSecond(wall)} per wall second (median of ${ROUNDS}; ${kb.toFixed(1)} KB each)`,
  );
  return cpu;
}

console.log(
  `campaign: ${blocks.length} blocks, ${compiled.links.length} tracked links, compiled once in ${compileMs.toFixed(2)} ms; ${RECIPIENTS.toLocaleString('en-US')} recipients, one core`,
);
const tracked = measure('render + signed tracking links (send path)', (r) =>
  renderForRecipient(compiled, r, trackedLinks(PUBLIC_URL, SECRET, r.sendId, linkIds)),
);
// Conditional content (issue 30 part 6): the same email where the two buttons go one to a segment's
// members and one to everyone else, and the columns only to contacts in Berlin; the segment's members
// (every other contact) are known before rendering, as a send's batch reads them once.
const SEGMENT_ID = 7;
const conditionalBlocks = blocks.map((block) =>
  block.id === 'cta'
    ? { ...block, condition: { kind: 'segment' as const, segmentId: SEGMENT_ID, match: 'in' as const } }
    : block.id === 'cta2'
      ? { ...block, condition: { kind: 'segment' as const, segmentId: SEGMENT_ID, match: 'notIn' as const } }
      : block.id === 'cols'
        ? {
            ...block,
            condition: { kind: 'field' as const, field: 'location' as const, op: 'equals' as const, value: 'berlin' },
          }
        : block,
);
const conditional = compileEmail(conditionalBlocks, SUBJECT, SENDER, PUBLIC_URL);
const conditionalLinkIds = conditional.links.map((_, i) => 5_000 + i);
const audience = {
  segmentMembers: new Map([
    [SEGMENT_ID, new Set(recipients.filter((_, i) => i % 2 === 0).map((r) => r.contactId ?? 0))],
  ]),
};
measure('conditional blocks + signed tracking links', (r) =>
  renderForRecipient(conditional, r, trackedLinks(PUBLIC_URL, SECRET, r.sendId, conditionalLinkIds), audience),
);
measure('render only (untracked links)', (r) =>
  renderForRecipient(compiled, r, untrackedLinks(compiled, `${PUBLIC_URL}/u/x`, `${PUBLIC_URL}/u/x?preferences=1`)),
);
console.log(
  `target ${TARGET_PER_SECOND.toLocaleString('en-US')} renders/s: ${tracked >= TARGET_PER_SECOND ? 'met' : 'NOT met'}`,
);
if (tracked < TARGET_PER_SECOND) process.exitCode = 1;
