import { describe, expect, it } from 'vitest';

import { createBlock } from './blocks';
import {
  initialDraft,
  parseEmailList,
  previewableBlocks,
  PREVIEW_PLACEHOLDER_URL,
  blockFieldError,
  serverDraftErrors,
  toCampaignBody,
  validateCampaignBody,
  type CampaignDraft,
} from './campaign-form';

const draft = (patch: Partial<CampaignDraft> = {}): CampaignDraft => ({
  ...initialDraft(undefined, {
    fromEmail: 'marketing@acme.com',
    fromName: 'Acme',
    listIds: [3],
    blocks: [createBlock('text', 't1')],
  }),
  name: 'Spring',
  subject: 'Hello',
  preheader: '',
  ...patch,
});

describe('campaign body', () => {
  it('sends a campaign in its own HTML as content.html with no blocks, and reopens it as HTML', () => {
    const html = '<h1>Hi {{firstName|there}}</h1>';
    const body = toCampaignBody(draft({ rawHtml: html }), 'draft');
    expect(body.content).toEqual({ html, text: '' });
    expect(body.blocks).toEqual([]);
    expect(toCampaignBody(draft(), 'draft').content.html).toBe('');
    const started = initialDraft(undefined, { fromEmail: '', fromName: '', listIds: [], blocks: [], rawHtml: html });
    expect(started).toMatchObject({ rawHtml: html, blocks: [] });
  });

  it('maps the draft to the contract body, with scheduledAt only when scheduling', () => {
    const body = toCampaignBody(draft(), 'draft');
    expect(body).toMatchObject({
      name: 'Spring',
      subject: 'Hello',
      fromEmail: 'marketing@acme.com',
      status: 'draft',
      scheduledAt: null,
      listIds: [3],
      segmentIds: [],
    });
    expect(
      toCampaignBody(draft(), 'scheduled', { at: '2030-01-01T09:00:00.000Z', timeZone: 'Europe/Paris' }),
    ).toMatchObject({ scheduledAt: '2030-01-01T09:00:00.000Z', timeZone: 'Europe/Paris' });
    // A draft save leaves the campaign's time zone as it is.
    expect(toCampaignBody(draft(), 'draft')).not.toHaveProperty('timeZone');
    expect(validateCampaignBody(body)).toBeNull();
  });

  it('gives the spec’s messages by field (spec §5)', () => {
    const errors = validateCampaignBody(toCampaignBody(draft({ name: ' ', subject: '', fromEmail: 'nope' }), 'draft'));
    expect(errors?.fields).toMatchObject({
      name: 'Campaign name is required',
      subject: 'Subject line is required',
      fromEmail: 'Invalid email format',
    });
  });

  it('reports invalid blocks by id and leaves them out of the preview', () => {
    const bad = { ...createBlock('button', 'btn'), content: { text: 'Go', url: 'javascript:alert(1)' } } as ReturnType<
      typeof createBlock
    >;
    const errors = validateCampaignBody(toCampaignBody(draft({ blocks: [createBlock('text', 'ok'), bad] }), 'draft'));
    expect(errors?.blocks).toEqual({ btn: 'Enter a full http:// or https:// URL' });
    // A button whose only problem is its link stays in the preview, pointing at a placeholder.
    const shown = previewableBlocks([createBlock('text', 'ok'), bad]);
    expect(shown.map((b) => b.id)).toEqual(['ok', 'btn']);
    expect(shown[1]?.type === 'button' && shown[1].content).toEqual({ text: 'Go', url: PREVIEW_PLACEHOLDER_URL });
    expect(blockFieldError(bad, 'url')).toBe('Enter a full http:// or https:// URL');
    expect(blockFieldError(bad, 'text')).toBeNull();
    // Other invalid blocks are still left out (a button with no text, an image with a half-typed address).
    const noText = { ...createBlock('button', 'b2'), content: { text: '', url: 'nope' } } as ReturnType<
      typeof createBlock
    >;
    const halfImage = { ...createBlock('image', 'i1'), content: { src: 'htt', alt: '' } } as ReturnType<
      typeof createBlock
    >;
    expect(previewableBlocks([noText, halfImage])).toEqual([]);
  });

  it('maps the server’s field keys back to fields and blocks', () => {
    const blocks = [createBlock('text', 'a'), createBlock('button', 'b')];
    expect(
      serverDraftErrors(
        { name: 'Campaign name is required', 'blocks.1.content.url': 'Bad URL', content: 'Unknown merge tag {{x}}' },
        blocks,
      ),
    ).toEqual({
      fields: { name: 'Campaign name is required', content: 'Unknown merge tag {{x}}' },
      blocks: { b: 'Bad URL' },
    });
  });

  it('splits test addresses on commas, semicolons, spaces and lines', () => {
    expect(parseEmailList(' a@x.com, b@y.com;c@z.com\nd@w.com ')).toEqual(['a@x.com', 'b@y.com', 'c@z.com', 'd@w.com']);
    expect(parseEmailList('  ')).toEqual([]);
  });
});
