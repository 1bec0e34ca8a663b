import * as React from 'react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import TextAlign from '@tiptap/extension-text-align';
import {
  AlignCenter,
  AlignLeft,
  AlignRight,
  Bold,
  Braces,
  Italic,
  Link2,
  List,
  ListOrdered,
  Underline,
  type LucideIcon,
} from 'lucide-react';
import {
  MERGE_TAG_LABELS,
  MERGE_TAGS,
  richTextDocSchema,
  type MergeTag,
  type RichTextDoc,
} from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Toggle } from '@/components/ui/toggle';
import { richTextContent, textBlockDoc, type BlockOf } from '../../editor/blocks';
import { cleanPastedHtml } from '../../editor/pasted-html';
import type { ContentPatch } from './block-content-fields';

type TextStyle = 'p' | '1' | '2' | '3';
const STYLE_LABELS: Record<TextStyle, string> = { p: 'Paragraph', 1: 'Heading 1', 2: 'Heading 2', 3: 'Heading 3' };

/** The editor's JSON as stored: only what the contract allows (a pasted link's target and class go). */
function storedDoc(editor: Editor): RichTextDoc {
  const json = editor.getJSON();
  const parsed = richTextDocSchema.safeParse(json);
  // Something the contract refuses (a link the server would not send) is kept, so the save names it.
  return parsed.success ? parsed.data : (json as RichTextDoc);
}

/**
 * The text block's rich text (tiptap): bold, italic, underline, links, lists, headings, alignment,
 * and merge tags with fallbacks. Pasted documents keep their structure and lose their styles.
 */
