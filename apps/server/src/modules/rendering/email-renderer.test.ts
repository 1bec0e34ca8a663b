import { describe, expect, it } from 'vitest';
import { emailBlockSchema, unknownMergeTags, type EmailBlockInput } from '@sendwell/contract/campaigns';
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
    expect(html).toContain('background-color:#007bff;border-radius:4px;');
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
