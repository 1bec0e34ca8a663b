import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { galleryTemplates } from '@sendwell/contract/campaign-templates';
import { createCampaignBodySchema } from '@sendwell/contract/campaigns';
import { compileEmail, renderForRecipient, untrackedLinks } from '../rendering/index.ts';

const ORIGIN = 'https://mail.acme.test';
const sender = { company: 'Acme', postalAddress: '1 Main Street, Springfield', year: 2026 };

describe('the gallery of starting templates', () => {
  const gallery = galleryTemplates(ORIGIN);

  it('ships at least the six kinds, each with a unique id and name', () => {
    expect(gallery.map((template) => template.id)).toEqual(
      expect.arrayContaining(['newsletter', 'announcement', 'promotion', 'welcome', 'event', 'plain-letter']),
    );
    expect(new Set(gallery.map((template) => template.id)).size).toBe(gallery.length);
    expect(new Set(gallery.map((template) => template.name)).size).toBe(gallery.length);
  });

  it.each(galleryTemplates(ORIGIN).map((template) => [template.id, template] as const))(
    '%s saves as a campaign and renders through the server renderer',
    (_id, template) => {
      const body = createCampaignBodySchema.parse({
        name: template.name,
        subject: template.subject,
        preheader: template.preheader,
        fromEmail: 'news@acme.example',
        content: { html: '' },
        blocks: template.blocks,
      });
      const compiled = compileEmail(body.blocks, body.subject, sender, ORIGIN, undefined, body.preheader);
      const mail = renderForRecipient(
        compiled,
        { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'Engines' },
        untrackedLinks(compiled, '#unsubscribe', '#preferences'),
      );
      expect(mail.html).toContain('<html');
      expect(mail.html).not.toContain('{{');
      expect(mail.text.length).toBeGreaterThan(50);
      for (const block of template.blocks) {
        if (block.type === 'image') {
          // Pictures are the app's own files, on the app's own origin: never another host.
          expect(block.content.src.startsWith(`${ORIGIN}/sample-images/`)).toBe(true);
          expect(block.content.alt).not.toBe('');
          expect(mail.html).toContain(block.content.src);
          expect(
            existsSync(new URL(`../../../../web/public${new URL(block.content.src).pathname}`, import.meta.url)),
          ).toBe(true);
        }
      }
      expect(existsSync(new URL(`../../../../web/public${template.imagePath}`, import.meta.url))).toBe(true);
    },
  );
});
