import { describe, expect, it } from 'vitest';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { createBlock } from './blocks';
import type { CampaignDraft } from './campaign-form';
import {
  blockingChecks,
  firstPlaceholderLink,
  GMAIL_CLIP_BYTES,
  isPlaceholderLink,
  preSendChecks,
  trackedBytes,
  type PreSendContext,
} from './pre-send-checks';

const ready: CampaignDraft = {
  name: 'Spring',
  subject: 'Hello',
  preheader: '',
  fromName: 'Bloom',
  fromEmail: 'news@bloom.test',
  replyTo: '',
  listIds: [1],
  segmentIds: [],
  blocks: [{ id: 'b1', type: 'button', content: { text: 'Shop', url: 'https://bloom.test/shop' }, styles: {} }],
  rawHtml: null,
};
const context: PreSendContext = {
  listCounts: new Map([
    [1, 3],
    [2, 0],
  ]),
  segmentCounts: new Map([[7, 0]]),
  senderStanding: 'domain',
  postalAddress: '1 Garden Lane',
};
const statusOf = (draft: CampaignDraft, ctx = context) =>
  Object.fromEntries(preSendChecks(draft, ctx).map((check) => [check.id, check.status]));

describe('preSendChecks', () => {
  it('passes a complete draft', () => {
    expect(blockingChecks(preSendChecks(ready, context))).toEqual([]);
  });

  it('blocks on no recipients, or only empty ones, and waits while counts load', () => {
    expect(statusOf({ ...ready, listIds: [] }).recipients).toBe('blocked');
    expect(statusOf({ ...ready, listIds: [2], segmentIds: [7] }).recipients).toBe('blocked');
    expect(statusOf(ready, { ...context, listCounts: undefined }).recipients).toBe('checking');
  });

  it('blocks on an unproven or pending sender, and on a missing postal address or subject', () => {
    expect(statusOf(ready, { ...context, senderStanding: 'unproven' }).sender).toBe('blocked');
    expect(statusOf(ready, { ...context, senderStanding: 'pending' }).sender).toBe('blocked');
    expect(statusOf(ready, { ...context, senderStanding: 'address' }).sender).toBe('ok');
    expect(statusOf(ready, { ...context, postalAddress: '  ' })['postal-address']).toBe('blocked');
    expect(statusOf({ ...ready, subject: ' ' }).subject).toBe('blocked');
  });

  it('shows the preview text with the subject, and advises (does not block) when there is none', () => {
    const subjectOf = (draft: CampaignDraft) => preSendChecks(draft, context).find((c) => c.id === 'subject');
    expect(subjectOf({ ...ready, preheader: ' Big savings ' })).toMatchObject({
      status: 'ok',
      detail: '“Hello” · preview: “Big savings”',
    });
    expect(subjectOf(ready)).toMatchObject({ status: 'ok', detail: expect.stringMatching(/no preview text/) });
  });

  it('flags placeholder and empty links with the block to fix', () => {
    expect(isPlaceholderLink('https://example.com/spring-sale')).toBe(true);
    expect(isPlaceholderLink('https://www.example.org')).toBe(true);
    expect(isPlaceholderLink('')).toBe(true);
    expect(isPlaceholderLink('https://myexample.com')).toBe(false);
    const blocks: CampaignDraft['blocks'] = [
      { id: 't1', type: 'text', content: { text: 'See https://example.net/x now', tag: 'p' }, styles: {} },
    ];
    expect(firstPlaceholderLink(blocks)?.block.id).toBe('t1');
    const check = preSendChecks({ ...ready, blocks }, context).find((c) => c.id === 'links');
    expect(check?.fix).toEqual({ kind: 'block', blockId: 't1' });
  });

  it('blocks while a text block still has the words a new block starts with, naming the block', () => {
    const fresh = createBlock('text', 'new-text');
    const check = preSendChecks({ ...ready, blocks: [...ready.blocks, fresh] }, context).find(
      (c) => c.id === 'content',
    );
    expect(check).toMatchObject({
      status: 'blocked',
      fix: { kind: 'block', blockId: 'new-text' },
      fixLabel: 'Write the text',
    });
    const written = { ...fresh, content: { ...fresh.content, text: 'Our spring range is in.' } } as typeof fresh;
    expect(statusOf({ ...ready, blocks: [...ready.blocks, written] }).content).toBe('ok');
  });
});

describe('a campaign in its own HTML', () => {
  const html = (rawHtml: string): CampaignDraft => ({ ...ready, blocks: [], rawHtml });

  it('warns, without blocking, when the HTML has no {{unsubscribe}} placeholder (the footer is added)', () => {
    const checks = preSendChecks(html('<p>Hello</p>'), context);
    const unsubscribe = checks.find((check) => check.id === 'unsubscribe');
    expect(unsubscribe?.status).toBe('warning');
    expect(unsubscribe?.detail).toContain('{{unsubscribe}}');
    expect(blockingChecks(checks)).toEqual([]);
  });

  it('is satisfied by the placeholder, spaces allowed', () => {
    expect(statusOf(html('<a href="{{ unsubscribe }}">Leave</a>')).unsubscribe).toBe('ok');
  });

  it('blocks an empty HTML body', () => {
    expect(statusOf(html('  ')).content).toBe('blocked');
    expect(statusOf(html('<p>Hi</p>')).content).toBe('ok');
  });
});

