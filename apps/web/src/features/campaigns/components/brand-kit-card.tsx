import * as React from 'react';
import { Palette, Upload, X } from 'lucide-react';
import { brandKitBodySchema, readableTextOn, type BrandKitBody } from '@sendwell/contract/brand-kit';
import { EMAIL_FONT_LABELS, EMAIL_FONT_STACKS, EMAIL_FONTS, type EmailFont } from '@sendwell/contract/campaigns';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { useSettingsSubmit } from '@/lib/use-settings-submit';
import { toast } from '@/lib/use-toast';
import { useBrandKit, useSaveBrandKit } from '../api/use-brand-kit';
import { useUploadImage } from '../api/use-editor-data';
import { checkImageFile, toastUploadError } from '../editor/image-files';

const COLOUR_FIELDS = [
  { key: 'headerBackground', label: 'Header background' },
  { key: 'primaryColor', label: 'Brand colour (buttons)' },
  { key: 'textColor', label: 'Text colour' },
] as const;

/** A colour: the browser's picker beside the hex value, both editing the same field. */
function ColourField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'}
          onChange={(event) => onChange(event.target.value)}
          className="border-input h-9 w-11 shrink-0 cursor-pointer rounded-md border bg-transparent p-1"
        />
        <Input id={id} value={value} onChange={(event) => onChange(event.target.value.trim())} maxLength={9} />
      </div>
    </div>
  );
}

/**
 * The brand kit (GET/PUT /api/brand-kit): the logo header, colours, font and footer address every
 * new campaign starts with, and a small sample of how they look together.
 */
