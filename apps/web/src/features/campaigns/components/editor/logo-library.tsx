import * as React from 'react';
import { ImagePlus, Upload, X } from 'lucide-react';
import type { UploadedImage } from '@sendwell/contract/uploads';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toastError } from '@/lib/toast-error';
import { toast } from '@/lib/use-toast';
import { useDeleteLogo, useLogos, useUploadLogo } from '../../api/use-editor-data';
import { checkImageFile, toastUploadError } from '../../editor/image-files';

/** The Logo Library (spec §2/§3): the user's uploaded logos; a click inserts one as an image block. */
export function LogoLibrary({ onInsert }: { onInsert: (logo: UploadedImage) => void }) {
  const logos = useLogos(true);
  const upload = useUploadLogo();
  const remove = useDeleteLogo();
  const inputId = React.useId();

  const onFile = (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast({ title: 'Logo uploaded', description: 'Click it to add it to your email.' }),
      onError: toastUploadError,
    });
  };

  return (
    <section aria-labelledby="logo-library-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id="logo-library-heading" className="text-sm font-semibold">
          Logo Library
        </h3>
        <div>
          <input
            id={inputId}
            type="file"
            accept="image/*"
            aria-label="Upload logo"
            className="peer sr-only"
            disabled={upload.isPending}
            onChange={(event) => {
              onFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <Button
            variant="outline"
            size="sm"
            asChild
            className="peer-focus-visible:ring-ring/50 cursor-pointer peer-focus-visible:ring-[3px]"
          >
            <label htmlFor={inputId}>
              {upload.isPending ? <Spinner className="size-4" label="Uploading logo" /> : <Upload aria-hidden="true" />}
              Upload
            </label>
          </Button>
        </div>
      </div>
      {logos.isLoading ? (
        <div className="grid grid-cols-3 gap-2">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="aspect-square rounded-md" />
          ))}
        </div>
      ) : logos.isError ? (
        <p className="text-destructive text-xs" role="alert">
          Your logos could not be loaded.
        </p>
      ) : (logos.data ?? []).length === 0 ? (
        <p className="text-muted-foreground flex items-start gap-2 rounded-md border border-dashed p-3 text-xs">
          <ImagePlus className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Upload your logo once and reuse it in every campaign.
        </p>
      ) : (
        <ul className="grid grid-cols-3 gap-2" aria-label="Your logos">
          {(logos.data ?? []).map((logo, index) => (
            <li key={logo.id} className="group/logo relative">
              <button
                type="button"
                onClick={() => onInsert(logo)}
                className="hover:border-primary/50 focus-visible:ring-ring/50 flex aspect-square w-full items-center justify-center overflow-hidden rounded-md border bg-white p-1.5 outline-none focus-visible:ring-[3px]"
                aria-label={`Insert logo ${index + 1}`}
              >
                <img src={logo.url} alt="" className="max-h-full max-w-full object-contain" draggable={false} />
              </button>
              <button
                type="button"
                onClick={() =>
                  remove.mutate(logo.id, {
                    onError: (error) =>
                      toastError(error, 'Failed to delete the logo. Please try again.', { serverMessage: 'never' }),
                  })
                }
                className="bg-background text-muted-foreground hover:text-destructive focus-visible:ring-ring/50 absolute -top-1.5 -right-1.5 flex size-6 items-center justify-center rounded-full border shadow-sm outline-none focus-visible:ring-[3px] sm:opacity-0 sm:group-focus-within/logo:opacity-100 sm:group-hover/logo:opacity-100"
                aria-label={`Delete logo ${index + 1}`}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
