import * as React from 'react';
import type { LucideIcon } from 'lucide-react';

import { Card, CardContent } from '@/components/ui/card';

/** A card with an icon, a short title and an explanation, for empty or not-yet-available screens. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  children: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <span className="bg-muted flex size-12 items-center justify-center rounded-full">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <h2 className="text-lg font-semibold">{title}</h2>
        <div className="text-muted-foreground max-w-md text-sm">{children}</div>
        {action && <div className="mt-2">{action}</div>}
      </CardContent>
    </Card>
  );
}
