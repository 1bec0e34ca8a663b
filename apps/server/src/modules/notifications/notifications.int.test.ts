import { describe, expect, it } from 'vitest';
import type { NotificationList } from '@sendwell/contract/notifications';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import { notifyUser } from './notifications.service.ts';

describe('notifications API', () => {
  const t = useTestApp();

  it('lists the newest 20 with the unread count, marks all read, and keeps users apart', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const db = t().ctx.db;
    for (let i = 1; i <= 22; i += 1)
      await notifyUser(db, a.user.id, { title: `Note ${i}`, body: `Body ${i}`, link: '/domain-settings' });
    await notifyUser(db, b.user.id, { title: 'For B', body: 'Only B sees this' });

    const listA = (await a.client.get('/api/notifications')).json() as NotificationList;
    expect(listA.unreadCount).toBe(22);
    expect(listA.notifications).toHaveLength(20);
    expect(listA.notifications[0]).toMatchObject({
      title: 'Note 22',
      body: 'Body 22',
      link: '/domain-settings',
      readAt: null,
    });
    expect(listA.notifications.at(-1)?.title).toBe('Note 3');

    expect((await b.client.post('/api/notifications/read-all')).statusCode).toBe(204);
    expect(((await a.client.get('/api/notifications')).json() as NotificationList).unreadCount).toBe(22);
    const listB = (await b.client.get('/api/notifications')).json() as NotificationList;
    expect(listB).toMatchObject({ unreadCount: 0, notifications: [{ title: 'For B', link: null }] });
    expect(listB.notifications[0]?.readAt).not.toBeNull();

    expect((await a.client.post('/api/notifications/read-all')).statusCode).toBe(204);
    expect(((await a.client.get('/api/notifications')).json() as NotificationList).unreadCount).toBe(0);

    const anonymous = t().client();
    expect((await anonymous.get('/api/notifications')).statusCode).toBe(401);
    expect((await anonymous.post('/api/notifications/read-all')).statusCode).toBe(401);
  });
});
