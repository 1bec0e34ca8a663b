import { describe, expect, it } from 'vitest';
import {
  allBlocks,
  blockMergeTexts,
  emailBlockSchema,
  plainTextDoc,
  unknownMergeTags,
  type EmailBlockInput,
} from '@sendwell/contract/campaigns';
import { compileEmail, renderForRecipient, untrackedLinks } from './email-renderer.ts';

const sender = { company: 'Acme & Sons', postalAddress: '1 Main St\nSpringfield', year: 2026 };
const ada = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: null };
const blocks = (input: EmailBlockInput[]) => input.map((b) => emailBlockSchema.parse(b));

function render(input: EmailBlockInput[], recipient = ada) {
  const compiled = compileEmail(blocks(input), 'Hi {{firstName|there}}', sender, 'https://app.example.com');
  return {
    compiled,
    ...renderForRecipient(
      compiled,
      recipient,
      untrackedLinks(compiled, 'https://u.example/unsub', 'https://u.example/prefs'),
    ),
  };
}

describe('email renderer', () => {
  it('renders every block type in a 600 px table layout with the spec defaults', () => {
    const { html, text } = render([
      { id: '1', type: 'text', content: { text: 'Spring Sale', tag: 'h1' } },
      { id: '2', type: 'text', content: { text: 'Hello {{firstName}},\nwelcome.', tag: 'p' } },
      { id: '3', type: 'image', content: { src: '/uploads/a.png', alt: 'Flowers' } },
      { id: '4', type: 'button', content: { text: 'Shop Now', url: 'https://shop.example.com/sale' } },
      { id: '5', type: 'divider', content: {} },
      { id: '6', type: 'spacer', content: {} },
    ]);
    expect(html).toContain('width="600"');
    expect(html).toContain('<h1 style="margin:0;color:#333333;font-size:32px;line-height:1.5;font-weight:bold;');
    expect(html).toContain('color:#333333;font-size:16px;line-height:1.5');
    expect(html).toContain('Hello Ada,<br>welcome.');
    expect(html).toContain('src="https://app.example.com/uploads/a.png" alt="Flowers"');
    expect(html).toContain('display:block;width:100%;max-width:100%;height:auto');
    expect(html).toContain('background-color:#2563eb;border-radius:4px;');
    expect(html).toContain('href="https://shop.example.com/sale"');
    expect(html).toContain('padding:12px 24px;color:#ffffff');
    expect(html).toContain('border-top:1px solid #e5e5e5;margin:20px 0;');
    expect(html).toContain('<td style="height:20px;');
    expect(html).toContain('<title>Hi Ada</title>');
    expect(text).toContain('Spring Sale\n\nHello Ada,\nwelcome.');
    expect(text).toContain('Shop Now: https://shop.example.com/sale');
  });

  it('carries the footer: unsubscribe and preferences links, company, postal address, year', () => {
    const { html, text } = render([{ id: '1', type: 'text', content: { text: 'x', tag: 'p' } }]);
    expect(html).toContain('<a href="https://u.example/unsub"');
    expect(html).toContain('<a href="https://u.example/prefs"');
    expect(html).toContain('Acme &amp; Sons<br>1 Main St<br>Springfield');
    expect(html).toContain('&copy; 2026 Acme &amp; Sons');
    expect(text).toContain('Unsubscribe: https://u.example/unsub');
    expect(text).toContain('1 Main St\nSpringfield');
  });

  // First-hour finding 10: the footer printed the company twice when the address began with it.
  it('prints the company once when the postal address already starts with it', () => {
    const withName = { company: 'Acme', postalAddress: 'Acme Inc, 1 Main St, Springfield', year: 2026 };
    const compiled = compileEmail(
      blocks([{ id: '1', type: 'text', content: { text: 'x', tag: 'p' } }]),
      'Hi',
      withName,
      'https://app.example.com',
    );
    const { html, text } = renderForRecipient(
      compiled,
      ada,
      untrackedLinks(compiled, 'https://u/unsub', 'https://u/prefs'),
    );
    expect(html).toContain('<p style="margin:0 0 8px 0;">Acme Inc, 1 Main St, Springfield</p>');
    expect(text).toContain('--\nAcme Inc, 1 Main St, Springfield\n');
    expect(html).toContain('&copy; 2026 Acme');
    // A company that is only the start of a longer word is still printed.
    const other = compileEmail(blocks([]), 'Hi', { ...withName, company: 'Ac' }, 'https://app.example.com');
    expect(renderForRecipient(other, ada, untrackedLinks(other, 'u', 'p')).text).toContain('--\nAc\nAcme Inc');
  });

  it('escapes user text so a script does not survive', () => {
    const { html } = render([
      { id: '1', type: 'text', content: { text: '<script>alert(1)</script><b onclick="x">', tag: 'p' } },
    ]);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b onclick');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes merge values from contacts', () => {
    const { html } = render([{ id: '1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } }], {
      ...ada,
      firstName: '<img src=x onerror=alert(1)>',
    });
    expect(html).toContain('Hi &lt;img src=x onerror=alert(1)&gt;');
  });

  it('refuses javascript: and other non-http URLs', () => {
    expect(
      emailBlockSchema.safeParse({ id: '1', type: 'button', content: { text: 'Go', url: 'javascript:alert(1)' } })
        .success,
    ).toBe(false);
    expect(
      emailBlockSchema.safeParse({ id: '1', type: 'image', content: { src: 'data:text/html,hi', alt: '' } }).success,
    ).toBe(false);
    expect(
      emailBlockSchema.safeParse({ id: '1', type: 'button', content: { text: 'Go', url: 'https://ok.example' } })
        .success,
    ).toBe(true);
  });

  it('fills merge tags with fallbacks and knows unknown tags', () => {
    const { html } = render(
      [
        {
          id: '1',
          type: 'text',
          content: { text: 'Dear {{ firstName | friend }} from {{company|your team}} ({{email}})', tag: 'p' },
        },
      ],
      { ...ada, firstName: '' },
    );
    expect(html).toContain('Dear friend from your team (ada@example.com)');
    expect(unknownMergeTags('{{firstName}} {{password}} {{ process.env }}')).toEqual(['password', 'process.env']);
  });

  it('collects each link once for click tracking', () => {
    const { compiled } = render([
      { id: '1', type: 'button', content: { text: 'A', url: 'https://a.example' } },
      { id: '2', type: 'button', content: { text: 'B', url: 'https://a.example' } },
      { id: '3', type: 'image', content: { src: 'https://img.example/x.png', alt: '', href: 'https://b.example' } },
    ]);
    expect(compiled.links).toEqual(['https://a.example', 'https://b.example']);
  });

  it('renders the same output for the same input (snapshot)', () => {
    const { html } = render([
      {
        id: '1',
        type: 'text',
        content: { text: 'Hello {{firstName}}', tag: 'h2' },
        styles: { color: '#112233', textAlign: 'center' },
      },
      {
        id: '2',
        type: 'button',
        content: { text: 'Go', url: 'https://go.example' },
        styles: { backgroundColor: '#ff0000', borderRadius: 8 },
      },
    ]);
    expect(html).toMatchSnapshot();
  });

  it('puts the preheader first in the body, hidden and escaped, merge tags filled; none without one', () => {
    const input = [emailBlockSchema.parse({ id: '1', type: 'text', content: { text: 'Hello', tag: 'p' } })];
    const compiled = compileEmail(
      input,
      'Hi',
      sender,
      'https://app.example.com',
      undefined,
      '<b>Deals</b> for {{firstName}}',
    );
    const { html } = renderForRecipient(compiled, ada, untrackedLinks(compiled, 'https://u/unsub', 'https://u/prefs'));
    const body = html.slice(html.indexOf('<body'));
    expect(body).toMatch(
      /^<body[^>]*><span class="preheader" style="display:none!important;[^"]*">&lt;b&gt;Deals&lt;\/b&gt; for Ada&#8204;/,
    );
    const plain = compileEmail(input, 'Hi', sender, 'https://app.example.com');
    expect(renderForRecipient(plain, ada, untrackedLinks(plain, 'u', 'p')).html).not.toContain('preheader');
  });
});

describe('a campaign written in its own HTML', () => {
  const tracked = (compiled: ReturnType<typeof compileEmail>) => ({
    click: (i: number) => `https://t.example/c/${i}?x=1&y=2`,
    openPixel: 'https://t.example/o/pixel',
    unsubscribe: 'https://t.example/u?a=1&b=2',
    preferences: 'https://t.example/p',
    links: compiled.links,
  });
  function renderRaw(rawHtml: string, options: { text?: string; preheader?: string } = {}) {
    const compiled = compileEmail(
      [],
      'News for {{firstName}}',
      sender,
      'https://app.example.com',
      rawHtml,
      options.preheader ?? null,
      options.text ?? null,
    );
    return { compiled, ...renderForRecipient(compiled, { ...ada, firstName: 'Ada <3' }, tracked(compiled)) };
  }

  const letter = [
    '<html><head><style>.lead { color: #0a7d3b; } @media (max-width: 480px) { .lead { font-size: 14px; } }</style></head>',
    '<body><h1>Hello {{firstName|friend}}</h1><p class="lead">Our <a href="https://shop.example/sale?a=1&amp;b=2">spring sale</a>',
    ' and <a href="https://shop.example/blog">blog</a>; <a href="mailto:hi@acme.example">write to us</a>;',
    ' <a href="https://shop.example/for/{{email}}">your page</a>; again: <a href="https://shop.example/blog">blog</a>.</p>',
    '<img src="https://cdn.example/a.png" alt="A picture"></body></html>',
  ].join('');

  it('fills merge tags (escaped), inlines the CSS and keeps media queries, keeps the HTML as written', () => {
    const { html, subject } = renderRaw(letter);
    expect(subject).toBe('News for Ada <3');
    expect(html).toContain('<h1>Hello Ada &lt;3</h1>');
    expect(html).toMatch(/<p class="lead" style="color: #0a7d3b;">/);
    expect(html).toContain('@media (max-width: 480px)');
    expect(html).toContain('<img src="https://cdn.example/a.png" alt="A picture">');
  });

  it('tracks every link to a web address, once per address, and leaves mailto and personalised links as written', () => {
    const { html, compiled } = renderRaw(letter);
    expect(compiled.links).toEqual(['https://shop.example/sale?a=1&b=2', 'https://shop.example/blog']);
    expect(html).toContain('<a href="https://t.example/c/0?x=1&amp;y=2">spring sale</a>');
    expect(html.match(/href="https:\/\/t\.example\/c\/1\?x=1&amp;y=2"/g)).toHaveLength(2);
    expect(html).toContain('href="mailto:hi@acme.example"');
    expect(html).toContain('href="https://shop.example/for/ada@example.com"');
  });

  it('adds the open pixel and the standard footer (postal address, unsubscribe) before the end of the body', () => {
    const { html, text } = renderRaw(letter);
    const footer = html.indexOf('1 Main St<br>Springfield');
    expect(footer).toBeGreaterThan(html.indexOf('A picture'));
    expect(html).toContain('href="https://t.example/u?a=1&amp;b=2"');
    expect(html.indexOf('<img src="https://t.example/o/pixel"')).toBeGreaterThan(footer);
    expect(html.trimEnd()).toMatch(/<\/body><\/html>$/);
    expect(text).toContain('Unsubscribe: https://t.example/u?a=1&b=2');
  });

  it('puts the links where an {{unsubscribe}} placeholder is, and then adds no footer', () => {
    const { html, text } = renderRaw(
      '<p>Hi {{firstName}}</p><p><a href="{{unsubscribe}}">Leave</a> · <a href="{{preferences}}">Choose</a></p>',
    );
    expect(html).toContain(
      '<a href="https://t.example/u?a=1&amp;b=2">Leave</a> · <a href="https://t.example/p">Choose</a>',
    );
    expect(html).not.toContain('1 Main St');
    expect(text).toContain('Leave [https://t.example/u?a=1&b=2]');
    expect(text).not.toContain('1 Main St');
  });

  it('makes a readable text part with the tracked links and filled merge tags, or takes the one given', () => {
    const { text } = renderRaw(letter);
    expect(text).toMatch(/^Hello Ada <3\n\nOur spring sale \[https:\/\/t\.example\/c\/0\?x=1&y=2\]/);
    expect(text).toContain('blog [https://t.example/c/1?x=1&y=2]');
    expect(text).not.toMatch(/<\/?[a-z]/);
    const given = renderRaw(letter, { text: 'Plain {{firstName}}: https://shop.example/blog' });
    expect(given.text).toMatch(/^Plain Ada <3: https:\/\/t\.example\/c\/1\?x=1&y=2\n\n--\n/);
  });

  it('wraps a body fragment in a document, with the preheader first in the body', () => {
    const { html } = renderRaw('<p>Just a paragraph</p>', { preheader: 'Sneak peek for {{firstName}}' });
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">/);
    expect(html).toContain('<title>News for Ada &lt;3</title>');
    expect(html).toMatch(/<body><span class="preheader"[^>]*>Sneak peek for Ada &lt;3/);
  });
});

describe('email renderer: rich text and the new blocks', () => {
  const doc = (content: unknown[]) => ({ type: 'doc', content });
  const para = (...content: unknown[]) => ({ type: 'paragraph', content });
  const words = (text: string, ...marks: unknown[]) => ({ type: 'text', text, ...(marks.length ? { marks } : {}) });
  const richBlock = (content: unknown[]): EmailBlockInput =>
    ({ id: 'r', type: 'text', content: { text: '', tag: 'p', doc: doc(content) } }) as EmailBlockInput;
  const tracked = (compiled: ReturnType<typeof compileEmail>) => ({
    click: (i: number) => `https://t.example/c/${i}`,
    openPixel: 'https://t.example/o',
    unsubscribe: 'https://t.example/u',
    preferences: 'https://t.example/p',
    links: compiled.links,
  });

  it('renders bold, italic, underline, lists, headings and alignment as email HTML and text', () => {
    const { html, text } = render([
      richBlock([
        { type: 'heading', attrs: { level: 2, textAlign: 'center' }, content: [words('News')] },
        para(
          words('Plain, '),
          words('bold', { type: 'bold' }),
          words(' and '),
          words('both', { type: 'italic' }, { type: 'underline' }),
        ),
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [para(words('one'))] },
            { type: 'listItem', content: [para(words('two'))] },
          ],
        },
        { type: 'orderedList', content: [{ type: 'listItem', content: [para(words('first'))] }] },
      ]),
    ]);
    expect(html).toMatch(/<h2 style="margin:0 0 16px 0;[^"]*font-size:24px;[^"]*text-align:center;">News<\/h2>/);
    expect(html).toContain('Plain, <strong>bold</strong> and <em><u>both</u></em></p>');
    expect(html).toMatch(
      /<ul style="[^"]*padding:0 0 0 24px;[^"]*"><li style="margin:0 0 4px 0;"><p [^>]*>one<\/p><\/li>/,
    );
    expect(html).toContain('<ol style=');
    expect(text).toContain('News\n\nPlain, bold and both\n\n- one\n- two\n\n1. first\n');
  });

  it('tracks rich-text links like buttons, in the HTML and the text part', () => {
    const blocks_ = blocks([
      richBlock([
        para(words('Read '), words('the post', { type: 'link', attrs: { href: 'https://blog.example/post' } })),
      ]),
      { id: 'b', type: 'button', content: { text: 'Go', url: 'https://blog.example/post' } },
    ]);
    const compiled = compileEmail(blocks_, 'Hi', sender, 'https://app.example.com');
    expect(compiled.links).toEqual(['https://blog.example/post']);
    const { html, text } = renderForRecipient(compiled, ada, tracked(compiled));
    expect(html).toContain(
      'Read <a href="https://t.example/c/0" target="_blank" style="color:#2563eb;text-decoration:underline;">the post</a>',
    );
    expect(html).not.toContain('https://blog.example/post');
    expect(text).toContain('Read the post (https://t.example/c/0)');
  });

  it('fills merge tags with fallbacks inside rich text and escapes user text and link addresses', () => {
    const { html } = render(
      [
        richBlock([
          para(
            words('Hi {{firstName|there}} <script>alert(1)</script>', { type: 'bold' }),
            words('x', { type: 'link', attrs: { href: 'https://a.example/?q="><img src=x>' } }),
          ),
        ]),
      ],
      { ...ada, firstName: '' },
    );
    expect(html).toContain('<strong>Hi there &lt;script&gt;alert(1)&lt;/script&gt;</strong>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="https://a.example/?q=&quot;&gt;&lt;img src=x&gt;"');
  });

  it('refuses rich text that is not on the allow-list, drops attributes that are not', () => {
    const parse = (content: unknown[]) => emailBlockSchema.safeParse(richBlock(content));
    expect(parse([{ type: 'codeBlock', content: [words('x')] }]).success).toBe(false);
    expect(parse([para(words('x', { type: 'textStyle', attrs: { color: 'red' } }))]).success).toBe(false);
    expect(parse([para(words('x', { type: 'link', attrs: { href: 'javascript:alert(1)' } }))]).success).toBe(false);
    const pasted = parse([
      {
        type: 'paragraph',
        attrs: { textAlign: 'left', style: 'color:red' },
        content: [words('x', { type: 'link', attrs: { href: 'https://a.example', class: 'gdoc', target: '_self' } })],
      },
    ]);
    expect(pasted.success).toBe(true);
    expect(JSON.stringify(pasted.data)).not.toMatch(/color:red|gdoc|_self/);
  });

  it('renders a plain text block read as rich text exactly as the plain block (migrate on read)', () => {
    for (const tag of ['p', 'h1', 'h3'] as const) {
      const plain = { id: '1', type: 'text', content: { text: 'Hello {{firstName}},\nwelcome <b>.', tag } } as const;
      const migrated = { ...plain, content: { ...plain.content, doc: plainTextDoc(plain.content.text, tag) } };
      const before = render([plain]);
      const after = render([migrated as EmailBlockInput]);
      expect(after.html).toBe(before.html);
      expect(after.text).toBe(before.text);
    }
  });

  it('renders columns as inline blocks that stack, with an MSO table for Outlook', () => {
    const { html, text } = render([
      {
        id: 'c',
        type: 'columns',
        content: {
          columns: [
            { blocks: [{ id: 'a', type: 'heading', content: { text: 'Left', tag: 'h2' } }] },
            { blocks: [{ id: 'b', type: 'image', content: { src: 'https://img.example/x.png', alt: 'X' } }] },
          ],
        },
      },
    ]);
    expect(html).toContain('@media only screen and (max-width:620px){.sw-col{max-width:100%!important;}}');
    expect(html).toContain(
      '<!--[if mso]><table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0"><tr><![endif]-->',
    );
    expect(html.match(/<!--\[if mso\]><td width="300" valign="top"><!\[endif\]-->/g)).toHaveLength(2);
    expect(html.match(/class="sw-col" style="display:inline-block;width:100%;max-width:300px;/g)).toHaveLength(2);
    expect(html).toContain('<!--[if mso]></tr></table><![endif]-->');
    expect(html).toContain('width="260"');
    expect(text).toContain('Left\n\n[X]');
    const three = emailBlockSchema.parse({
      id: 'c',
      type: 'columns',
      content: { columns: [{ blocks: [] }, { blocks: [] }, { blocks: [] }] },
    });
    expect(render([three as EmailBlockInput]).html).toContain('max-width:200px;');
    expect(
      emailBlockSchema.safeParse({ id: 'c', type: 'columns', content: { columns: [{ blocks: [] }] } }).success,
    ).toBe(false);
    // Columns do not nest.
    expect(
      emailBlockSchema.safeParse({
        id: 'c',
        type: 'columns',
        content: { columns: [{ blocks: [three] }, { blocks: [] }] },
      }).success,
    ).toBe(false);
  });

  it('gives Outlook a VML button beside the HTML one, both tracked', () => {
    const compiled = compileEmail(
      blocks([{ id: 'b', type: 'button', content: { text: 'Shop <now>', url: 'https://shop.example' } }]),
      'Hi',
      sender,
      'https://app.example.com',
    );
    const { html } = renderForRecipient(compiled, ada, tracked(compiled));
    expect(html).toContain('xmlns:v="urn:schemas-microsoft-com:vml"');
    expect(html).toMatch(
      /<!--\[if mso\]><v:roundrect [^>]*href="https:\/\/t.example\/c\/0"[^>]*fillcolor="#2563eb"><w:anchorlock\/><center [^>]*>Shop &lt;now&gt;<\/center><\/v:roundrect><!\[endif\]--><!--\[if !mso\]><!-->/,
    );
    expect(html).toContain('</a></td></tr></table><!--<![endif]-->');
  });

  it('renders social links with the icons shipped with the app, video with a play mark, and HTML blocks with tracked links', () => {
    const compiled = compileEmail(
      blocks([
        {
          id: 's',
          type: 'social',
          content: {
            links: [
              { network: 'x', url: 'https://x.com/acme' },
              { network: 'linkedin', url: 'https://linkedin.com/acme' },
            ],
          },
        },
        {
          id: 'v',
          type: 'video',
          content: { url: 'https://video.example/v', thumbnail: '/uploads/t.png', alt: 'Our <film>' },
        },
        {
          id: 'h',
          type: 'html',
          content: { html: '<p>Hi {{firstName|you}}, <a href="https://own.example">own</a></p>' },
        },
      ]),
      'Hi',
      sender,
      'https://app.example.com',
    );
    expect(compiled.links).toEqual([
      'https://x.com/acme',
      'https://linkedin.com/acme',
      'https://video.example/v',
      'https://own.example',
    ]);
    const { html, text } = renderForRecipient(compiled, { ...ada, firstName: '' }, tracked(compiled));
    expect(html).toContain('<img src="https://app.example.com/images/social/x.png" width="32" height="32" alt="X"');
    expect(html).toContain('src="https://app.example.com/uploads/t.png" alt="Our &lt;film&gt;"');
    expect(html).toContain('&#9654;&nbsp;&nbsp;Play video</a>');
    expect(html).toContain('<p>Hi you, <a href="https://t.example/c/3">own</a></p>');
    expect(text).toContain('X: https://t.example/c/0\nLinkedIn: https://t.example/c/1');
    expect(text).toContain('[Our <film>] Play video: https://t.example/c/2');
    expect(text).toContain('Hi you, own [https://t.example/c/3]');
    expect(
      emailBlockSchema.safeParse({
        id: 's',
        type: 'social',
        content: { links: [{ network: 'myspace', url: 'https://a.example' }] },
      }).success,
    ).toBe(false);
  });

  it('finds merge tags in every block, columns included', () => {
    const parsed = blocks([
      richBlock([para(words('{{password}}'))]),
      {
        id: 'c',
        type: 'columns',
        content: {
          columns: [
            { blocks: [{ id: 'h', type: 'heading', content: { text: '{{secret}}', tag: 'h1' } }] },
            { blocks: [] },
          ],
        },
      },
    ]);
    expect(allBlocks(parsed).flatMap(blockMergeTexts).flatMap(unknownMergeTags)).toEqual(['password', 'secret']);
  });
});
