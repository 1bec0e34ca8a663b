/**
 * HTML pasted from Word or Google Docs, made ready for the rich-text editor. The editor's schema
 * already keeps only what it knows (paragraphs, headings, lists, links, bold, italic, underline)
 * and drops colours, fonts and classes; what it would get wrong is removed here first:
 * - Google Docs wraps a whole copy in `<b style="font-weight:normal" id="docs-internal-guid-…">`,
 *   which would make every word bold;
 * - Word's conditional comments, `<o:p>` tags and `<style>` and `<meta>` tags would come in as text.
 */
export function cleanPastedHtml(html: string): string {
  return html
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(style|title|xml)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<(meta|link)\b[^>]*>/gi, '')
    .replace(/<\/?o:p\b[^>]*>/gi, '')
    .replace(/<b\b[^>]*id="docs-internal-guid-[^"]*"[^>]*>([\s\S]*)<\/b>/i, '$1')
    .replace(/<b\b[^>]*font-weight:\s*(normal|400)[^>]*>([\s\S]*?)<\/b>/gi, '$2');
}
