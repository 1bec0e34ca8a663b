import * as React from 'react';
import { Table2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * A chart with its table behind it: the chart is drawn for the eye (hidden from assistive
 * technology), and "Show as table" puts the same figures below it as a table.
 */
export function ChartCard({
  title,
  description,
  chart,
  table,
}: {
  title: string;
  description: React.ReactNode;
  chart: React.ReactNode;
  table: React.ReactNode;
}) {
  const [showTable, setShowTable] = React.useState(false);
  const id = React.useId();
  return (
    <Card>
      <CardHeader>
        <h2 id={`${id}-title`} className="leading-none font-semibold">
          {title}
        </h2>
        <CardDescription>{description}</CardDescription>
        <CardAction>
          <Button
            variant="outline"
            size="sm"
            aria-expanded={showTable}
            aria-controls={`${id}-table`}
            onClick={() => setShowTable((shown) => !shown)}
          >
            <Table2 aria-hidden="true" />
            {showTable ? 'Hide table' : 'Show as table'}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        <React.Suspense fallback={<Skeleton className="h-64 w-full" />}>{chart}</React.Suspense>
        <div id={`${id}-table`} hidden={!showTable} className="rounded-md border">
          {showTable && table}
        </div>
      </CardContent>
    </Card>
  );
}
