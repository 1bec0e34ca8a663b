import { Spinner } from '@/components/ui/spinner';

/** Centred spinner for whole-page waits (session loading, redirects). */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="text-muted-foreground size-8" label={label} />
    </div>
  );
}
