import * as React from 'react';
import { ArrowDown, ArrowUp, Pencil, Trash2 } from 'lucide-react';
import type { CampaignDetail, EmailBlock } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { apiJson } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useCampaigns } from '../../api/use-campaigns';
import { useUploadImage } from '../../api/use-editor-data';
import {
  BLOCK_TYPE_LABELS,
  createBlock,
  describeBlock,
  insertBlock,
  removeBlock,
  LEAF_BLOCK_TYPES,
  replaceImageSource,
  resetBlockStyles,
  setColumnCount,
  updateBlockContent,
  updateBlockStyles,
} from '../../editor/blocks';
import { blockFieldError } from '../../editor/campaign-form';
import { checkImageFile, toastUploadError } from '../../editor/image-files';
import { BlockInspector } from './block-inspector';

/** What a saved campaign gives an email made from it. */
export interface CopiedCampaign {
  subject: string;
  blocks: EmailBlock[];
}

/**
 * The campaign editor's blocks, editable outside the campaign editor (a sequence's email step):
 * add a block of each type, reorder, remove, edit the selected one in the same Edit Component
 * panel, or start from a saved campaign's content.
 */
export function EmailBlocksField({
  id,
  blocks,
  onChange,
  onCopyCampaign,
}: {
  id: string;
  blocks: readonly EmailBlock[];
  onChange: (blocks: EmailBlock[]) => void;
  onCopyCampaign: (copied: CopiedCampaign) => void;
}) {
  const [selectedId, setSelectedId] = React.useState<string | null>(null);
  const campaigns = useCampaigns(true);
  const uploadImage = useUploadImage();
  const [copying, setCopying] = React.useState(false);
  const selected = blocks.find((block) => block.id === selectedId) ?? null;

  const copyFrom = async (campaignId: string) => {
    setCopying(true);
    try {
      const campaign = await apiJson<CampaignDetail>('GET', `/api/campaigns/${campaignId}`);
      onCopyCampaign({ subject: campaign.subject, blocks: campaign.blocks });
      toast({ title: 'Content copied', description: `The email now starts from “${campaign.name}”.` });
    } catch (error) {
      toastError(error, 'Could not load that campaign');
    } finally {
      setCopying(false);
    }
  };

  const move = (index: number, by: -1 | 1) => {
    const next = [...blocks];
    const [block] = next.splice(index, 1);
    if (block) next.splice(index + by, 0, block);
    onChange(next);
  };

  return (
    <div className="space-y-2">
      {(campaigns.data?.length ?? 0) > 0 && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-copy`}>Start from a campaign</Label>
          <Select value="" onValueChange={(value) => void copyFrom(value)} disabled={copying}>
            <SelectTrigger id={`${id}-copy`} className="w-full">
              <SelectValue placeholder={copying ? 'Copying...' : 'Choose a saved campaign'} />
            </SelectTrigger>
            <SelectContent>
              {(campaigns.data ?? []).map((campaign) => (
                <SelectItem key={campaign.id} value={String(campaign.id)}>
                  {campaign.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      <p className="text-sm font-medium" id={`${id}-blocks-label`}>
        Blocks
      </p>
      {blocks.length === 0 ? (
        <p className="text-muted-foreground text-xs">No blocks yet: add one below, or write HTML instead.</p>
      ) : (
        <ol className="space-y-1" aria-labelledby={`${id}-blocks-label`}>
          {blocks.map((block, index) => {
            const name = describeBlock(block);
            return (
              <li
                key={block.id}
                className="flex items-center gap-1 rounded-md border px-2 py-1 text-xs"
                data-selected={block.id === selectedId || undefined}
              >
                <span className="min-w-0 flex-1 truncate">{name}</span>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={`Edit ${name}`}
                  aria-pressed={block.id === selectedId}
                  onClick={() => setSelectedId(block.id === selectedId ? null : block.id)}
                >
                  <Pencil aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={`Move ${name} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <ArrowUp aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-7"
                  aria-label={`Move ${name} down`}
                  disabled={index === blocks.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <ArrowDown aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="text-destructive hover:text-destructive size-7"
                  aria-label={`Remove ${name}`}
                  onClick={() => {
                    const next = removeBlock(blocks, block.id, selectedId);
                    onChange(next.blocks);
                    setSelectedId(next.selectedId);
                  }}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ol>
      )}
      <div className="flex flex-wrap gap-1" role="group" aria-label="Add a block">
        {LEAF_BLOCK_TYPES.map((type) => (
          <Button
            key={type}
            variant="outline"
            size="sm"
            className="h-7 px-2 text-xs"
            onClick={() => {
              const block = createBlock(type);
              onChange(insertBlock(blocks, block));
              setSelectedId(block.id);
            }}
          >
            + {BLOCK_TYPE_LABELS[type]}
          </Button>
        ))}
      </div>
      {selected && (
        <BlockInspector
          block={selected}
          error={blockFieldError(selected, 'url') ?? undefined}
          uploading={uploadImage.isPending}
          onContent={(patch) => onChange(updateBlockContent(blocks, selected.id, patch))}
          onStyles={(patch) => onChange(updateBlockStyles(blocks, selected.id, patch))}
          onResetStyles={() => onChange(resetBlockStyles(blocks, selected.id))}
          onColumnCount={(count) => onChange(setColumnCount(blocks, selected.id, count))}
          onUploadImage={(file) => {
            const problem = checkImageFile(file);
            if (problem) {
              toast({ ...problem, variant: 'destructive' });
              return;
            }
            uploadImage.mutate(file, {
              onSuccess: (uploaded) => onChange(replaceImageSource(blocks, selected.id, uploaded.url)),
              onError: toastUploadError,
            });
          }}
          onClose={() => setSelectedId(null)}
        />
      )}
    </div>
  );
}
