import { useQuery } from '@tanstack/react-query';
import { Check, Copy } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCopyToClipboard } from '@/lib/use-copy-to-clipboard';
import { publicUrl } from '@/lib/public-url';

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[] };
type Operation = {
  operationId: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

/** A placeholder value for a schema in a curl example: its type, never invented data. */
function sample(schema: JsonSchema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'object') {
    const example: Record<string, unknown> = {};
    for (const name of schema?.required ?? []) example[name] = sample(schema?.properties?.[name]);
    return example;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return '…';
}

/** The curl command for an operation, against this installation's own address. */
function curlExample(origin: string, method: string, path: string, operation: Operation): string {
  const lines = [
    `curl -X ${method.toUpperCase()} '${origin}${path}'`,
    `  -H "Authorization: Bearer $SENDWELL_API_KEY"`,
  ];
  const body = operation.requestBody?.content['application/json']?.schema;
  if (body) {
    lines.push(`  -H 'Content-Type: application/json'`);
    if (method === 'post') lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
    lines.push(`  -d '${JSON.stringify(sample(body))}'`);
  }
  return lines.join(' \\\n');
}

function CopyCommand({ command, label }: { command: string; label: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="size-8 shrink-0"
      aria-label={label}
      title={label}
      onClick={() => void copy(command)}
    >
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
    </Button>
  );
}

/**
 * The public API as GET /api/openapi.json describes it: each route a key may call, grouped by
 * resource, with what key it needs and a curl example using this installation's own address.
 */
export function ApiReference() {
  const document = useQuery<OpenApiDocument>({ queryKey: ['/api/openapi.json'] });
  if (document.isLoading) {
    return (
      <div aria-busy="true" aria-label="Loading the API reference" className="space-y-3">
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (document.isError || !document.data) {
    return (
      <p className="text-destructive text-sm" role="alert">
        Could not load the API reference. Please refresh the page.
      </p>
    );
  }
  // The address programs reach the API at: PUBLIC_URL, like every address the app shows (issue 34).
  const origin = publicUrl();
  const groups = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, operations] of Object.entries(document.data.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags?.[0] ?? 'api';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return (
    <div className="space-y-4">
      {[...groups.entries()].map(([tag, operations]) => (
        <Card key={tag}>
          <CardHeader>
            <CardTitle>
              <h2 className="font-mono text-base">/api/{tag}</h2>
            </CardTitle>
            <CardDescription>{operations.length === 1 ? '1 route' : `${operations.length} routes`}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {operations.map(({ method, path, operation }) => {
              const command = curlExample(origin, method, path, operation);
              return (
                <div key={operation.operationId} className="space-y-2" data-operation={`${method} ${path}`}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant={method === 'get' ? 'secondary' : 'default'} className="font-mono uppercase">
                      {method}
                    </Badge>
                    <code className="font-mono text-sm break-all">{path}</code>
                    {operation.description && (
                      <span className="text-muted-foreground text-xs">{operation.description}</span>
                    )}
                  </div>
                  <div className="bg-muted flex items-start gap-2 rounded-md p-3">
                    <pre className="min-w-0 flex-1 overflow-x-auto font-mono text-xs">{command}</pre>
                    <CopyCommand command={command} label={`Copy curl for ${method.toUpperCase()} ${path}`} />
                  </div>
                </div>
              );
            })}
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
