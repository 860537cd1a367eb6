import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Header, LOGO_SRC } from '@/app/Header';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { BALANCE_REFRESH_MS } from '@/lib/tokens-api';
import { clearNotifications } from '@/app/notifications';
import { renderWithRouter, server, signIn, signOut } from './helpers';
import { noServerNotifications } from '../lib/test-server';

// The indicator reads new ledger entries when the balance changes (credit notifications); kept across
// resets, since that read may still be on its way when a test ends.
const emptyHistory = http.get('*/api/v1/tokens/history', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 }));
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.resetHandlers(emptyHistory, noServerNotifications);
});
afterEach(() => {
  server.resetHandlers(emptyHistory, noServerNotifications);
  vi.useRealTimers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
beforeEach(() => {
  clearNotifications();
  signOut();
  localStorage.clear();
});

function balanceAnswers(...balances: number[]) {
  let calls = 0;
  server.use(
    http.get('*/api/v1/tokens/balance', () => {
      const balance = balances[Math.min(calls, balances.length - 1)];
      calls += 1;
      return HttpResponse.json({ balance });
    }),
  );
  return { count: () => calls };
}

describe('Header: logo and navigation', () => {
  it('shows the logo image linking to /projects', async () => {
    signIn();
    balanceAnswers(10);
    renderWithRouter(<Header />, { path: '/tokens' });
    const logo = await screen.findByRole('img', { name: 'Reklama Lab' });
    expect(logo).toHaveAttribute('src', LOGO_SRC);
    expect(LOGO_SRC).toBe('/logo.png');
    expect(logo.closest('a')).toHaveAttribute('href', '/projects');
  });

  it('highlights the Projects link only on /projects', async () => {
    signIn();
    balanceAnswers(10);
    const { router } = renderWithRouter(<Header />, { path: '/projects' });
    const projects = await screen.findByRole('link', { name: 'Проекты' });
    expect(projects).toHaveClass('app-header__link--active');
    expect(projects).toHaveAttribute('aria-current', 'page');

    await act(() => router.navigate({ to: '/tokens' }));
    expect(screen.getByRole('link', { name: 'Проекты' })).not.toHaveClass('app-header__link--active');
  });

  it('offers a login link to guests and no balance, bell or menu', async () => {
    renderWithRouter(<Header />, { path: '/about' });
    expect(await screen.findByRole('link', { name: 'Войти' })).toHaveAttribute('href', '/auth');
    expect(screen.queryByText('Баланс:')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Уведомления/ })).not.toBeInTheDocument();
  });
});

describe('Header: balance indicator', () => {
  it("shows 'Баланс:' with '-' while loading, then the number, and links to /tokens", async () => {
    signIn();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/v1/tokens/balance', async () => {
        await gate;
        return HttpResponse.json({ balance: 1500 });
      }),
    );
    const user = userEvent.setup();
    renderWithRouter(<Header />);
    const value = await screen.findByTestId('balance-value');
    expect(screen.getByText('Баланс:')).toBeInTheDocument();
    expect(value).toHaveTextContent(/^-$/);
    const indicator = value.closest('a')!;
    expect(indicator).toHaveAttribute('aria-busy', 'true');
    expect(indicator.querySelector('svg')).not.toBeNull();

    release();
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent(/^1\s500$/));
    expect(indicator).toHaveAttribute('aria-busy', 'false');

    await user.click(indicator);
    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/tokens'));
  });

  it('refreshes every 60000 ms and stops when the indicator is removed', async () => {
    expect(BALANCE_REFRESH_MS).toBe(60_000);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const balance = balanceAnswers(100, 90, 80);
    const { unmount } = renderWithRouter(<Header />);
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent('100'));
    expect(balance.count()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(59_000));
    expect(balance.count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent('90'));
    expect(balance.count()).toBe(2);

    unmount();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(balance.count()).toBe(2);
  });

  it('shows 0 when the balance call answers 401', async () => {
    signIn();
    // No refresh token: the client's one refresh attempt fails and the call ends as 'Unauthorized'.
    localStorage.removeItem('refresh_token');
    const sentToAuth = vi.fn();
    setUnauthorizedHandler(sentToAuth);
    server.use(
      http.get('*/api/v1/tokens/balance', () => HttpResponse.json({ error: 'Unauthorized', code: 'UNAUTHORIZED' }, { status: 401 })),
    );
    renderWithRouter(<Header />);
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent(/^0$/));
    setUnauthorizedHandler(null);
  });

  it('on a failure clears the loading state and logs the error', async () => {
    signIn();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('*/api/v1/tokens/balance', () => HttpResponse.json({ error: 'Сервер недоступен', code: 'INTERNAL' }, { status: 500 })));
    renderWithRouter(<Header />);
    const value = await screen.findByTestId('balance-value');
    await waitFor(() => expect(value.closest('a')).toHaveAttribute('aria-busy', 'false'));
    expect(value).toHaveTextContent('-');
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Ошибка загрузки баланса', expect.objectContaining({ message: 'Сервер недоступен' })));
  });
});

