import { Link } from 'wouter';

import { Logo } from '@/components/logo';

const PRODUCT_LINKS = [
  { label: 'Features', href: '#features' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Docs', href: '#docs' },
  { label: 'Start free trial', href: '/signup' },
];

const SUPPORT_LINKS = [
  { label: 'Getting started', href: '#docs-getting-started' },
  { label: 'Domain setup', href: '#docs-domain-setup' },
  { label: 'Importing contacts', href: '#docs-import-contacts' },
  { label: 'Log in', href: '/login' },
];

function FooterLink({ label, href }: { label: string; href: string }) {
  const className = 'text-muted-foreground hover:text-foreground text-sm transition-colors';
  return href.startsWith('/') ? (
    <Link href={href} className={className}>
      {label}
    </Link>
  ) : (
    <a href={href} className={className}>
      {label}
    </a>
  );
}

/** Footer with the Product and Support link lists. */
export function LandingFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="space-y-3 lg:col-span-2">
          <Logo />
          <p className="text-muted-foreground max-w-sm text-sm">
            Email marketing and outreach from your own domain, with the deliverability tooling built in.
          </p>
        </div>
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product" className="text-sm font-semibold">
            Product
          </h2>
          <ul className="mt-3 space-y-2">
            {PRODUCT_LINKS.map((link) => (
              <li key={link.label}>
                <FooterLink {...link} />
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="text-sm font-semibold">
            Support
          </h2>
          <ul className="mt-3 space-y-2">
            {SUPPORT_LINKS.map((link) => (
              <li key={link.label}>
                <FooterLink {...link} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t">
        <p className="text-muted-foreground mx-auto max-w-7xl px-4 py-6 text-sm sm:px-6 lg:px-8">
          © {new Date().getFullYear()} Sendwell. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
