import type { Domain } from '@sendwell/contract/domains';

import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** Chooses which domain a tab shows; hidden when there is only one. */
export function DomainPicker({
  id,
  domains,
  value,
  onChange,
}: {
  id: string;
  domains: readonly Domain[];
  value: Domain;
  onChange: (id: number) => void;
}) {
  if (domains.length < 2) return null;
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="shrink-0">
        Domain
      </Label>
      <Select value={String(value.id)} onValueChange={(next) => onChange(Number(next))}>
        <SelectTrigger id={id} className="w-full sm:w-64">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {domains.map((domain) => (
            <SelectItem key={domain.id} value={String(domain.id)}>
              {domain.domain}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
