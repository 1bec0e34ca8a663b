import { Plus, Trash2 } from 'lucide-react';
import { SOCIAL_NETWORKS, type SocialNetwork } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { SOCIAL_LABELS, socialIconUrl, TEXT_TAG_LABELS, type BlockOf } from '../../editor/blocks';
import type { ContentPatch } from './block-content-fields';

type HeadingTag = BlockOf<'heading'>['content']['tag'];

/** The heading block: its words and its level. */
export function HeadingContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'heading'>;
  onContent: (patch: ContentPatch) => void;
}) {
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-heading-text`} className="text-xs">
          Heading
        </Label>
        <Input
          id={`${id}-heading-text`}
          className="h-8"
          value={block.content.text}
          maxLength={300}
          onChange={(e) => onContent({ text: e.target.value })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-heading-level`} className="text-xs">
          Level
        </Label>
        <Select value={block.content.tag} onValueChange={(tag: HeadingTag) => onContent({ tag })}>
          <SelectTrigger id={`${id}-heading-level`} size="sm" className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(['h1', 'h2', 'h3'] as const).map((tag) => (
              <SelectItem key={tag} value={tag}>
                {TEXT_TAG_LABELS[tag]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </>
  );
}

/** The social links block: a network and an address per link (the icons ship with the app). */
export function SocialContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'social'>;
  onContent: (patch: ContentPatch) => void;
}) {
  const links = block.content.links;
  const unused = SOCIAL_NETWORKS.filter((network) => !links.some((link) => link.network === network));
  const setLinks = (next: typeof links) => onContent({ links: next });
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-xs font-medium">Social links</legend>
      {links.map((link, index) => (
        <div key={link.network} className="flex items-center gap-2">
          <img src={socialIconUrl(link.network)} alt="" width={20} height={20} className="shrink-0" />
          <Label htmlFor={`${id}-social-${link.network}`} className="sr-only">
            {SOCIAL_LABELS[link.network]} address
          </Label>
          <Input
            id={`${id}-social-${link.network}`}
            type="url"
            className="h-8"
            value={link.url}
            placeholder={`${SOCIAL_LABELS[link.network]} address`}
            onChange={(e) => setLinks(links.map((l, i) => (i === index ? { ...l, url: e.target.value } : l)))}
          />
          <Button
            variant="ghost"
            size="icon"
            className="size-8 shrink-0"
            disabled={links.length === 1}
            aria-label={`Remove ${SOCIAL_LABELS[link.network]}`}
            onClick={() => setLinks(links.filter((_, i) => i !== index))}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      {unused.length > 0 && (
        <Select
          value=""
          onValueChange={(network: SocialNetwork) =>
            setLinks([...links, { network, url: `https://${network === 'x' ? 'x' : network}.com/` }])
          }
        >
          <SelectTrigger size="sm" className="w-full" aria-label="Add a social network">
            <span className="flex items-center gap-1.5">
              <Plus className="size-4" aria-hidden="true" />
              Add a network
            </span>
          </SelectTrigger>
          <SelectContent>
            {unused.map((network) => (
              <SelectItem key={network} value={network}>
                {SOCIAL_LABELS[network]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    </fieldset>
  );
}

/** The video block: where the video is, its thumbnail and the thumbnail's alt text. */
export function VideoContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'video'>;
  onContent: (patch: ContentPatch) => void;
}) {
  return (
    <>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-video-url`} className="text-xs">
          Video link
        </Label>
        <Input
          id={`${id}-video-url`}
          type="url"
          className="h-8"
          value={block.content.url}
          placeholder="https://"
          onChange={(e) => onContent({ url: e.target.value })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-video-thumb`} className="text-xs">
          Thumbnail address
        </Label>
        <Input
          id={`${id}-video-thumb`}
          type="url"
          className="h-8"
          value={block.content.thumbnail}
          placeholder="https://"
          onChange={(e) => onContent({ thumbnail: e.target.value })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-video-alt`} className="text-xs">
          Alt text
        </Label>
        <Input
          id={`${id}-video-alt`}
          className="h-8"
          value={block.content.alt}
          maxLength={300}
          placeholder="Describe the video"
          onChange={(e) => onContent({ alt: e.target.value })}
        />
      </div>
    </>
  );
}

/** The HTML block: the sender's own HTML, placed as written (links tracked, merge tags filled). */
export function HtmlContent({
  id,
  block,
  onContent,
}: {
  id: string;
  block: BlockOf<'html'>;
  onContent: (patch: ContentPatch) => void;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-html`} className="text-xs">
        HTML
      </Label>
      <Textarea
        id={`${id}-html`}
        rows={8}
        spellCheck={false}
        className="font-mono text-xs"
        value={block.content.html}
        maxLength={100_000}
        aria-describedby={`${id}-html-hint`}
        onChange={(e) => onContent({ html: e.target.value })}
      />
      <p id={`${id}-html-hint`} className="text-muted-foreground text-xs">
        Placed as written, with links tracked and merge tags filled. Use inline styles: many inboxes drop &lt;style&gt;.
      </p>
    </div>
  );
}

/** The columns block: two or three columns (blocks are added to a column on the canvas). */
export function ColumnsContent({
  block,
  onColumnCount,
}: {
  block: BlockOf<'columns'>;
  onColumnCount: (count: 2 | 3) => void;
}) {
  return (
    <div className="space-y-1.5">
      <p className="text-xs font-medium" id={`${block.id}-columns-label`}>
        Columns
      </p>
      <ToggleGroup
        type="single"
        variant="outline"
        size="sm"
        value={String(block.content.columns.length)}
        onValueChange={(value) => value && onColumnCount(value === '3' ? 3 : 2)}
        aria-labelledby={`${block.id}-columns-label`}
      >
        <ToggleGroupItem value="2">2 columns</ToggleGroupItem>
        <ToggleGroupItem value="3">3 columns</ToggleGroupItem>
      </ToggleGroup>
      <p className="text-muted-foreground text-xs">
        Side by side on wide screens, one under another on phones. Add blocks with Add under each column.
      </p>
    </div>
  );
}
