import { describe, expect, it } from 'vitest';
import { cleanPastedHtml } from './pasted-html';

describe('cleanPastedHtml', () => {
  it('unwraps the Google Docs bold wrapper and keeps the structure inside', () => {
    const gdocs =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><p dir="ltr" style="color:#ff0000;font-family:Arial"><span style="font-weight:700">Bold</span> words</p><ul><li><p>One</p></li></ul></b>';
    expect(cleanPastedHtml(gdocs)).toBe(
      '<p dir="ltr" style="color:#ff0000;font-family:Arial"><span style="font-weight:700">Bold</span> words</p><ul><li><p>One</p></li></ul>',
    );
  });

  it("drops Word's conditional comments, style blocks and o:p tags", () => {
    const word =
      '<style>p.MsoNormal{color:red}</style><!--[if gte mso 9]><xml>x</xml><![endif]--><p class="MsoNormal">Hello<o:p></o:p></p>';
    expect(cleanPastedHtml(word)).toBe('<p class="MsoNormal">Hello</p>');
  });
});
