import { NOTIFICATIONS_SHOWN, type Notification, type NotificationList } from '@sendwell/contract/notifications';
import type { Db, DbOrTx } from '../../db/client.ts';
import * as repo from './notifications.repo.ts';

export type NewNotification = { title: string; body: string; link?: string | null };

function toNotification(row: repo.NotificationRow): Notification {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Tells a user something in the app's notifications (the top bar's bell). Pass a transaction to tie it to a change. */
export async function notifyUser(db: DbOrTx, userId: string, notification: NewNotification): Promise<void> {
  await repo.insertNotification(db, {
    userId,
    title: notification.title,
    body: notification.body,
    link: notification.link ?? null,
  });
}

/**
 * Tells the user something that may recur often (sends failing batch after batch): at most once per
 * `withinMs` under the same title, so the bell reports a problem without filling up with it.
 */
export async function notifyUserAtMostEvery(
  db: DbOrTx,
  userId: string,
  withinMs: number,
  notification: NewNotification,
  now: Date = new Date(),
): Promise<void> {
  if (await repo.hasNotificationSince(db, userId, notification.title, new Date(now.getTime() - withinMs))) return;
  await notifyUser(db, userId, notification);
}

/** The newest notifications and how many are unread. */
export async function notificationsOf(db: Db, userId: string): Promise<NotificationList> {
  const [rows, unreadCount] = await Promise.all([
    repo.latestNotifications(db, userId, NOTIFICATIONS_SHOWN),
    repo.countUnread(db, userId),
  ]);
  return { notifications: rows.map(toNotification), unreadCount };
}

export async function markAllNotificationsRead(db: Db, userId: string, now: Date = new Date()): Promise<void> {
  await repo.markAllRead(db, userId, now);
}
