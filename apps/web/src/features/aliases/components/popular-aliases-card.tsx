import { Sparkles } from 'lucide-react';
import type { EmailAlias } from '@sendwell/contract/aliases';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { missingPopularAliases } from '../alias-display';

/** The popular-aliases suggestion card: the usual addresses the domain lacks, one click fills the form. */
export function PopularAliasesCard({
  domain,
  aliases,
  onPick,
}: {
  domain: string;
  aliases: readonly EmailAlias[];
  onPick: (alias: string) => void;
}) {
  const missing = missingPopularAliases(aliases);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <Sparkles className="size-4" aria-hidden="true" />
            Popular aliases
          </h2>
        </CardTitle>
        <CardDescription>Addresses people expect on {domain}.</CardDescription>
      </CardHeader>
      <CardContent>
        {missing.length === 0 ? (
          <p className="text-muted-foreground text-sm">You have all the usual ones.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-1">
            {missing.map((suggestion) => (
              <li key={suggestion.alias} className="flex items-center gap-2 rounded-md border px-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-mono text-sm">
                    {suggestion.alias}@{domain}
                  </p>
                  <p className="text-muted-foreground text-xs">{suggestion.purpose}</p>
                </div>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  onClick={() => onPick(suggestion.alias)}
                  aria-label={`Use ${suggestion.alias}@${domain}`}
                >
                  Use
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
