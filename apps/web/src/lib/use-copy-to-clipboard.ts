import { useEffect, useState } from 'react';

import { toast } from '@/lib/use-toast';

/** How long a copy button shows its check mark after copying. */
const COPIED_MS = 1500;

/** Copies text to the clipboard; `copied` is true for a moment afterwards, and a failure is toasted. */
export function useCopyToClipboard() {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast({ title: 'Could not copy', description: 'Select the text and copy it by hand.', variant: 'destructive' });
    }
  };
  return { copied, copy };
}