export function BrandKitCard({ postalAddress }: { postalAddress: string }) {
  const stored = useBrandKit();
  const save = useSaveBrandKit();
  const upload = useUploadImage();
  const [draft, setDraft] = React.useState<BrandKitBody | null>(null);
  const fileInput = React.useRef<HTMLInputElement>(null);
  React.useEffect(() => {
    if (!stored.data) return;
    const { updatedAt, ...kit } = stored.data;
    // Before the first save the footer offers the postal address the standard footer already prints.
    setDraft(updatedAt === null && !kit.address ? { ...kit, address: postalAddress } : kit);
  }, [stored.data, postalAddress]);

  const patch = (change: Partial<BrandKitBody>) => setDraft((current) => current && { ...current, ...change });
  const chooseLogo = (file: File | undefined) => {
    if (!file) return;
    const refused = checkImageFile(file);
    if (refused) {
      toast({ ...refused, variant: 'destructive' });
      return;
    }
    upload.mutate(file, { onSuccess: (image) => patch({ logoUrl: image.url }), onError: toastUploadError });
  };
  const { problem, submit } = useSettingsSubmit({
    schema: brandKitBodySchema,
    save: (kit) => save.mutateAsync(kit),
    saved: { title: 'Brand kit saved', description: 'New campaigns start with it; existing ones keep their look.' },
    failed: 'Could not save the brand kit. Please try again.',
    invalid: 'Check the brand kit',
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3 className="flex items-center gap-2">
            <Palette className="size-4" aria-hidden="true" />
            Header, footer, colours and font
          </h3>
        </CardTitle>
        <CardDescription>
          Set your logo, colours, font and footer once: every new campaign starts with them. Campaigns you already made
          keep their own look.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!draft ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <form
            className="grid gap-6 lg:grid-cols-[1fr_260px]"
            onSubmit={(event) => void submit(event, draft)}
            aria-label="Brand kit"
            noValidate
          >
            <div className="min-w-0 space-y-4">
              <div className="space-y-1.5">
                <Label htmlFor="brand-logo">Logo address</Label>
                <div className="flex gap-2">
                  <Input
                    id="brand-logo"
                    placeholder="https://… or upload a file"
                    value={draft.logoUrl ?? ''}
                    onChange={(event) => patch({ logoUrl: event.target.value.trim() || null })}
                  />
                  <input
                    ref={fileInput}
                    type="file"
                    accept="image/*"
                    className="sr-only"
                    tabIndex={-1}
                    aria-hidden="true"
                    onChange={(event) => {
                      chooseLogo(event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => fileInput.current?.click()}
                    disabled={upload.isPending}
                  >
                    <Upload aria-hidden="true" />
                    {upload.isPending ? 'Uploading…' : 'Upload'}
                  </Button>
                  {draft.logoUrl && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label="Remove the logo"
                      onClick={() => patch({ logoUrl: null })}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  )}
                </div>
                <p className="text-muted-foreground text-sm">Without a logo, new campaigns start without a header.</p>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="brand-logo-alt">Logo description (alt text)</Label>
                <Input
                  id="brand-logo-alt"
                  value={draft.logoAlt}
                  maxLength={300}
                  onChange={(event) => patch({ logoAlt: event.target.value })}
                />
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                {COLOUR_FIELDS.map((field) => (
                  <ColourField
                    key={field.key}
                    id={`brand-${field.key}`}
                    label={field.label}
                    value={draft[field.key]}
                    onChange={(value) => patch({ [field.key]: value })}
                  />
                ))}
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="brand-font">Font</Label>
                <Select value={draft.fontFamily} onValueChange={(value) => patch({ fontFamily: value as EmailFont })}>
                  <SelectTrigger id="brand-font" className="w-full sm:w-80">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {EMAIL_FONTS.map((font) => (
                      <SelectItem key={font} value={font} style={{ fontFamily: EMAIL_FONT_STACKS[font] }}>
                        {EMAIL_FONT_LABELS[font]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="brand-address">Footer address</Label>
                <Textarea
                  id="brand-address"
                  rows={3}
                  maxLength={1000}
                  value={draft.address}
                  onChange={(event) => patch({ address: event.target.value })}
                />
                <p className="text-muted-foreground text-sm">
                  Shown at the foot of each new campaign. Leave it empty for no footer block.
                </p>
              </div>
              <div className="flex items-start justify-between gap-4">
                <Label htmlFor="brand-apply" className="flex-col items-start gap-1">
                  <span>Start new campaigns with the brand kit</span>
                  <span className="text-muted-foreground text-sm font-normal">
                    Templates you choose get the header, footer, colours and font too.
                  </span>
                </Label>
                <Switch
                  id="brand-apply"
                  checked={draft.applyToNew}
                  onCheckedChange={(applyToNew) => patch({ applyToNew })}
                />
              </div>
              {problem && (
                <p role="alert" className="text-destructive text-sm">
                  {problem}
                </p>
              )}
              <Button type="submit" size="sm" disabled={save.isPending}>
                Save brand kit
              </Button>
            </div>
            <BrandSample kit={draft} />
          </form>
        )}
      </CardContent>
    </Card>
  );
}

/** How the kit's header, words, button and footer look together (drawn from the form, not saved yet). */
function BrandSample({ kit }: { kit: BrandKitBody }) {
  const font = EMAIL_FONT_STACKS[kit.fontFamily];
  const colour = (value: string, fallback: string) => (/^#[0-9a-f]{3,8}$/i.test(value) ? value : fallback);
  const primary = colour(kit.primaryColor, '#2563eb');
  return (
    <figure className="space-y-2" aria-label="Brand kit sample">
      <div className="overflow-hidden rounded-md border bg-white text-left" style={{ fontFamily: font }}>
        {kit.logoUrl && (
          <div className="p-4 text-center" style={{ backgroundColor: colour(kit.headerBackground, '#ffffff') }}>
            <img src={kit.logoUrl} alt={kit.logoAlt} className="mx-auto max-h-12 max-w-[40%] object-contain" />
          </div>
        )}
        <div className="space-y-3 p-4" style={{ color: colour(kit.textColor, '#333333') }}>
          <p className="text-base font-bold">Your headline</p>
          <p className="text-sm">Words of your campaign in your font and colour.</p>
          <span
            className="inline-block rounded px-4 py-2 text-sm font-bold"
            style={{ backgroundColor: primary, color: readableTextOn(primary) }}
          >
            Your button
          </span>
        </div>
        {kit.address && (
          <p
            className="border-t px-4 py-3 text-center text-xs whitespace-pre-line"
            style={{ color: colour(kit.textColor, '#333333') }}
          >
            {kit.address}
          </p>
        )}
      </div>
      <figcaption className="text-muted-foreground text-xs">A sample: how new campaigns start.</figcaption>
    </figure>
  );
}
