import * as React from 'react';
import { Braces } from 'lucide-react';
import { MERGE_TAGS, type MergeTag } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { TEXT_TAG_LABELS, type BlockOf, type TextTag } from '../../editor/blocks';
import type { ContentPatch } from './block-content-fields';

const MERGE_TAG_LABELS: Record<MergeTag, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  company: 'Company',
};

/** The text block: its style (paragraph or heading) and its text, with a menu that inserts merge tags at the caret. */
export function TextContent({
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
