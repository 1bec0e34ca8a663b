import { useState } from 'react';
import { Link } from 'wouter';
import { Bell, CheckCheck } from 'lucide-react';
import type { Notification } from '@sendwell/contract/notifications';

import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';
import { useMarkAllNotificationsRead, useNotifications } from '../api/use-notifications';

/** '5m ago' style times for the list. */
function shortTimeAgo(iso: string, now: number): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

function NotificationItem({
  notification,
  now,
  onNavigate,
}: {
  notification: Notification;
  now: number;
  onNavigate: () => void;
}) {
  const unread = notification.readAt === null;
  const body = (
    <>
      <span className="flex items-start gap-2">
        <span
          className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
          aria-hidden="true"
        />
        <span className="min-w-0 space-y-0.5">
          <span className={cn('block text-sm', unread && 'font-semibold')}>
            {notification.title}
            {unread && <span className="sr-only"> (unread)</span>}
          </span>
          <span className="text-muted-foreground block text-sm">{notification.body}</span>
          <span className="text-muted-foreground block text-xs">{shortTimeAgo(notification.createdAt, now)}</span>
        </span>
      </span>
    </>
  );
  return (
    <li>
      {notification.link ? (
        <Link
          href={notification.link}
          onClick={onNavigate}
          className="hover:bg-accent focus-visible:ring-ring/50 block rounded-md p-2 outline-none focus-visible:ring-[3px]"
        >
          {body}
        </Link>
      ) : (
        <div className="p-2">{body}</div>
      )}
    </li>
  );
}

/** The top bar's bell: an unread dot, the newest notifications, and mark-all-read. */
export function NotificationsButton() {
  const [open, setOpen] = useState(false);
  const notifications = useNotifications(true);
  const markAllRead = useMarkAllNotificationsRead();
  const unread = notifications.data?.unreadCount ?? 0;
  const items = notifications.data?.notifications ?? [];
  const now = Date.now();

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void notifications.refetch();
      }}
    >
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? `Notifications (${unread} unread)` : 'Notifications'}
        >
          <Bell />
          {unread > 0 && (
            <span
              className="bg-destructive ring-background absolute top-1.5 right-1.5 size-2 rounded-full ring-2"
              data-testid="notifications-unread-dot"
              aria-hidden="true"
            />
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-2" aria-label="Notifications">
        <div className="flex items-center justify-between px-2 py-1">
          <p className="text-sm font-semibold">Notifications</p>
          <Button
            variant="ghost"
            size="sm"
            disabled={unread === 0 || markAllRead.isPending}
            onClick={() => markAllRead.mutate()}
          >
            <CheckCheck aria-hidden="true" />
            Mark all read
          </Button>
        </div>
        {items.length === 0 ? (
          <div className="flex items-start gap-3 p-2">
            <div className="bg-muted flex size-9 shrink-0 items-center justify-center rounded-full">
              <Bell className="size-4" aria-hidden="true" />
            </div>
            <div className="space-y-1">
              <p className="text-sm font-medium">You're all caught up</p>
              <p className="text-muted-foreground text-sm">New notifications will appear here.</p>
            </div>
          </div>
        ) : (
          <ul className="max-h-96 space-y-1 overflow-y-auto">
            {items.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                now={now}
                onNavigate={() => setOpen(false)}
              />
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
