import * as React from 'react';
import { basicSetup } from 'codemirror';
import { html as htmlLanguage } from '@codemirror/lang-html';
import { oneDark } from '@codemirror/theme-one-dark';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

/** Whether the page is dark now: the `dark` class on <html>, which the theme provider sets. */
function subscribeToDarkClass(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
const isDarkNow = () => document.documentElement.classList.contains('dark');

/** The editor's frame in the app's colours; the syntax colours come from basicSetup (light) or One Dark. */
const frameTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--background)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.55' },
  '.cm-gutters': {
    backgroundColor: 'var(--muted)',
    color: 'var(--muted-foreground)',
    borderRight: '1px solid var(--border)',
  },
  '&.cm-focused': { outline: '2px solid var(--ring)', outlineOffset: '-2px' },
});

/**
 * A code editor for a campaign written in its own HTML (CodeMirror 6: HTML with its CSS and
 * scripts highlighted, tag closing, search, undo). Uncontrolled inside: the document is read from
 * `value` once, and each change is reported with `onChange`; a new `value` from outside (a
 * template chosen) replaces the document only when it differs from what the editor holds.
 */
export function HtmlCodeEditor({
  value,
  onChange,
  labelledBy,
  describedBy,
}: {
  value: string;
  onChange: (html: string) => void;
  /** The id of the visible label of the editor. */
  labelledBy: string;
  describedBy?: string;
}) {
  const host = React.useRef<HTMLDivElement>(null);
  const view = React.useRef<EditorView | null>(null);
  const themeSlot = React.useRef(new Compartment());
  const onChangeRef = React.useRef(onChange);
  React.useEffect(() => {
    onChangeRef.current = onChange;
  });
  // Read from the page rather than the theme setting, so the code follows whatever makes the page dark.
  const dark = React.useSyncExternalStore(subscribeToDarkClass, isDarkNow);

  React.useEffect(() => {
    if (!host.current) return;
    const contentAttributes: Record<string, string> = { 'aria-labelledby': labelledBy, 'aria-multiline': 'true' };
    if (describedBy) contentAttributes['aria-describedby'] = describedBy;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          htmlLanguage(),
          EditorView.lineWrapping,
          frameTheme,
          EditorView.contentAttributes.of(contentAttributes),
          themeSlot.current.of(dark ? oneDark : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The view is made once; value and theme changes are applied by the effects below.
  }, [labelledBy, describedBy]);

  React.useEffect(() => {
    view.current?.dispatch({ effects: themeSlot.current.reconfigure(dark ? oneDark : []) });
  }, [dark]);

  React.useEffect(() => {
    const current = view.current;
    if (!current || current.state.doc.toString() === value) return;
    current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  return (
    <div ref={host} className="h-full min-h-[320px] overflow-hidden rounded-md border" data-testid="html-code-editor" />
  );
}
