import { Link } from 'wouter';
import { CreditCard, LogOut, Menu, Moon, Sun, User } from 'lucide-react';
import type { CurrentUser } from '@sendwell/contract/auth';

import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Logo } from '@/components/logo';
import { logout } from '@/features/auth/api/use-auth-mutations';
import { NotificationsButton } from '@/features/notifications/components/notifications-button';
import { avatarFallbackLetter, displayName } from '@/lib/user-display';
import { useTheme } from '../theme-provider';

/** The signed-in top bar: menu button (phones), logo, notifications, theme toggle and avatar menu. */
export function TopBar({ user, onOpenMobileNav }: { user: CurrentUser; onOpenMobileNav: () => void }) {
  return (
    <header className="bg-background/95 supports-[backdrop-filter]:bg-background/80 sticky top-0 z-40 flex h-14 items-center gap-2 border-b px-3 backdrop-blur sm:px-4">
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open navigation menu"
        onClick={onOpenMobileNav}
      >
        <Menu />
      </Button>
      <Link href="/" className="focus-visible:ring-ring/50 rounded-md outline-none focus-visible:ring-[3px]">
        <Logo markClassName="size-7" />
      </Link>
      <div className="ml-auto flex items-center gap-1">
        <NotificationsButton />
        <ThemeToggle />
        <UserMenu user={user} />
      </div>
    </header>
  );
}

function ThemeToggle() {
  const { resolvedTheme, toggleTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle theme"
      title={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={toggleTheme}
    >
      {isDark ? <Sun /> : <Moon />}
    </Button>
  );
}

function UserMenu({ user }: { user: CurrentUser }) {
  const name = displayName(user);
  return (
    // Non-modal: a modal menu hides the page from assistive technology while it still holds focusable
    // elements, which axe reports; the menu still closes on Escape and outside clicks.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="rounded-full" aria-label="Open account menu">
          <Avatar className="size-8">
            {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
            <AvatarFallback className="bg-primary text-primary-foreground text-sm font-medium">
              {avatarFallbackLetter(user)}
            </AvatarFallback>
          </Avatar>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-1">
            <p className="truncate text-sm font-medium">{name}</p>
            <p className="text-muted-foreground truncate text-xs">{user.email}</p>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/profile">
            <User />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/billing">
            <CreditCard />
            Billing
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void logout()}>
          <LogOut />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
