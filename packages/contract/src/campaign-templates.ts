import { z } from 'zod';
import { emailBlockSchema, PREHEADER_MAX, type EmailBlock } from './campaigns.ts';

const templateName = z
  .string({ error: 'Template name is required' })
  .trim()
  .min(1, 'Template name is required')
  .max(120, 'Template name must be at most 120 characters');

/**
 * POST /api/campaign-templates: a campaign's content saved under a name, to start new campaigns
 * from. A template holds blocks, or (a campaign written in its own HTML) `html` and no blocks.
 */
export const createCampaignTemplateBodySchema = z
  .object({
    name: templateName,
    subject: z.string().trim().max(300, 'Subject line must be at most 300 characters').default(''),
    preheader: z.string().trim().max(PREHEADER_MAX).default(''),
    blocks: z.array(emailBlockSchema).max(200, 'At most 200 blocks').default([]),
    html: z.string().max(2_000_000).default(''),
  })
  .refine((body) => body.blocks.length > 0 || body.html.trim() !== '', {
    message: 'A template needs some content: add a block or write some HTML',
    path: ['blocks'],
  });
export type CreateCampaignTemplateBody = z.input<typeof createCampaignTemplateBodySchema>;

/** PATCH /api/campaign-templates/:id: rename. */
export const renameCampaignTemplateBodySchema = z.object({ name: templateName });
export type RenameCampaignTemplateBody = z.input<typeof renameCampaignTemplateBodySchema>;

/** A template the account saved. */
export const campaignTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  blocks: z.array(emailBlockSchema),
  html: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignTemplate = z.infer<typeof campaignTemplateSchema>;
export const campaignTemplateListSchema = z.array(campaignTemplateSchema);

/** A starting template shipped with the app: what choosing it loads into a new campaign. */
export type GalleryTemplate = {
  id: string;
  name: string;
  description: string;
  /** The picture on its card: a path the web app serves (apps/web/public/sample-images). */
  imagePath: string;
  subject: string;
  preheader: string;
  blocks: EmailBlock[];
};

const IMAGE_DIR = '/sample-images/';

/**
 * The gallery of starting templates, built from the block types every renderer knows. Pictures are
 * files the app serves itself (never another host), so `origin` is this app's public address: mail
 * needs absolute image URLs. Block ids are fixed here; a campaign started from one gets fresh ids.
 */
