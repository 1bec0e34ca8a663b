import * as React from 'react';
import { Braces, Upload, X } from 'lucide-react';
import {
  MERGE_TAGS,
  unknownMergeTags,
  type BlockStyles,
  type EmailBlock,
  type MergeTag,
} from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { BLOCK_TYPE_LABELS, STYLE_DEFAULTS, TEXT_TAG_LABELS, type BlockOf, type TextTag } from '../../editor/blocks';
import { AlignField, ColorField, NumberField } from './style-fields';

const MERGE_TAG_LABELS: Record<MergeTag, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  company: 'Company',
};

type ContentPatch = Record<string, unknown>;
type StylePatch = Partial<Record<keyof BlockStyles, unknown>>;

/** The Edit Component panel (spec §2) for the selected block: content, colours, alignment, size and spacing. */
export function BlockInspector({
  block,
  error,
  uploading,
  onContent,
  onStyles,
  onResetStyles,
  onUploadImage,
  onClose,
}: {
  block: EmailBlock;
  error: string | undefined;
  uploading: boolean;
  onContent: (patch: ContentPatch) => void;
  onStyles: (patch: StylePatch) => void;
  onResetStyles: () => void;
  onUploadImage: (file: File) => void;
  onClose: () => void;
}) {
  const id = `block-${block.id}`;
  const s = block.styles;
  const kindLabel =
    block.type === 'text' && block.content.tag !== 'p'
      ? TEXT_TAG_LABELS[block.content.tag]
      : BLOCK_TYPE_LABELS[block.type];

  return (
    <section aria-labelledby={`${id}-heading`} className="bg-muted/40 space-y-4 rounded-lg border p-3">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h3 id={`${id}-heading`} className="text-sm font-semibold">
            Edit Component
          </h3>
          <p className="text-muted-foreground text-xs">{kindLabel}</p>
        </div>
        <Button variant="ghost" size="icon" className="size-7" onClick={onClose} aria-label="Close Edit Component">
          <X aria-hidden="true" />
        </Button>
      </div>

      {error && (
        <p className="text-destructive text-xs font-medium" role="alert">
          {error}
        </p>
      )}
      <UnknownTagsWarning block={block} />

      {block.type === 'text' && <TextContent id={id} block={block} onContent={onContent} />}
      {block.type === 'image' && (
        <ImageContent id={id} block={block} uploading={uploading} onContent={onContent} onUploadImage={onUploadImage} />
      )}
      {block.type === 'button' && (
        <>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-button-text`} className="text-xs">
              Button text
            </Label>
            <Input
              id={`${id}-button-text`}
              className="h-8"
              value={block.content.text}
              maxLength={100}
              onChange={(e) => onContent({ text: e.target.value })}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-button-url`} className="text-xs">
              Button link
            </Label>
            <Input
              id={`${id}-button-url`}
              type="url"
              className="h-8"
              value={block.content.url}
              placeholder="https://"
              onChange={(e) => onContent({ url: e.target.value })}
            />
          </div>
        </>
      )}

      <div className="grid grid-cols-2 gap-3">
        {block.type === 'text' && (
          <>
            <ColorField
              id={`${id}-color`}
              label="Text colour"
              value={s.color}
              fallback={STYLE_DEFAULTS.textColor}
              onChange={(v) => onStyles({ color: v })}
            />
            <ColorField
              id={`${id}-bg`}
              label="Background"
              value={s.backgroundColor}
              fallback={null}
              onChange={(v) => onStyles({ backgroundColor: v })}
            />
            <NumberField
              id={`${id}-font-size`}
              label="Font size"
              unit="px"
              value={s.fontSize}
              fallback={STYLE_DEFAULTS.fontSize[block.content.tag]}
              min={8}
              max={72}
              onChange={(v) => onStyles({ fontSize: v })}
            />
            <NumberField
              id={`${id}-padding`}
              label="Padding"
              unit="px"
              value={s.padding}
              fallback={STYLE_DEFAULTS.textPadding}
              min={0}
              max={80}
              onChange={(v) => onStyles({ padding: v })}
            />
          </>
        )}
        {block.type === 'image' && (
          <>
            <NumberField
              id={`${id}-width`}
              label="Width"
              unit="%"
              value={s.width}
              fallback={STYLE_DEFAULTS.imageWidth}
              min={10}
              max={100}
              onChange={(v) => onStyles({ width: v })}
            />
            <NumberField
              id={`${id}-padding`}
              label="Padding"
              unit="px"
              value={s.padding}
              fallback={STYLE_DEFAULTS.blockPadding}
              min={0}
              max={80}
              onChange={(v) => onStyles({ padding: v })}
            />
            <ColorField
              id={`${id}-bg`}
              label="Background"
              value={s.backgroundColor}
              fallback={null}
              onChange={(v) => onStyles({ backgroundColor: v })}
            />
          </>
        )}
        {block.type === 'button' && (
          <>
            <ColorField
              id={`${id}-bg`}
              label="Button colour"
              value={s.backgroundColor}
              fallback={STYLE_DEFAULTS.buttonBackground}
              onChange={(v) => onStyles({ backgroundColor: v })}
            />
            <ColorField
              id={`${id}-color`}
              label="Text colour"
              value={s.color}
              fallback={STYLE_DEFAULTS.buttonColor}
              onChange={(v) => onStyles({ color: v })}
            />
            <NumberField
              id={`${id}-font-size`}
              label="Font size"
              unit="px"
              value={s.fontSize}
              fallback={STYLE_DEFAULTS.buttonFontSize}
              min={8}
              max={72}
              onChange={(v) => onStyles({ fontSize: v })}
            />
            <NumberField
              id={`${id}-radius`}
              label="Corner radius"
              unit="px"
              value={s.borderRadius}
              fallback={STYLE_DEFAULTS.buttonRadius}
              min={0}
              max={40}
              onChange={(v) => onStyles({ borderRadius: v })}
            />
            <NumberField
              id={`${id}-padding`}
              label="Padding"
              unit="px"
              value={s.padding}
              fallback={STYLE_DEFAULTS.blockPadding}
              min={0}
              max={80}
              onChange={(v) => onStyles({ padding: v })}
            />
          </>
        )}
        {block.type === 'divider' && (
          <>
            <ColorField
              id={`${id}-color`}
              label="Line colour"
              value={s.color}
              fallback={STYLE_DEFAULTS.dividerColor}
              onChange={(v) => onStyles({ color: v })}
            />
            <NumberField
              id={`${id}-padding`}
              label="Padding"
              unit="px"
              value={s.padding}
              fallback={0}
              min={0}
              max={80}
              onChange={(v) => onStyles({ padding: v })}
            />
          </>
        )}
        {block.type === 'spacer' && (
          <>
            <NumberField
              id={`${id}-height`}
              label="Height"
              unit="px"
              value={s.height}
              fallback={STYLE_DEFAULTS.spacerHeight}
              min={0}
              max={400}
              onChange={(v) => onStyles({ height: v })}
            />
            <ColorField
              id={`${id}-bg`}
              label="Background"
              value={s.backgroundColor}
              fallback={null}
              onChange={(v) => onStyles({ backgroundColor: v })}
            />
          </>
        )}
      </div>

      {(block.type === 'text' || block.type === 'image' || block.type === 'button') && (
        <AlignField
          value={s.textAlign ?? (block.type === 'button' ? 'center' : 'left')}
          onChange={(v) => onStyles({ textAlign: v })}
        />
      )}

      {Object.keys(s).length > 0 && (
        <Button variant="ghost" size="sm" className="text-muted-foreground -ml-2" onClick={onResetStyles}>
          Reset styles
        </Button>
      )}
    </section>
  );
}

function TextContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'text'>;
  onContent: (patch: ContentPatch) => void;
}) {
  const textareaRef = React.useRef<HTMLTextAreaElement>(null);
  const caret = React.useRef<number | null>(null);

  const insertTag = (tag: MergeTag) => {
    const area = textareaRef.current;
    const text = block.content.text;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const token = `{{${tag}}}`;
    onContent({ text: text.slice(0, start) + token + text.slice(end) });
    caret.current = start + token.length;
  };

  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-tag`} className="text-xs">
          Style
        </Label>
        <Select value={block.content.tag} onValueChange={(tag) => onContent({ tag: tag as TextTag })}>
          <SelectTrigger id={`${id}-tag`} size="sm" className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(TEXT_TAG_LABELS) as TextTag[]).map((tag) => (
              <SelectItem key={tag} value={tag}>
                {TEXT_TAG_LABELS[tag]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="space-y-1.5">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={`${id}-text`} className="text-xs">
            Text
          </Label>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="sm" className="h-7 px-2 text-xs">
                <Braces aria-hidden="true" />
                Insert merge tag
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent
              align="end"
              onCloseAutoFocus={(event) => {
                // Back to the text, with the caret after the inserted tag.
                const area = textareaRef.current;
                if (!area || caret.current === null) return;
                event.preventDefault();
                const at = caret.current;
                caret.current = null;
                area.focus();
                area.setSelectionRange(at, at);
              }}
            >
              <DropdownMenuLabel className="text-muted-foreground text-xs font-normal">
                Replaced for each recipient
              </DropdownMenuLabel>
              <DropdownMenuSeparator />
              {MERGE_TAGS.map((tag) => (
                <DropdownMenuItem key={tag} onSelect={() => insertTag(tag)}>
                  <span>{MERGE_TAG_LABELS[tag]}</span>
                  <span className="text-muted-foreground ml-auto font-mono text-xs">{`{{${tag}}}`}</span>
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
        <Textarea
          ref={textareaRef}
          id={`${id}-text`}
          rows={5}
          value={block.content.text}
          maxLength={20_000}
          onChange={(e) => onContent({ text: e.target.value })}
          aria-describedby={`${id}-text-hint`}
        />
        <p id={`${id}-text-hint`} className="text-muted-foreground text-xs">
          Add a fallback after a bar: {'{{firstName|there}}'}.
        </p>
      </div>
    </>
  );
}

function ImageContent({
  id,
  block,
  uploading,
  onContent,
  onUploadImage,
}: {
  id: string;
  block: BlockOf<'image'>;
  uploading: boolean;
  onContent: (patch: ContentPatch) => void;
  onUploadImage: (file: File) => void;
}) {
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-src`} className="text-xs">
          Image address
        </Label>
        <Input
          id={`${id}-src`}
          type="url"
          className="h-8"
          value={block.content.src}
          placeholder="https://"
          onChange={(e) => onContent({ src: e.target.value })}
        />
      </div>
      <div>
        <input
          id={`${id}-upload`}
          type="file"
          accept="image/*"
          aria-label="Upload image"
          className="peer sr-only"
          disabled={uploading}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onUploadImage(file);
            event.target.value = '';
          }}
        />
        <Button
          variant="outline"
          size="sm"
          asChild
          className="peer-focus-visible:ring-ring/50 w-full cursor-pointer peer-focus-visible:ring-[3px]"
        >
          <label htmlFor={`${id}-upload`}>
            {uploading ? <Spinner className="size-4" label="Uploading image" /> : <Upload aria-hidden="true" />}
            {uploading ? 'Uploading…' : 'Upload an image'}
          </label>
        </Button>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-alt`} className="text-xs">
          Alt text
        </Label>
        <Input
          id={`${id}-alt`}
          className="h-8"
          value={block.content.alt}
          maxLength={300}
          onChange={(e) => onContent({ alt: e.target.value })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-href`} className="text-xs">
          Link <span className="text-muted-foreground font-normal">(optional)</span>
        </Label>
        <Input
          id={`${id}-href`}
          type="url"
          className="h-8"
          value={block.content.href ?? ''}
          placeholder="https://"
          onChange={(e) => onContent({ href: e.target.value.trim() === '' ? undefined : e.target.value })}
        />
      </div>
    </>
  );
}

/** Unknown {{tags}} are refused when the campaign is saved; say so while the user types. */
function UnknownTagsWarning({ block }: { block: EmailBlock }) {
  const text =
    block.type === 'text' || block.type === 'button'
      ? block.content.text
      : block.type === 'image'
        ? block.content.alt
        : '';
  const unknown = unknownMergeTags(text);
  if (unknown.length === 0) return null;
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
      Unknown merge tag {unknown.map((tag) => `{{${tag}}}`).join(', ')}. Use {'{{firstName}}'}, {'{{lastName}}'},{' '}
      {'{{email}}'} or {'{{company}}'}.
    </p>
  );
}