describe('Header: credit notifications', () => {
  it('tells about tokens that arrived (a transfer, a paid invoice) once, also across a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn({}, { role: 'member' });
    const now = Date.now();
    const entries = [
      { id: 'e2', type: 'transfer_in', amount: 300, balance_after: 400, reason: 'От владельца Ольга Смирнова', reference_id: null, created_at: new Date(now + 30_000).toISOString() },
      { id: 'e1', type: 'purchase', amount: 2000, balance_after: 100, reason: 'Оплата счёта № 7: пакет «team»', reference_id: null, created_at: new Date(now - 3_600_000).toISOString() },
    ];
    let visible = entries.slice(1);
    server.use(
      http.get('*/api/v1/tokens/history', ({ request }) => {
        const from = new URL(request.url).searchParams.get('from') ?? '';
        const items = visible.filter((entry) => entry.created_at >= from);
        return HttpResponse.json({ items, total: items.length, page: 1, page_size: 20 });
      }),
    );
    const balance = balanceAnswers(100, 400);
    const view = renderWithRouter(<Header />);
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('1'));

    visible = entries;
    await act(() => vi.advanceTimersByTimeAsync(BALANCE_REFRESH_MS));
    await waitFor(() => expect(balance.count()).toBe(2));
    await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent('2'));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: /Уведомления/ }));
    expect(await screen.findByText(/\+300 токенов\. От владельца Ольга Смирнова\./)).toBeInTheDocument();
    expect(screen.getByText(/\+2\s000 токенов\. Оплата счёта № 7/)).toBeInTheDocument();

    // A reload (notifications live in memory) does not tell the same entries again.
    view.unmount();
    clearNotifications();
    renderWithRouter(<Header />);
    await waitFor(() => expect(screen.getByTestId('balance-value')).toHaveTextContent('400'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
  });
});

describe('Header: user menu', () => {
  async function openMenu() {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Меню пользователя/ }));
    return { user, menu: screen.getByRole('menu') };
  }

  it.each([
    [{ first_name: 'Анна', last_name: 'Петрова', email: 'anna@example.com' }, 'АП'],
    [{ first_name: '', last_name: '', email: 'zoe@example.com' }, 'Z'],
    [{ first_name: '', last_name: '', email: '' }, 'U'],
  ])('shows initials for %o as %s', async (fields, initials) => {
    signIn(fields);
    balanceAnswers(1);
    renderWithRouter(<Header />);
    expect(await screen.findByRole('button', { name: /Меню пользователя/ })).toHaveTextContent(initials);
  });

  it('shows the full name and email', async () => {
    signIn();
    balanceAnswers(1);
    renderWithRouter(<Header />);
    const { menu } = await openMenu();
    expect(within(menu).getByText('Анна Петрова')).toBeInTheDocument();
    expect(within(menu).getByText('anna@example.com')).toBeInTheDocument();
  });

  it("shows 'Организация' to the organization owner, leading to /organization", async () => {
    signIn({}, { role: 'owner' });
    balanceAnswers(1);
    renderWithRouter(<Header />);
    const { user, menu } = await openMenu();
    expect(within(menu).queryByRole('menuitem', { name: 'Админка' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Организация' }));
    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/organization'));
  });

  it("hides 'Организация' from organization admins and members", async () => {
    for (const role of ['admin', 'member'] as const) {
      signIn({}, { role });
      balanceAnswers(1);
      const view = renderWithRouter(<Header />);
      const { menu } = await openMenu();
      expect(within(menu).queryByRole('menuitem', { name: 'Организация' })).not.toBeInTheDocument();
      view.unmount();
    }
  });

  it("shows 'Админка' only when the user's role is admin, leading to /admin", async () => {
    signIn({ role: 'admin' }, { role: 'member' });
    balanceAnswers(1);
    renderWithRouter(<Header />);
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Админка' }));
    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/admin'));
  });

  it("'Выйти' logs out, clears the tokens and goes to /auth even when the server call fails", async () => {
    signIn();
    balanceAnswers(1);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logoutCalls: string[] = [];
    server.use(
      http.post('*/api/v1/auth/logout', ({ request }) => {
        logoutCalls.push(request.headers.get('authorization') ?? '');
        return HttpResponse.json({ error: 'Внутренняя ошибка сервера', code: 'INTERNAL' }, { status: 500 });
      }),
    );
    renderWithRouter(<Header />);
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Выйти' }));
    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent('/auth'));
    expect(logoutCalls).toEqual(['Bearer access-1']);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('closes on Escape', async () => {
    signIn();
    balanceAnswers(1);
    renderWithRouter(<Header />);
    const { user } = await openMenu();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
