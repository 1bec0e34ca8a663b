import { X } from 'lucide-react';
import type { BlockCondition, EmailBlock } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { BLOCK_TYPE_LABELS, TEXT_TAG_LABELS } from '../../editor/blocks';
import { blockFieldError } from '../../editor/campaign-form';
import { ButtonContent, ImageContent, UnknownTagsWarning, type ContentPatch } from './block-content-fields';
import { BlockStyleFields, type StylePatch } from './block-styles';
import { ColumnsContent, HeadingContent, HtmlContent, SocialContent, VideoContent } from './more-block-fields';
import { AlignField } from './style-fields';
import { ConditionField } from './condition-field';
import { SaveBlockButton } from './saved-blocks';
import { TextContent } from './text-content-fields';

/** The Edit Component panel (spec §2) for the selected block: content, colours, alignment, size and spacing. */
export function BlockInspector({
  block,
  error,
  uploading,
  onContent,
  onStyles,
  onResetStyles,
  onUploadImage,
  onColumnCount,
  onCondition,
  segments,
  onClose,
}: {
  block: EmailBlock;
  error: string | undefined;
  uploading: boolean;
  onContent: (patch: ContentPatch) => void;
  onStyles: (patch: StylePatch) => void;
  onResetStyles: () => void;
  onUploadImage: (file: File) => void;
  onColumnCount: (count: 2 | 3) => void;
  /** Who sees the block; absent where blocks are always for everyone (sequence emails). */
  onCondition?: (condition: BlockCondition | undefined) => void;
  /** The account's segments, which a conditional block may be shown to. */
  segments?: { id: number; name: string }[];
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

      {/* A bad button link is already shown under its field, as it is typed. */}
      {error && !(block.type === 'button' && blockFieldError(block, 'url') === error) && (
        <p className="text-destructive text-xs font-medium" role="alert">
          {error}
        </p>
      )}
      <UnknownTagsWarning block={block} />

      {block.type === 'text' && <TextContent key={block.id} id={id} block={block} onContent={onContent} />}
      {block.type === 'image' && (
        <ImageContent id={id} block={block} uploading={uploading} onContent={onContent} onUploadImage={onUploadImage} />
      )}
      {block.type === 'button' && <ButtonContent id={id} block={block} onContent={onContent} />}
      {block.type === 'heading' && <HeadingContent id={id} block={block} onContent={onContent} />}
      {block.type === 'social' && <SocialContent id={id} block={block} onContent={onContent} />}
      {block.type === 'video' && <VideoContent id={id} block={block} onContent={onContent} />}
      {block.type === 'html' && <HtmlContent id={id} block={block} onContent={onContent} />}
      {block.type === 'columns' && <ColumnsContent block={block} onColumnCount={onColumnCount} />}

      {onCondition && (
        <ConditionField id={id} condition={block.condition} segments={segments ?? []} onChange={onCondition} />
      )}

      <BlockStyleFields id={id} block={block} onStyles={onStyles} />

      {(block.type === 'text' ||
        block.type === 'heading' ||
        block.type === 'image' ||
        block.type === 'button' ||
        block.type === 'social') && (
        <AlignField
          value={s.textAlign ?? (block.type === 'button' || block.type === 'social' ? 'center' : 'left')}
          onChange={(v) => onStyles({ textAlign: v })}
        />
      )}

      <div className="flex flex-wrap items-center justify-between gap-2">
        {Object.keys(s).length > 0 && (
          <Button variant="ghost" size="sm" className="text-muted-foreground -ml-2" onClick={onResetStyles}>
            Reset styles
          </Button>
        )}
        <SaveBlockButton block={block} />
      </div>
    </section>
  );
}
