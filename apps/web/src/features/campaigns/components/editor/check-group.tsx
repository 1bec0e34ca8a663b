import type * as React from 'react';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';

export interface CheckItem {
  id: number;
  name: string;
  count: number;
}

/** A titled list of checkboxes with member counts (recipient lists or segments): loading, failed with Retry, empty, or the items. */
export function CheckGroup({
  title,
  idPrefix,
  query,
  items,
  selected,
  onChange,
  countNoun,
  empty,
}: {
  title: string;
  idPrefix: string;
  query: { isLoading: boolean; isError: boolean; refetch: () => unknown };
  items: CheckItem[];
  selected: number[];
  onChange: (ids: number[]) => void;
  countNoun: string;
  empty: React.ReactNode;
}) {
  const headingId = `${idPrefix}-group-heading`;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold">
        {title}
      </h3>
      {query.isLoading ? (
        <div className="space-y-2">
          <Skeleton className="h-5 w-3/4" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : query.isError ? (
        <div className="flex items-center justify-between gap-2 text-xs">
          <p className="text-destructive" role="alert">
            Could not load your {title.toLowerCase()}.
          </p>
          <Button variant="outline" size="sm" className="h-7" onClick={() => query.refetch()}>
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-xs">{empty}</p>
      ) : (
        <ul className="space-y-1">
          {items.map((item) => {
            const id = `${idPrefix}-${item.id}`;
            const checked = selected.includes(item.id);
            return (
              <li key={item.id} className="hover:bg-muted/60 flex items-center gap-2.5 rounded-md px-1.5 py-1">
                <Checkbox
                  id={id}
                  checked={checked}
                  onCheckedChange={(value) =>
                    onChange(
                      value === true ? [...selected, item.id] : selected.filter((selectedId) => selectedId !== item.id),
                    )
                  }
                />
                <Label htmlFor={id} className="min-w-0 flex-1 cursor-pointer font-normal">
                  <span className="truncate">{item.name}</span>
                  <span className="text-muted-foreground ml-auto shrink-0 text-xs tabular-nums">
                    {formatNumber(item.count)} <span className="sr-only">{countNoun}</span>
                  </span>
                </Label>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
