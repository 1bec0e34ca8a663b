import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { toast } from '@/lib/use-toast';

/** How long the button shows its check mark after copying. */
const COPIED_MS = 1500;

/** Copies `value` to the clipboard; `label` names what is copied for screen readers ("Copy SPF value"). */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      toast({ title: 'Could not copy', description: 'Select the text and copy it by hand.', variant: 'destructive' });
    }
  };

  return (
    <Button type="button" variant="outline" size="icon" className={className ?? 'size-8 shrink-0'} aria-label={label} title={label} onClick={() => void copy()}>
      {copied ? <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </Button>
  );
}