export function TextContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'text'>;
  onContent: (patch: ContentPatch) => void;
}) {
  const doc = React.useMemo(() => textBlockDoc(block), [block]);
  const onContentRef = React.useRef(onContent);
  React.useEffect(() => {
    onContentRef.current = onContent;
  });
  // The document this editor last saved: the block coming back with it is no change from outside.
  const emitted = React.useRef<RichTextDoc | null>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        blockquote: false,
        code: false,
        codeBlock: false,
        horizontalRule: false,
        strike: false,
        heading: { levels: [1, 2, 3] },
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          isAllowedUri: (url) => /^https?:\/\//i.test(url),
          HTMLAttributes: { target: null, rel: null },
        },
      }),
      TextAlign.configure({ types: ['heading', 'paragraph'], alignments: ['left', 'center', 'right'] }),
    ],
    content: doc,
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: {
        id: `${id}-text`,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-text-label`,
        'aria-describedby': `${id}-text-hint`,
        class:
          'min-h-32 max-h-80 [&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-300 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:text-xl [&_h2]:font-bold [&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-6 overflow-y-auto rounded-md border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:border-ring',
      },
      transformPastedHTML: cleanPastedHtml,
    },
    onUpdate: ({ editor: changed }) => {
      const next = storedDoc(changed);
      emitted.current = next;
      onContentRef.current(richTextContent(next));
    },
  });

  // Undo and redo of the block list change the block from outside: the editor follows.
  const savedDoc = block.content.doc;
  React.useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (savedDoc && savedDoc === emitted.current) return;
    if (JSON.stringify(storedDoc(editor)) !== JSON.stringify(doc)) {
      editor.commands.setContent(doc, { emitUpdate: false });
    }
  }, [editor, doc, savedDoc]);

  if (!editor) return null;
  const level = ([1, 2, 3] as const).find((l) => editor.isActive('heading', { level: l }));
  const style: TextStyle = level ? (String(level) as TextStyle) : 'p';

  return (
    <div className="space-y-1.5">
      <Label id={`${id}-text-label`} htmlFor={`${id}-text`} className="text-xs">
        Text
      </Label>
      <div role="toolbar" aria-label="Text formatting" className="flex flex-wrap items-center gap-0.5">
        <Select
          value={style}
          onValueChange={(value: TextStyle) => {
            const chain = editor.chain().focus();
            if (value === 'p') chain.setParagraph().run();
            else chain.setHeading({ level: Number(value) as 1 | 2 | 3 }).run();
          }}
        >
          <SelectTrigger size="sm" className="h-8 w-[7.5rem]" aria-label="Style">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(STYLE_LABELS) as TextStyle[]).map((value) => (
              <SelectItem key={value} value={value}>
                {STYLE_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <MarkToggle editor={editor} icon={Bold} label="Bold" active="bold" run={(c) => c.toggleBold()} />
        <MarkToggle editor={editor} icon={Italic} label="Italic" active="italic" run={(c) => c.toggleItalic()} />
        <MarkToggle
          editor={editor}
          icon={Underline}
          label="Underline"
          active="underline"
          run={(c) => c.toggleUnderline()}
        />
        <LinkButton editor={editor} id={id} />
        <MarkToggle
          editor={editor}
          icon={List}
          label="Bulleted list"
          active="bulletList"
          run={(c) => c.toggleBulletList()}
        />
        <MarkToggle
          editor={editor}
          icon={ListOrdered}
          label="Numbered list"
          active="orderedList"
          run={(c) => c.toggleOrderedList()}
        />
        {(
          [
            ['left', AlignLeft, 'Align left'],
            ['center', AlignCenter, 'Align centre'],
            ['right', AlignRight, 'Align right'],
          ] as const
        ).map(([align, Icon, label]) => (
          <MarkToggle
            key={align}
            editor={editor}
            icon={Icon}
            label={label}
            active={{ textAlign: align }}
            run={(c) => c.setTextAlign(align)}
          />
        ))}
        <MergeTagPicker editor={editor} id={id} />
      </div>
      <EditorContent editor={editor} />
      <p id={`${id}-text-hint`} className="text-muted-foreground text-xs">
        Merge tags take a fallback after a bar: {'{{firstName|there}}'}.
      </p>
    </div>
  );
}

type Chain = ReturnType<Editor['chain']>;

function MarkToggle({
  editor,
  icon: Icon,
  label,
  active,
  run,
}: {
  editor: Editor;
  icon: LucideIcon;
  label: string;
  active: string | { textAlign: string };
  run: (chain: Chain) => Chain;
}) {
  const pressed = typeof active === 'string' ? editor.isActive(active) : editor.isActive(active);
  return (
    <Toggle
      size="sm"
      pressed={pressed}
      onPressedChange={() => run(editor.chain().focus()).run()}
      aria-label={label}
      title={label}
    >
      <Icon aria-hidden="true" />
    </Toggle>
  );
}

/** Adds, changes or removes the link on the selected words (links are tracked like buttons). */
function LinkButton({ editor, id }: { editor: Editor; id: string }) {
  const [open, setOpen] = React.useState(false);
  const [href, setHref] = React.useState('');
  const valid = /^https?:\/\/\S+\.\S+/i.test(href.trim());
  const apply = () => {
    if (!valid) return;
    editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) setHref((editor.getAttributes('link').href as string | undefined) ?? 'https://');
        setOpen(next);
      }}
    >
      <PopoverTrigger asChild>
        <Toggle size="sm" pressed={editor.isActive('link')} aria-label="Link" title="Link">
          <Link2 aria-hidden="true" />
        </Toggle>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-72 space-y-2">
        <Label htmlFor={`${id}-link`} className="text-xs">
          Link address
        </Label>
        <Input
          id={`${id}-link`}
          type="url"
          className="h-8"
          value={href}
          onChange={(e) => setHref(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            }
          }}
        />
        <div className="flex justify-end gap-2">
          {editor.isActive('link') && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                editor.chain().focus().extendMarkRange('link').unsetLink().run();
                setOpen(false);
              }}
            >
              Remove link
            </Button>
          )}
          <Button size="sm" onClick={apply} disabled={!valid}>
            Apply
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}

/** Inserts a merge tag, with an optional fallback for contacts without that field, at the caret. */
function MergeTagPicker({ editor, id }: { editor: Editor; id: string }) {
  const [open, setOpen] = React.useState(false);
  const [tag, setTag] = React.useState<MergeTag>('firstName');
  const [fallback, setFallback] = React.useState('');
  const token = `{{${tag}${fallback.trim() ? `|${fallback.trim().replace(/[{}|]/g, '')}` : ''}}}`;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="sm" className="h-8 px-2 text-xs">
          <Braces aria-hidden="true" />
          Insert merge tag
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-72 space-y-3">
        <p className="text-muted-foreground text-xs">Replaced for each recipient.</p>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-merge-field`} className="text-xs">
            Field
          </Label>
          <Select value={tag} onValueChange={(value: MergeTag) => setTag(value)}>
            <SelectTrigger id={`${id}-merge-field`} size="sm" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {MERGE_TAGS.map((value) => (
                <SelectItem key={value} value={value}>
                  {MERGE_TAG_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-merge-fallback`} className="text-xs">
            Fallback <span className="text-muted-foreground font-normal">(when the contact has none)</span>
          </Label>
          <Input
            id={`${id}-merge-fallback`}
            className="h-8"
            value={fallback}
            maxLength={100}
            placeholder="there"
            onChange={(e) => setFallback(e.target.value)}
          />
        </div>
        <div className="flex items-center justify-between gap-2">
          <code className="text-muted-foreground truncate text-xs">{token}</code>
          <Button
            size="sm"
            onClick={() => {
              editor.chain().focus().insertContent({ type: 'text', text: token }).run();
              setOpen(false);
            }}
          >
            Insert
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
