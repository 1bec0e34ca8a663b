import * as React from 'react';
import { Link } from 'wouter';

import { Logo } from '@/components/logo';

/** Frame of the signed-out forms: logo home link on top, the card centred in the main area. */
export function AuthPageLayout({ children, wide = false }: { children: React.ReactNode; wide?: boolean }) {
  return (
    <div className="from-background to-muted/60 flex min-h-dvh flex-col bg-gradient-to-b">
      <header className="flex h-16 items-center px-4 sm:px-6">
        <Link href="/" className="focus-visible:ring-ring/50 rounded-md outline-none focus-visible:ring-[3px]">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-4 pb-12 sm:items-center sm:pt-0">
        <div className={wide ? 'w-full max-w-5xl' : 'w-full max-w-md'}>{children}</div>
      </main>
    </div>
  );
}