describe('message size against Gmail clipping', () => {
  const sizeOf = (renderedHtml: string | undefined) =>
    preSendChecks(ready, { ...context, renderedHtml }).find((check) => check.id === 'size');

  it('measures the rendered email and flags one over 102 KB without blocking the send', () => {
    expect(sizeOf(undefined)?.status).toBe('checking');
    expect(sizeOf('<p>short</p>')).toMatchObject({
      status: 'ok',
      detail: "About 1 KB, under Gmail's 102 KB clipping limit.",
    });
    const big = sizeOf(`<p>${'x'.repeat(GMAIL_CLIP_BYTES)}</p>`);
    expect(big?.status).toBe('warning');
    expect(big?.detail).toMatch(/^About 103 KB: Gmail clips messages over 102 KB/);
    expect(blockingChecks(big ? [big] : [])).toEqual([]);
  });

  it('counts what tracking adds to each link', () => {
    const links = '<a href="https://a.example">a</a>'.repeat(1000);
    expect(trackedBytes(links)).toBe(new TextEncoder().encode(links).length + 1000 * 90 + 200);
  });
});

describe('placeholder links in the new blocks', () => {
  it('finds them in rich text, videos, social links and inside columns', () => {
    const rich: EmailBlock = {
      id: 'rich',
      type: 'text',
      styles: {},
      content: {
        text: 'x',
        tag: 'p' as const,
        doc: {
          type: 'doc' as const,
          content: [
            {
              type: 'paragraph' as const,
              content: [
                {
                  type: 'text' as const,
                  text: 'x',
                  marks: [{ type: 'link' as const, attrs: { href: 'https://example.com/x' } }],
                },
              ],
            },
          ],
        },
      },
    };
    expect(firstPlaceholderLink([rich])?.what).toBe('A text block links to a placeholder (https://example.com/x).');
    expect(firstPlaceholderLink([createBlock('video')])?.what).toBe(
      'A video links to a placeholder (https://example.com/video).',
    );
    const columns = createBlock('columns');
    // The starting columns hold a button to example.com.
    expect(firstPlaceholderLink([columns])?.block.type).toBe('button');
  });
});

describe('content checks (issue 30 part 7)', () => {
  const image = (id: string, alt: string): EmailBlock => ({
    id,
    type: 'image',
    content: { src: 'https://bloom.test/a.jpg', alt },
    styles: {},
  });
  const words = (n: number): EmailBlock => ({
    id: 'words',
    type: 'text',
    content: { text: Array.from({ length: n }, (_, i) => `word${i}`).join(' '), tag: 'p' },
    styles: {},
  });
  const checkOf = (draft: CampaignDraft, id: string) => preSendChecks(draft, context).find((c) => c.id === id);

  it('warns about images without alt text, pointing at the first, in blocks and in raw HTML', () => {
    const draft = { ...ready, blocks: [image('a', 'Roses'), image('b', ' '), words(30)] };
    expect(checkOf(draft, 'alt-text')).toMatchObject({ status: 'warning', fix: { kind: 'block', blockId: 'b' } });
    expect(checkOf({ ...ready, blocks: [image('a', 'Roses'), words(30)] }, 'alt-text')?.status).toBe('ok');
    const html = (body: string) => ({ ...ready, blocks: [], rawHtml: body });
    expect(checkOf(html('<p>Hi</p><img src="a.png"><img alt="" src="b.png">'), 'alt-text')?.detail).toMatch(
      /^1 image has no alt attribute/,
    );
    expect(checkOf(html('<img src="a.png" alt="Logo">'), 'alt-text')?.status).toBe('ok');
  });

  it('warns about an image-only mail, never blocks', () => {
    expect(checkOf({ ...ready, blocks: [image('a', 'Sale'), words(3)] }, 'image-only')?.status).toBe('warning');
    expect(checkOf({ ...ready, blocks: [image('a', 'Sale'), words(25)] }, 'image-only')?.status).toBe('ok');
    expect(checkOf({ ...ready, blocks: [words(2)] }, 'image-only')?.status).toBe('ok');
    const onlyPicture = {
      ...ready,
      blocks: [],
      rawHtml:
        '<html><head><style>p{color:red}</style></head><body><img src="x.png" alt="Sale"> {{unsubscribe}}</body></html>',
    };
    expect(checkOf(onlyPicture, 'image-only')?.status).toBe('warning');
    expect(blockingChecks(preSendChecks({ ...ready, blocks: [image('a', '')] }, context))).toEqual([]);
  });
});
