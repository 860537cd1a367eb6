/**
 * The notification center's state (spec sections 2 and 4): local only, nothing is loaded from the
 * server. Jotai atoms in a store of their own, so any feature can call `addNotification` from
 * outside React and the header reads the same list.
 */
import { atom, createStore, useAtomValue } from 'jotai';
import { onIdentityChange } from '@/app/session';

export interface Notification {
  id: string;
  title: string;
  message: string;
  /** ISO time the notification was added. */
  created_at: string;
  read: boolean;
}

export const notificationStore = createStore();
export const notificationsAtom = atom<Notification[]>([]);
export const unreadCountAtom = atom((get) => get(notificationsAtom).filter((item) => !item.read).length);

let sequence = 0;

/** Adds an unread notification on top of the list and returns it. */
export function addNotification(input: { title: string; message: string }): Notification {
  sequence += 1;
  const notification: Notification = {
    id: `${Date.now().toString(36)}-${sequence}`,
    title: input.title,
    message: input.message,
    created_at: new Date().toISOString(),
    read: false,
  };
  notificationStore.set(notificationsAtom, (list) => [notification, ...list]);
  return notification;
}

/** Marks one notification read. Read is final: nothing here turns it back to unread. */
export function markNotificationRead(id: string): void {
  notificationStore.set(notificationsAtom, (list) =>
    list.map((item) => (item.id === id && !item.read ? { ...item, read: true } : item)),
  );
}

export function markAllNotificationsRead(): void {
  notificationStore.set(notificationsAtom, (list) => (list.some((item) => !item.read) ? list.map((item) => ({ ...item, read: true })) : list));
}

export function clearNotifications(): void {
  notificationStore.set(notificationsAtom, []);
}

export function useNotifications(): Notification[] {
  return useAtomValue(notificationsAtom, { store: notificationStore });
}

export function useUnreadNotificationCount(): number {
  return useAtomValue(unreadCountAtom, { store: notificationStore });
}

// One person's notifications are not shown to the next one on the same device.
onIdentityChange(clearNotifications);
