import * as React from 'react';
import { AlertCircle, Monitor, Send, Smartphone } from 'lucide-react';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useEmailPreview } from '../../api/use-editor-data';
import { previewableBlocks } from '../../editor/campaign-form';
import { EmailFrame, PREVIEW_WIDTHS, type PreviewMode } from '../email-frame';

export type { PreviewMode };

/** Wait this long after the last change before asking the server to render again. */
const PREVIEW_DEBOUNCE_MS = 300;

/**
 * The Email Preview (spec §2): the server's real rendering of the current blocks, in a sandboxed
 * iframe (no scripts, no same-origin), at a desktop or a mobile width, with the Send Test button.
 */
export function EmailPreview({
  blocks,
  html = null,
  subject,
  mode,
  onModeChange,
  onSendTest,
}: {
  blocks: EmailBlock[];
  /** A campaign written in its own HTML: that HTML (then `blocks` is not used); null for blocks. */
  html?: string | null;
  subject: string;
  mode: PreviewMode;
  onModeChange: (mode: PreviewMode) => void;
  onSendTest: () => void;
}) {
  const payload = React.useMemo(
    () => ({ blocks: html === null ? previewableBlocks(blocks) : [], subject, html }),
    [blocks, subject, html],
  );
  const debounced = useDebouncedValue(payload, PREVIEW_DEBOUNCE_MS);
  const preview = useEmailPreview(debounced.blocks, debounced.subject, true, debounced.html);
  const skipped = html === null ? blocks.length - payload.blocks.length : 0;

  return (
    <section aria-labelledby="email-preview-heading" className="flex h-full min-h-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="email-preview-heading" className="text-sm font-semibold">
          Email Preview
        </h3>
        <div className="flex items-center gap-2">
          <ToggleGroup
            type="single"
            variant="outline"
            size="sm"
            value={mode}
            onValueChange={(next) => next && onModeChange(next as PreviewMode)}
            aria-label="Preview width"
          >
            <ToggleGroupItem value="desktop" aria-label="Desktop preview">
              <Monitor aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="mobile" aria-label="Mobile preview">
              <Smartphone aria-hidden="true" />
            </ToggleGroupItem>
          </ToggleGroup>
          <Button variant="outline" size="sm" onClick={onSendTest}>
            <Send aria-hidden="true" />
            Send Test
          </Button>
        </div>
      </div>
      <div className="bg-muted/60 relative min-h-[420px] flex-1 overflow-hidden rounded-lg border">
        {preview.data ? (
          <EmailFrame
            html={preview.data.html}
            width={PREVIEW_WIDTHS[mode]}
            title={`Email preview (${mode})`}
            mode={mode}
          />
        ) : preview.isError ? null : (
          <div className="space-y-3 p-6">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        )}
        {preview.isFetching && preview.data && (
          <span className="bg-background/90 text-muted-foreground absolute top-2 right-2 rounded px-2 py-0.5 text-xs shadow-sm">
            Updating…
          </span>
        )}
      </div>
      {preview.isError && (
        <p className="text-destructive flex items-start gap-1.5 text-xs" role="alert">
          <AlertCircle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {html === null
            ? 'The preview could not be rendered. Check the highlighted blocks and try again.'
            : 'The preview could not be rendered. Check the HTML and try again.'}
        </p>
      )}
      {skipped > 0 && (
        <p className="text-muted-foreground text-xs">
          {skipped === 1 ? '1 block has' : `${skipped} blocks have`} a problem and {skipped === 1 ? 'is' : 'are'} left
          out of the preview.
        </p>
      )}
    </section>
  );
}
