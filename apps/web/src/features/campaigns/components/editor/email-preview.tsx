import * as React from 'react';
import { AlertCircle, FileText, Monitor, Moon, Send, Smartphone } from 'lucide-react';
import type { EmailBlock } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useEmailPreview, usePreviewContacts } from '../../api/use-editor-data';
import { previewableBlocks } from '../../editor/campaign-form';
import { EmailFrame, PREVIEW_WIDTHS, type PreviewMode } from '../email-frame';

export type { PreviewMode };

/** Wait this long after the last change before asking the server to render again. */
const PREVIEW_DEBOUNCE_MS = 300;

/** How the preview is looked at: at a width (the editor's mode), in a dark-mode client, or as its text part. */
type Look = PreviewMode | 'dark' | 'text';
const EVERYONE = 'everyone';

/**
 * Dark mode the way the clients that force it (Gmail's and Outlook's apps) show a light email: its
 * colours inverted with hues kept, pictures left as they are. Added to the previewed copy only.
 */
const DARK_CLIENT_STYLE =
  '<style>html{filter:invert(1) hue-rotate(180deg);background:#fff}img{filter:invert(1) hue-rotate(180deg)}</style>';
function darkClientHtml(html: string): string {
  const head = html.search(/<\/head>/i);
  return head >= 0 ? `${html.slice(0, head)}${DARK_CLIENT_STYLE}${html.slice(head)}` : `${DARK_CLIENT_STYLE}${html}`;
}

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
  const [look, setLook] = React.useState<Look>(mode);
  const [contactId, setContactId] = React.useState<number | null>(null);
  const contacts = usePreviewContacts(true);
  const payload = React.useMemo(
    () => ({ blocks: html === null ? previewableBlocks(blocks) : [], subject, html }),
    [blocks, subject, html],
  );
  const debounced = useDebouncedValue(payload, PREVIEW_DEBOUNCE_MS);
  const preview = useEmailPreview(debounced.blocks, debounced.subject, true, debounced.html, contactId);
  const shownLook: Look = look === 'dark' || look === 'text' ? look : mode;
  const frameMode: PreviewMode = shownLook === 'mobile' ? 'mobile' : 'desktop';
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
            value={shownLook}
            onValueChange={(next) => {
              if (!next) return;
              setLook(next as Look);
              if (next === 'desktop' || next === 'mobile') onModeChange(next);
            }}
            aria-label="Preview width"
          >
            <ToggleGroupItem value="desktop" aria-label="Desktop preview">
              <Monitor aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="mobile" aria-label="Mobile preview">
              <Smartphone aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="dark" aria-label="Dark mode preview">
              <Moon aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="text" aria-label="Plain-text preview">
              <FileText aria-hidden="true" />
            </ToggleGroupItem>
          </ToggleGroup>
          <Button variant="outline" size="sm" onClick={onSendTest}>
            <Send aria-hidden="true" />
            Send Test
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor="preview-as" className="text-muted-foreground shrink-0 text-xs font-normal">
          Preview as
        </Label>
        <Select
          value={contactId === null ? EVERYONE : String(contactId)}
          onValueChange={(value) => setContactId(value === EVERYONE ? null : Number(value))}
        >
          <SelectTrigger id="preview-as" size="sm" className="min-w-0 flex-1 sm:max-w-72">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={EVERYONE}>Everyone (every block, your name)</SelectItem>
            {(contacts.data ?? []).map((contact) => (
              <SelectItem key={contact.id} value={String(contact.id)}>
                {`${contact.firstName ?? ''} ${contact.lastName ?? ''}`.trim() || contact.email} ({contact.email})
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="bg-muted/60 relative min-h-[420px] flex-1 overflow-hidden rounded-lg border">
        {preview.data && shownLook === 'text' ? (
          <pre
            aria-label="Plain-text part"
            tabIndex={0}
            className="bg-background text-foreground absolute inset-0 overflow-auto p-4 font-mono text-xs whitespace-pre-wrap"
          >
            {preview.data.text}
          </pre>
        ) : preview.data ? (
          <EmailFrame
            html={shownLook === 'dark' ? darkClientHtml(preview.data.html) : preview.data.html}
            width={PREVIEW_WIDTHS[frameMode]}
            title={`Email preview (${shownLook})`}
            mode={frameMode}
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
