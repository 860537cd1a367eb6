import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { NotificationList } from '@contract/monitoring.js';
import { useDropdown } from '@/components/ui/useDropdown';
import { formatRelativeTime } from '@contract/format';
import { unreadBadgeText } from './format';
import { markAllNotificationsRead, markNotificationRead, useNotifications, useUnreadNotificationCount } from '@/app/notifications';
import { markAllServerNotificationsRead, markServerNotificationRead, monitoringKeys, notificationsQueryOptions } from '@/lib/monitoring-api';

export const NOTIFICATIONS_TITLE = 'Уведомления';
export const NO_NOTIFICATIONS_TEXT = 'Нет новых уведомлений';
export const MARK_ALL_READ_TEXT = 'Отметить все как прочитанные';
/** How often the relative times of an open list are brought up to date. */
const TIME_TICK_MS = 30_000;

/** Re-renders every 30 s while the list is open, so 'только что' turns into '1 мин назад'. */
function useNow(active: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!active) return;
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), TIME_TICK_MS);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

interface BellItem {
  id: string;
  title: string;
  message: string;
  created_at: string;
  read: boolean;
  /** Server notifications (alerts, scheduled runs) open the finding, the run or the project. */
  link?: string;
}

/**
 * The bell's two sources in one list, newest first: what this tab noticed itself (jotai atoms, local) and
 * what the server keeps for the person (alerts and scheduled runs, unread until read, on every device).
 */
function useBellItems() {
  const queryClient = useQueryClient();
  const local = useNotifications();
  const localUnread = useUnreadNotificationCount();
  const server = useQuery(notificationsQueryOptions());
  const setServer = (update: (list: NotificationList) => NotificationList) =>
    queryClient.setQueryData<NotificationList>(monitoringKeys.notifications, (list) => (list ? update(list) : list));
  const readOne = useMutation({
    mutationFn: markServerNotificationRead,
    onMutate: (id: string) =>
      setServer((list) => ({ items: list.items.map((item) => (item.id === id ? { ...item, read: true } : item)), unread: Math.max(0, list.unread - (list.items.some((item) => item.id === id && !item.read) ? 1 : 0)) })),
  });
  const readAll = useMutation({
    mutationFn: markAllServerNotificationsRead,
    onMutate: () => setServer((list) => ({ items: list.items.map((item) => ({ ...item, read: true })), unread: 0 })),
  });
  const serverItems: BellItem[] = (server.data?.items ?? []).map((item) => ({ id: `server:${item.id}`, title: item.title, message: item.message, created_at: item.created_at, read: item.read, link: item.link }));
  const items: BellItem[] = [...serverItems, ...local].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return {
    items,
    unread: localUnread + (server.data?.unread ?? 0),
    read: (item: BellItem) => (item.id.startsWith('server:') ? !item.read && readOne.mutate(item.id.slice('server:'.length)) : markNotificationRead(item.id)),
    readAll: () => {
      markAllNotificationsRead();
      if ((server.data?.unread ?? 0) > 0) readAll.mutate();
    },
  };
}

/** The bell of the header: unread badge, and a dropdown where items are marked read. */
export function NotificationCenter() {
  const { items: notifications, unread, read, readAll } = useBellItems();
  const navigate = useNavigate();
  const { open, toggle, containerRef, toggleRef } = useDropdown();
  const now = useNow(open);

  const bellLabel = unread > 0 ? `${NOTIFICATIONS_TITLE}: непрочитанных ${unread}` : NOTIFICATIONS_TITLE;

  return (
    <div className="header-dropdown notification-center" ref={containerRef}>
      <button
        type="button"
        ref={toggleRef}
        className="icon-button notification-center__bell"
        aria-label={bellLabel}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={toggle}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2z"
          />
        </svg>
        {unread > 0 && (
          <span className="notification-center__badge" data-testid="notification-badge" aria-hidden="true">
            {unreadBadgeText(unread)}
          </span>
        )}
      </button>

      {open && (
        <section className="header-dropdown__panel notification-center__panel" aria-label={NOTIFICATIONS_TITLE}>
          <header className="notification-center__head">
            <h2 className="notification-center__title">{NOTIFICATIONS_TITLE}</h2>
            {unread > 0 && (
              <button type="button" className="link-button" onClick={readAll}>
                {MARK_ALL_READ_TEXT}
              </button>
            )}
          </header>
          {notifications.length === 0 ? (
            <p className="notification-center__empty">{NO_NOTIFICATIONS_TEXT}</p>
          ) : (
            <ul className="notification-center__list">
              {notifications.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className={`notification-item${item.read ? '' : ' notification-item--unread'}`}
                    data-read={item.read}
                    onClick={() => {
                      read(item);
                      if (item.link) {
                        toggle();
                        void navigate({ to: item.link });
                      }
                    }}
                  >
                    {!item.read && <span className="visually-hidden">Новое: </span>}
                    <span className="notification-item__title">{item.title}</span>
                    <span className="notification-item__message">{item.message}</span>
                    <time className="notification-item__time" dateTime={item.created_at}>
                      {formatRelativeTime(item.created_at, now)}
                    </time>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