export function galleryTemplates(origin: string): GalleryTemplate[] {
  const image = (file: string) => `${origin}${IMAGE_DIR}${file}`;
  const button = (id: string, text: string, url: string, backgroundColor: string): EmailBlock => ({
    id,
    type: 'button',
    content: { text, url },
    styles: { backgroundColor, color: '#ffffff', textAlign: 'center' },
  });
  return [
    {
      id: 'newsletter',
      name: 'Newsletter',
      description: 'A monthly round-up: a lead story, two short updates and a link to read more.',
      imagePath: `${IMAGE_DIR}newsletter-desk.jpg`,
      subject: 'This month at {{company|our place}}',
      preheader: 'The stories, updates and tips we picked for you this month.',
      blocks: [
        {
          id: 'n1',
          type: 'text',
          content: { text: 'The Monthly Letter', tag: 'h1' },
          styles: { textAlign: 'center', color: '#1e3a8a', backgroundColor: '#eff6ff', padding: 28 },
        },
        {
          id: 'n2',
          type: 'image',
          content: { src: image('newsletter-desk.jpg'), alt: 'An open newsletter on a blue desk' },
          styles: {},
        },
        {
          id: 'n3',
          type: 'text',
          content: { text: 'Hi {{firstName|there}}, here is what happened this month.', tag: 'p' },
          styles: {},
        },
        { id: 'n4', type: 'text', content: { text: 'Our lead story', tag: 'h2' }, styles: {} },
        {
          id: 'n5',
          type: 'text',
          content: {
            text: 'Tell your readers about the one thing that matters most this month: a launch, a milestone or a lesson learned. Two or three sentences are enough.',
            tag: 'p',
          },
          styles: {},
        },
        { id: 'n6', type: 'divider', content: {}, styles: {} },
        { id: 'n7', type: 'text', content: { text: 'In brief', tag: 'h3' }, styles: {} },
        {
          id: 'n8',
          type: 'text',
          content: {
            text: 'A short update on something new, with a sentence on why it helps. Then a second one, just as short.',
            tag: 'p',
          },
          styles: {},
        },
        button('n9', 'Read more', 'https://example.com/blog', '#1d4ed8'),
      ],
    },
    {
      id: 'announcement',
      name: 'Announcement',
      description: 'Big news in one clear message, with a single call to action.',
      imagePath: `${IMAGE_DIR}announcement-star.jpg`,
      subject: 'Big news, {{firstName|friend}}',
      preheader: 'Something new is here, and we wanted you to hear it first.',
      blocks: [
        {
          id: 'a1',
          type: 'image',
          content: { src: image('announcement-star.jpg'), alt: 'A white star on a purple background' },
          styles: {},
        },
        {
          id: 'a2',
          type: 'text',
          content: { text: 'Introducing something new', tag: 'h1' },
          styles: { textAlign: 'center', color: '#6b21a8' },
        },
        {
          id: 'a3',
          type: 'text',
          content: {
            text: 'Hi {{firstName|there}}, we have been working on this for months and it is finally ready. Here is what it does and why we think you will love it.',
            tag: 'p',
          },
          styles: { textAlign: 'center' },
        },
        button('a4', 'See what’s new', 'https://example.com/news', '#7e22ce'),
        { id: 'a5', type: 'spacer', content: {}, styles: { height: 24 } },
      ],
    },
    {
      id: 'promotion',
      name: 'Promotion',
      description: 'A sale or a discount code, with the offer up front and a clear deadline.',
      imagePath: `${IMAGE_DIR}promotion-tag.jpg`,
      subject: '{{firstName|Friend}}, 25% off ends Sunday',
      preheader: 'Use code SAVE25 at checkout. Ends Sunday at midnight.',
      blocks: [
        {
          id: 'p1',
          type: 'text',
          content: { text: 'This week only', tag: 'p' },
          styles: { textAlign: 'center', color: '#ffffff', backgroundColor: '#b91c1c', fontSize: 14, padding: 10 },
        },
        {
          id: 'p2',
          type: 'image',
          content: { src: image('promotion-tag.jpg'), alt: 'A price tag with a percent sign' },
          styles: {},
        },
        {
          id: 'p3',
          type: 'text',
          content: { text: '25% off everything', tag: 'h1' },
          styles: { textAlign: 'center', color: '#b91c1c' },
        },
        {
          id: 'p4',
          type: 'text',
          content: {
            text: 'Use the code SAVE25 at checkout. The offer ends Sunday at midnight and applies to every order.',
            tag: 'p',
          },
          styles: { textAlign: 'center' },
        },
        button('p5', 'Shop the sale', 'https://example.com/sale', '#b91c1c'),
        {
          id: 'p6',
          type: 'text',
          content: { text: 'Cannot be combined with other offers.', tag: 'p' },
          styles: { textAlign: 'center', color: '#71717a', fontSize: 12 },
        },
      ],
    },
    {
      id: 'welcome',
      name: 'Welcome',
      description: 'Greet a new subscriber, say what to expect and point them to a first step.',
      imagePath: `${IMAGE_DIR}welcome-wave.jpg`,
      subject: 'Welcome aboard, {{firstName|friend}}!',
      preheader: 'Thanks for joining us. Here is what comes next.',
      blocks: [
        {
          id: 'w1',
          type: 'image',
          content: { src: image('welcome-wave.jpg'), alt: 'A smiling face on a green background' },
          styles: {},
        },
        {
          id: 'w2',
          type: 'text',
          content: { text: 'Welcome, {{firstName|friend}}!', tag: 'h1' },
          styles: { textAlign: 'center', color: '#065f46' },
        },
        {
          id: 'w3',
          type: 'text',
          content: {
            text: 'Thanks for joining us. Every couple of weeks you will get useful tips, news about what we make and the occasional offer. No spam, ever.',
            tag: 'p',
          },
          styles: {},
        },
        {
          id: 'w4',
          type: 'text',
          content: { text: 'A good place to start is our getting-started guide.', tag: 'p' },
          styles: {},
        },
        button('w5', 'Get started', 'https://example.com/start', '#047857'),
        { id: 'w6', type: 'divider', content: {}, styles: {} },
        {
          id: 'w7',
          type: 'text',
          content: { text: 'Questions? Just reply to this email, a real person reads every one.', tag: 'p' },
          styles: { color: '#52525b', fontSize: 14 },
        },
      ],
    },
    {
      id: 'event',
      name: 'Event invitation',
      description: 'Invite people to an event or webinar, with the date, the place and an RSVP button.',
      imagePath: `${IMAGE_DIR}event-calendar.jpg`,
      subject: 'You’re invited, {{firstName|friend}}',
      preheader: 'Join us on Thursday, June 12 at 6 pm. Save your seat.',
      blocks: [
        {
          id: 'e1',
          type: 'image',
          content: { src: image('event-calendar.jpg'), alt: 'A yellow calendar with one day marked in red' },
          styles: {},
        },
        {
          id: 'e2',
          type: 'text',
          content: { text: 'You’re invited', tag: 'h1' },
          styles: { textAlign: 'center', color: '#0f172a' },
        },
        {
          id: 'e3',
          type: 'text',
          content: { text: 'Thursday, June 12 · 6:00 pm · Main Street Hall', tag: 'h3' },
          styles: { textAlign: 'center', color: '#a16207' },
        },
        {
          id: 'e4',
          type: 'text',
          content: {
            text: 'Hi {{firstName|there}}, join us for an evening of short talks, good food and great company. Seats are limited, so let us know you are coming.',
            tag: 'p',
          },
          styles: {},
        },
        button('e5', 'Save my seat', 'https://example.com/rsvp', '#0f172a'),
        { id: 'e6', type: 'spacer', content: {}, styles: { height: 16 } },
      ],
    },
    {
      id: 'plain-letter',
      name: 'Plain letter',
      description: 'A personal note that reads like an email from a person, not a brochure.',
      imagePath: `${IMAGE_DIR}letter-envelope.jpg`,
      subject: 'A quick note, {{firstName|friend}}',
      preheader: '',
      blocks: [
        { id: 'l1', type: 'text', content: { text: 'Hi {{firstName|there}},', tag: 'p' }, styles: {} },
        {
          id: 'l2',
          type: 'text',
          content: {
            text: 'I wanted to write to you personally. Say what is on your mind in a few short paragraphs, the way you would write to a friend.',
            tag: 'p',
          },
          styles: {},
        },
        {
          id: 'l3',
          type: 'text',
          content: { text: 'If you have a moment, hit reply and tell me what you think.', tag: 'p' },
          styles: {},
        },
        { id: 'l4', type: 'text', content: { text: 'Thanks for reading,\nThe team', tag: 'p' }, styles: {} },
      ],
    },
  ];
}
