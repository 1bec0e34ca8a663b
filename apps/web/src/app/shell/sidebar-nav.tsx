import { Link, useLocation } from 'wouter';

import { isNavItemActive } from '@/lib/nav';
import { cn } from '@/lib/utils';
import { NAV_ITEMS } from './nav-items';

/** The side navigation; `onNavigate` lets the phone sheet close after a choice. */
export function SidebarNav({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  const [location] = useLocation();

  return (
    <nav aria-label="Main" className={cn('flex flex-col gap-1 p-3', className)}>
      {NAV_ITEMS.map((item) => {
        const active = isNavItemActive(item.href, location);
        const Icon = item.icon;
        return (
          <Link
            key={item.href}
            href={item.href}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            data-active={active || undefined}
            className={cn(
              'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none',
              'focus-visible:ring-sidebar-ring focus-visible:ring-2',
              active
                ? 'bg-sidebar-primary text-sidebar-primary-foreground shadow-xs'
                : 'text-sidebar-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground',
            )}
          >
            <Icon className="size-4 shrink-0" aria-hidden="true" />
            <span>{item.label}</span>
          </Link>
        );
      })}
    </nav>
  );
}
