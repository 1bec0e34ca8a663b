import * as React from 'react';
import { Link } from 'wouter';
import {
  Check,
  Code,
  Copy,
  Download,
  Eye,
  FileText,
  ListTree,
  Megaphone,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { OutboxMessage } from '@sendwell/contract/outbox';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { emlFileName, formatSentAtFull, viewerDocument } from '../outbox-view';
import { TestBadge } from './outbox-list';

function CopyTextButton({ text, label }: { text: string; label: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <Button type="button" variant="outline" size="sm" onClick={() => void copy(text)}>
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
      {label}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </Button>
  );
}

/** Offers the raw source as an .eml file, which any mail program opens. */
function DownloadEmlButton({ message }: { message: OutboxMessage }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([message.raw], { type: 'message/rfc822' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = emlFileName(message.subject, message.id);
    link.click();
    // The click has handed the blob to the download; the URL is not needed after this turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Button type="button" variant="outline" size="sm" onClick={download}>
      <Download aria-hidden="true" />
      Download .eml
    </Button>
  );
}

function SourceBlock({ label, text }: { label: string; text: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="bg-muted/40 focus-visible:ring-ring/50 max-h-[70vh] overflow-auto rounded-lg border p-4 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap outline-none focus-visible:ring-[3px]"
    >
      {text}
    </pre>
  );
}

function Missing({ children }: { children: React.ReactNode }) {
  return <p className="text-muted-foreground rounded-lg border border-dashed p-8 text-center text-sm">{children}</p>;
}

/** A message header line: a label and its value. */
function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[6rem_1fr] sm:gap-3">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="min-w-0 text-sm break-all">{children}</dd>
    </div>
  );
}

/** The campaign or sequence that sent the message, linked to its page. */
function SenderLink({ href, icon: Icon, children }: { href: string; icon: LucideIcon; children: React.ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1.5 font-medium underline-offset-4 hover:underline">
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      {children}
    </Link>
  );
}

/**
 * One stored message: who it went to and when, then tabs with the rendered HTML (in a sandboxed
 * iframe: no scripts, no same-origin, links do not open), the plain-text part, the headers and
 * the raw source.
 */
export function OutboxMessageView({ message }: { message: OutboxMessage }) {
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
            {message.subject || '(no subject)'}
          </h1>
          {message.isTest && <TestBadge />}
        </div>
        <Card className="py-4">
          <CardContent className="px-4">
            <dl className="space-y-2">
              <Field label="From">{message.from}</Field>
              <Field label="To">{message.to}</Field>
              <Field label="Sent">
                <time dateTime={message.createdAt}>{formatSentAtFull(message.createdAt)}</time>
              </Field>
              {message.campaignId !== null && message.campaignName !== null && (
                <Field label="Campaign">
                  <SenderLink href={`/campaigns/${message.campaignId}/report`} icon={Megaphone}>
                    {message.campaignName}
                  </SenderLink>
                </Field>
              )}
              {message.sequenceId !== null && message.sequenceName !== null && (
                <Field label="Sequence">
                  <SenderLink href="/email-sequences" icon={Workflow}>
                    {message.sequenceName}
                  </SenderLink>
                </Field>
              )}
              {message.sequenceName !== null && message.sequenceStep !== null && (
                <Field label="Step">{message.sequenceStep}</Field>
              )}
              <Field label="Message-ID">
                <span className="font-mono text-xs">{message.messageId}</span>
              </Field>
            </dl>
          </CardContent>
        </Card>
      </div>

      <Tabs defaultValue={message.html !== null ? 'html' : 'text'} className="gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <TabsList className="w-full sm:w-fit">
            <TabsTrigger value="html">
              <Eye className="hidden sm:block" aria-hidden="true" />
              HTML
            </TabsTrigger>
            <TabsTrigger value="text">
              <FileText className="hidden sm:block" aria-hidden="true" />
              Text
            </TabsTrigger>
            <TabsTrigger value="headers">
              <ListTree className="hidden sm:block" aria-hidden="true" />
              Headers
            </TabsTrigger>
            <TabsTrigger value="raw">
              <Code className="hidden sm:block" aria-hidden="true" />
              Source
            </TabsTrigger>
          </TabsList>
          <div className="flex flex-wrap gap-2">
            <CopyTextButton text={message.raw} label="Copy source" />
            <DownloadEmlButton message={message} />
          </div>
        </div>

        <TabsContent value="html" className="space-y-2">
          {message.html !== null ? (
            <>
              <div className="overflow-hidden rounded-lg border bg-white">
                <iframe
                  title={`Email: ${message.subject}`}
                  sandbox=""
                  srcDoc={viewerDocument(message.html)}
                  className="block h-[70vh] min-h-96 w-full border-0 bg-white"
                />
              </div>
              <p className="text-muted-foreground text-xs">
                Shown as sent, without its open pixel and with links pointing at their destinations, so viewing it
                records no open or click. Scripts and links are turned off here.
              </p>
            </>
          ) : (
            <Missing>This message has no HTML part.</Missing>
          )}
        </TabsContent>
        <TabsContent value="text">
          {message.text !== null && message.text.trim() !== '' ? (
            <SourceBlock label="Plain text part" text={message.text} />
          ) : (
            <Missing>This message has no plain-text part.</Missing>
          )}
        </TabsContent>
        <TabsContent value="headers">
          <SourceBlock label="Message headers" text={message.headers} />
        </TabsContent>
        <TabsContent value="raw">
          <SourceBlock label="Raw message source" text={message.raw} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
