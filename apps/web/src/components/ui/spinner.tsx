import * as React from 'react';
import { Loader2Icon } from 'lucide-react';

import { cn } from '@/lib/utils';

/** An accessible loading indicator: role=status with a label for screen readers. */
function Spinner({ className, label = 'Loading', ...props }: React.ComponentProps<'svg'> & { label?: string }) {
  return (
    <span role="status" aria-live="polite" className="inline-flex items-center">
      <Loader2Icon aria-hidden="true" className={cn('size-4 animate-spin', className)} {...props} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export { Spinner };
