import { lawfulBases, type LawfulBasis, type LeadSourceType } from '@sendwell/contract/leads';

import { FieldError } from '@/components/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { lawfulBasisLabels } from '../lead-display';

/** What Add Lead Source holds while it is filled in (every type's fields; only the chosen type's are sent). */
export interface Draft {
  type: LeadSourceType;
  name: string;
  consentText: string;
  doubleOptIn: boolean;
  provider: 'google' | 'yelp';
  apiKey: string;
  origin: string;
  lawfulBasis: LawfulBasis | '';
  file: File | null;
}

/** The fields of the chosen source type: consent text and opt-in, provider and key, or a list's origin, basis and file. */
export function SourceTypeFields({
  draft,
  set,
  errors,
}: {
  draft: Draft;
  set: <K extends keyof Draft>(key: K, value: Draft[K]) => void;
  errors: Record<string, string>;
}) {
  const described = (field: string) => (errors[field] ? `source-${field}-error` : undefined);
  return (
    <>
      {draft.type === 'form' && (
        <>
          <div className="space-y-1.5">
            <Label htmlFor="source-consent">Consent text</Label>
            <Textarea
              id="source-consent"
              value={draft.consentText}
              onChange={(event) => set('consentText', event.target.value)}
              maxLength={1000}
              aria-invalid={Boolean(errors.consentText)}
              aria-describedby={described('consentText') ?? 'source-consent-hint'}
            />
            <p id="source-consent-hint" className="text-muted-foreground text-xs">
              Shown beside the form's button and stored word for word with each lead.
            </p>
            <FieldError id="source-consentText-error" message={errors.consentText} />
          </div>
          <div className="flex items-center justify-between gap-3">
            <Label htmlFor="source-double-opt-in">Double opt-in (confirmation email)</Label>
            <Switch
              id="source-double-opt-in"
              checked={draft.doubleOptIn}
              onCheckedChange={(checked) => set('doubleOptIn', checked)}
            />
          </div>
        </>
      )}

      {draft.type === 'places' && (
        <div className="space-y-1.5">
          <Label htmlFor="source-provider">Provider</Label>
          <Select value={draft.provider} onValueChange={(value) => set('provider', value as Draft['provider'])}>
            <SelectTrigger id="source-provider" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="google">Google Places</SelectItem>
              <SelectItem value="yelp">Yelp</SelectItem>
            </SelectContent>
          </Select>
        </div>
      )}

      {(draft.type === 'places' || draft.type === 'enrichment') && (
        <div className="space-y-1.5">
          <Label htmlFor="source-api-key">{draft.type === 'enrichment' ? 'Hunter API key' : 'API key'}</Label>
          <Input
            id="source-api-key"
            type="password"
            autoComplete="off"
            value={draft.apiKey}
            onChange={(event) => set('apiKey', event.target.value)}
            maxLength={500}
            aria-invalid={Boolean(errors.apiKey)}
            aria-describedby={described('apiKey') ?? 'source-api-key-hint'}
          />
          <p id="source-api-key-hint" className="text-muted-foreground text-xs">
            Your own key, stored sealed; only its last four characters are shown again. Without one the source shows Not
            connected.{draft.type === 'enrichment' ? ' Credits left are shown before any search spends them.' : ''}
          </p>
          <FieldError id="source-apiKey-error" message={errors.apiKey} />
        </div>
      )}

      {draft.type === 'csv' && (
        <>
          <div className="space-y-1.5">
            <Label htmlFor="source-origin">Where the list comes from</Label>
            <Input
              id="source-origin"
              value={draft.origin}
              onChange={(event) => set('origin', event.target.value)}
              placeholder="e.g., Trade show sign-up sheet, May 2026"
              maxLength={500}
              aria-invalid={Boolean(errors.origin)}
              aria-describedby={described('origin')}
            />
            <FieldError id="source-origin-error" message={errors.origin} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="source-lawful-basis">Lawful basis</Label>
            <Select value={draft.lawfulBasis} onValueChange={(value) => set('lawfulBasis', value as LawfulBasis)}>
              <SelectTrigger
                id="source-lawful-basis"
                className="w-full"
                aria-invalid={Boolean(errors.lawfulBasis)}
                aria-describedby={described('lawfulBasis')}
              >
                <SelectValue placeholder="Choose a lawful basis" />
              </SelectTrigger>
              <SelectContent>
                {lawfulBases.map((basis) => (
                  <SelectItem key={basis} value={basis}>
                    {lawfulBasisLabels[basis]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FieldError id="source-lawfulBasis-error" message={errors.lawfulBasis} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="source-file">CSV file (optional)</Label>
            <Input
              id="source-file"
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => set('file', event.target.files?.[0] ?? null)}
              aria-describedby="source-file-hint"
            />
            <p id="source-file-hint" className="text-muted-foreground text-xs">
              Needs an email column; name, company, job title, phone, location and notes columns are read when present.
              The server checks every row and skips leads already known.
            </p>
          </div>
        </>
      )}
    </>
  );
}
