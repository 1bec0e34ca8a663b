import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';

import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Logo } from '@/components/logo';
import { ConfirmEmailBanner } from '@/features/auth/components/confirm-email-banner';
import { SendingPausedBanner } from '@/features/billing/components/sending-paused-banner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { PublicUrlBanner } from './public-url-banner';
import { SidebarNav } from './sidebar-nav';
import { TopBar } from './top-bar';

/** Signed-in layout: top bar, side navigation (a sheet on phones) and the main area. It provides the tooltips (spec §9 timings). */
export function AppShell({ user, children }: { user: CurrentUser; children: React.ReactNode }) {
  const [mobileNavOpen, setMobileNavOpen] = React.useState(false);

  return (
    <TooltipProvider>
      <div className="bg-muted/30 flex min-h-dvh flex-col">
        <a
          href="#main-content"
          className="bg-background focus:ring-ring sr-only z-50 rounded-md px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2"
        >
          Skip to main content
        </a>
        <TopBar user={user} onOpenMobileNav={() => setMobileNavOpen(true)} />
        <div className="flex flex-1">
          <aside className="bg-sidebar text-sidebar-foreground border-sidebar-border hidden w-60 shrink-0 border-r md:block">
            <div className="sticky top-14 max-h-[calc(100dvh-3.5rem)] overflow-y-auto">
              <SidebarNav />
            </div>
          </aside>
          <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 outline-none">
            <div className="mx-auto w-full max-w-7xl p-4 sm:p-6 lg:p-8">
              {!user.emailConfirmedAt && (
                <div className="mb-6">
                  <ConfirmEmailBanner email={user.email} />
                </div>
              )}
              <div className="mb-6 empty:hidden">
                <PublicUrlBanner />
              </div>
              <div className="mb-6 empty:hidden">
                <SendingPausedBanner />
              </div>
              {children}
            </div>
          </main>
        </div>
        <Sheet open={mobileNavOpen} onOpenChange={setMobileNavOpen}>
          <SheetContent side="left" className="bg-sidebar text-sidebar-foreground w-72 gap-0 p-0">
            <SheetHeader className="border-sidebar-border border-b">
              <SheetTitle>
                <Logo markClassName="size-7" />
              </SheetTitle>
              <SheetDescription className="sr-only">Navigate between the sections of Sendwell.</SheetDescription>
            </SheetHeader>
            <SidebarNav onNavigate={() => setMobileNavOpen(false)} />
          </SheetContent>
        </Sheet>
      </div>
    </TooltipProvider>
  );
}
