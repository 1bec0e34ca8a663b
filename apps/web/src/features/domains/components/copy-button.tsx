import { Check, Copy } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';

/** Copies `value` to the clipboard; `label` names what is copied for screen readers ("Copy SPF value"). */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const { copied, copy } = useCopyToClipboard();

  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      className={className ?? 'size-8 shrink-0'}
      aria-label={label}
      title={label}
      onClick={() => void copy(value)}
    >
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </Button>
  );
}
