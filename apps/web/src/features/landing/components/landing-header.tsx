import * as React from 'react';
import { Link } from 'wouter';
import { Menu } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Logo } from '@/components/logo';

const ANCHORS = [
  { label: 'Features', href: '#features' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Docs', href: '#docs' },
];

/** Public top bar: anchors to the page's sections, Login and Get Started (a sheet on phones). */
export function LandingHeader() {
  const [open, setOpen] = React.useState(false);
  return (
    <header className="bg-background/90 supports-[backdrop-filter]:bg-background/70 sticky top-0 z-40 border-b backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link href="/" className="focus-visible:ring-ring/50 rounded-md outline-none focus-visible:ring-[3px]">
          <Logo />
        </Link>
        <nav aria-label="Main" className="ml-auto hidden items-center gap-1 md:flex">
          {ANCHORS.map((anchor) => (
            <Button key={anchor.href} asChild variant="ghost">
              <a href={anchor.href}>{anchor.label}</a>
            </Button>
          ))}
          <Button asChild variant="ghost">
            <Link href="/login">Login</Link>
          </Button>
          <Button asChild className="ml-2">
            <Link href="/signup">Get Started</Link>
          </Button>
        </nav>
        <div className="ml-auto flex items-center gap-2 md:hidden">
          <Button asChild size="sm">
            <Link href="/signup">Get Started</Link>
          </Button>
          <Button variant="ghost" size="icon" aria-label="Open menu" onClick={() => setOpen(true)}>
            <Menu />
          </Button>
        </div>
      </div>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent side="right" className="w-72">
          <SheetHeader>
            <SheetTitle>
              <Logo />
            </SheetTitle>
            <SheetDescription className="sr-only">Site navigation</SheetDescription>
          </SheetHeader>
          <nav aria-label="Mobile" className="flex flex-col gap-1 px-4">
            {ANCHORS.map((anchor) => (
              <Button key={anchor.href} asChild variant="ghost" className="justify-start">
                <a href={anchor.href} onClick={() => setOpen(false)}>
                  {anchor.label}
                </a>
              </Button>
            ))}
            <Button asChild variant="ghost" className="justify-start">
              <Link href="/login">Login</Link>
            </Button>
            <Button asChild className="mt-2">
              <Link href="/signup">Get Started</Link>
            </Button>
          </nav>
        </SheetContent>
      </Sheet>
    </header>
  );
}
