import { Upload } from 'lucide-react';
import { unknownMergeTagMessage, unknownMergeTags, type EmailBlock } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import type { BlockOf } from '../../editor/blocks';
import { blockFieldError } from '../../editor/campaign-form';

/** Content fields to change on a block (only fields of that block's type are applied). */
export type ContentPatch = Record<string, unknown>;

/** The image block: its address, an upload, the alt text and an optional link. */
export function ImageContent({
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
          // A new address is a new picture: the old alt text described the old one (first-hour
          // finding 6: it went out with the replacement), so it is cleared for the user to write anew.
          onChange={(e) =>
            onContent(
              e.target.value !== block.content.src && block.content.alt
                ? { src: e.target.value, alt: '' }
                : { src: e.target.value },
            )
          }
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
          placeholder="Describe the picture"
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

/** The button block: its text and where it links. */
export function ButtonContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'button'>;
  onContent: (patch: ContentPatch) => void;
}) {
  // Checked as the user types (it used to be flagged only on save).
  const urlError = blockFieldError(block, 'url');
  const urlErrorId = `${id}-button-url-error`;
  return (
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
          aria-invalid={urlError !== null}
          aria-describedby={urlError ? urlErrorId : undefined}
          onChange={(e) => onContent({ url: e.target.value })}
        />
        {urlError && (
          <p id={urlErrorId} className="text-destructive text-xs font-medium">
            {urlError}
          </p>
        )}
      </div>
    </>
  );
}

/** Unknown {{tags}} are refused when the campaign is saved; say so while the user types. */
export function UnknownTagsWarning({ block }: { block: EmailBlock }) {
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
      {unknownMergeTagMessage(unknown)}
    </p>
  );
}
