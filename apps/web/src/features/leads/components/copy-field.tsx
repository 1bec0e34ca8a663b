import { Check, Copy } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';

/** A read-only value with a copy button. */
export function CopyField({
  id,
  label,
  value,
  multiline = false,
  rows = 4,
}: {
  id: string;
  label: string;
  value: string;
  multiline?: boolean;
  /** A multiline field's height in lines. */
  rows?: number;
}) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {/* min-w-0: a long unbroken value (an address, a curl line) scrolls inside its field instead of widening the dialog. */}
      <div className="flex min-w-0 items-start gap-2">
        {multiline ? (
          <Textarea id={id} readOnly value={value} rows={rows} className="min-w-0 font-mono text-xs" />
        ) : (
          <Input id={id} readOnly value={value} className="min-w-0 font-mono text-xs" />
        )}
        <Button
          type="button"
          variant="outline"
          size="icon"
          onClick={() => void copy(value)}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}
