import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, server } from '../components/helpers';
import { session } from '@/app/session';
import { unreadBadgeText } from '@/features/notifications/format';
import { formatRelativeTime as formatNotificationTime } from '@contract/format';
import { NotificationCenter } from '@/features/notifications/NotificationCenter';
import {
  addNotification,
  clearNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationStore,
  notificationsAtom,
} from '@/app/notifications';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => clearNotifications());
afterEach(() => {
  vi.useRealTimers();
  server.resetHandlers();
});
afterAll(() => server.close());

/** The bell inside a router and a query client, as in the header (it reads the server's notifications too). */
async function render(ui: React.ReactNode) {
  const rendered = renderWithRouter(ui, { pages: { '/projects/$id': () => <p>страница проекта</p> } });
  // The router renders its first match asynchronously.
  await screen.findByRole('button', { name: /Уведомления/ });
  return rendered;
}

describe('notification time text', () => {
  const now = new Date('2025-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it.each([
    [0, 'только что'],
    [59_999, 'только что'],
    [60_000, '1 мин назад'],
    [59 * 60_000 + 59_000, '59 мин назад'],
    [60 * 60_000, '1 ч назад'],
    [23 * 3_600_000 + 59 * 60_000, '23 ч назад'],
  ])('%i ms ago reads %s', (elapsed, text) => {
    expect(formatNotificationTime(ago(elapsed), now)).toBe(text);
  });

  it('a day or more ago shows the Russian-locale date', () => {
    const created = ago(24 * 3_600_000);
    expect(formatNotificationTime(created, now)).toBe(new Date(created).toLocaleDateString('ru-RU'));
    expect(formatNotificationTime('2025-01-05T12:00:00Z', now)).toBe('05.01.2025');
  });
});

describe('unread badge text', () => {
  it.each([
    [1, '1'],
    [9, '9'],
    [10, '9+'],
    [250, '9+'],
  ])('%i unread shows %s', (count, text) => {
    expect(unreadBadgeText(count)).toBe(text);
  });
});

describe('notification state', () => {
  it('adds unread notifications on top with id, title, message and time', () => {
    const first = addNotification({ title: 'Анализ готов', message: 'Проект «Лето»' });
    const second = addNotification({ title: 'Импорт завершён', message: '3 кампании' });
    const list = notificationStore.get(notificationsAtom);
    expect(list.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(list[1]).toMatchObject({ title: 'Анализ готов', message: 'Проект «Лето»', read: false });
    expect(Number.isNaN(Date.parse(list[1].created_at))).toBe(false);
  });

  it('forgets the notifications when the identity changes (logout, another user)', () => {
    localStorage.setItem('access_token', 'access-1');
    addNotification({ title: 'Личное', message: 'только для Анны' });
    session.clearLocal();
    expect(notificationStore.get(notificationsAtom)).toEqual([]);
  });

  it('never turns a read notification back to unread', () => {
    const item = addNotification({ title: 'A', message: 'a' });
    markNotificationRead(item.id);
    markNotificationRead(item.id);
    markAllNotificationsRead();
    expect(notificationStore.get(notificationsAtom)[0].read).toBe(true);
  });
});

describe('<NotificationCenter />', () => {
  it("shows 'Уведомления' and 'Нет новых уведомлений' when there are none, and no badge", async () => {
    const user = userEvent.setup();
    await render(<NotificationCenter />);
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Уведомления' }));
    const panel = screen.getByRole('region', { name: 'Уведомления' });
    expect(within(panel).getByRole('heading', { name: 'Уведомления' })).toBeInTheDocument();
    expect(within(panel).getByText('Нет новых уведомлений')).toBeInTheDocument();
  });

  it('shows the unread count on the bell, and 9+ above 9', async () => {
    await render(<NotificationCenter />);
    act(() => {
      for (let index = 0; index < 9; index += 1) addNotification({ title: `N${index}`, message: 'm' });
    });
    expect(screen.getByTestId('notification-badge')).toHaveTextContent(/^9$/);
    act(() => {
      addNotification({ title: 'N9', message: 'm' });
    });
    expect(screen.getByTestId('notification-badge')).toHaveTextContent(/^9\+$/);
  });

  it('marks an item read on click, and all read with the button', async () => {
    const user = userEvent.setup();
    act(() => {
      addNotification({ title: 'Первое', message: 'текст 1' });
      addNotification({ title: 'Второе', message: 'текст 2' });
      addNotification({ title: 'Третье', message: 'текст 3' });
    });
    await render(<NotificationCenter />);
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: /Уведомления/ }));

    await user.click(screen.getByRole('button', { name: /Второе/ }));
    expect(screen.getByRole('button', { name: /Второе/ })).toHaveAttribute('data-read', 'true');
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('2');

    await user.click(screen.getByRole('button', { name: 'Отметить все как прочитанные' }));
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
    for (const name of [/Первое/, /Второе/, /Третье/]) expect(screen.getByRole('button', { name })).toHaveAttribute('data-read', 'true');
    // Nothing left to mark.
    expect(screen.queryByRole('button', { name: 'Отметить все как прочитанные' })).not.toBeInTheDocument();
  });

  it('shows relative times that move on while the list is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2025-03-10T12:00:00Z'));
    act(() => {
      addNotification({ title: 'Свежее', message: 'сейчас' });
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await render(<NotificationCenter />);
    await user.click(screen.getByRole('button', { name: /Уведомления/ }));
    expect(screen.getByText('только что')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2 * 60_000));
    expect(screen.getByText('2 мин назад')).toBeInTheDocument();
  });
});

describe('<NotificationCenter /> with the server\'s notifications', () => {
  const alert = {
    id: '33333333-3333-4333-8333-333333333333',
    kind: 'new_leak',
    project_id: 'p1',
    title: 'Новая утечка в «Окна»: Фразы без конверсий',
    message: 'Окна › Пластиковые › окна оптом: в прошлом аудите этого не было. Это ≈ 5 200 ₽ в месяц.',
    money_per_month: 5200,
    link: '/projects/p1',
    created_at: new Date().toISOString(),
    read: false,
  };

  it('shows an alert among the local notifications, counts it unread, marks it read on the server and opens its link', async () => {
    const reads: string[] = [];
    server.use(
      http.get('*/api/v1/notifications', () => HttpResponse.json({ items: [alert], unread: 1 })),
      http.post('*/api/v1/notifications/:id/read', ({ params }) => {
        reads.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    act(() => {
      addNotification({ title: 'Анализ готов', message: 'Проект «Лето»' });
    });
    const user = userEvent.setup();
    await render(<NotificationCenter />);
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('2'));
    await user.click(screen.getByRole('button', { name: /Уведомления/ }));
    const item = screen.getByRole('button', { name: /Новая утечка в «Окна»/ });
    expect(item).toHaveTextContent('Это ≈ 5 200 ₽ в месяц.');
    await user.click(item);
    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/projects/p1'));
    expect(reads).toEqual([alert.id]);
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('1');
  });
});
