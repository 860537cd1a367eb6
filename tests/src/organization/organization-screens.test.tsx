import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster } from '@/components/layout/AppToaster';
import { sessionStateAtom, sessionStore } from '@/app/session';
import { OrganizationScreen } from '@/features/organization/OrganizationScreen';
import { OrganizationSettingsScreen } from '@/features/organization/OrganizationSettingsScreen';
import { renderWithRouter, server, signIn, testUser } from '../components/helpers';

const API = '*/api/v1/organizations';
const owner = { user_id: testUser.id, email: testUser.email, first_name: 'Анна', last_name: 'Петрова', full_name: 'Анна Петрова', role: 'owner', joined_at: '2025-01-05T10:00:00Z' };
const boris = { user_id: 'u-boris', email: 'boris@example.com', first_name: 'Борис', last_name: 'Орлов', full_name: 'Борис Орлов', role: 'member', joined_at: '2025-02-01T10:00:00Z' };
const vera = { user_id: 'u-vera', email: 'vera@example.com', first_name: 'Вера', last_name: 'Ким', full_name: 'Вера Ким', role: 'admin', joined_at: '2025-02-03T10:00:00Z' };

/** An HTTP error the server sends without any message: the screens must show the spec's fallback. */
const bare = (status: number) => new HttpResponse(null, { status });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
beforeEach(() => {
  signIn({}, { role: 'owner' });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(
    http.get(`${API}/current`, () => HttpResponse.json({ id: 'org-1', name: 'Ромашка', plan_type: 'pro', role: 'owner' })),
    http.get(`${API}/invitation-code`, () => HttpResponse.json({ invitation_code: 'JOIN-12345' })),
    http.get(`${API}/members`, () => HttpResponse.json({ members: [owner, boris, vera] })),
    http.get(`${API}/current/apply-settings`, () => HttpResponse.json({ apply_changes_role: 'owner' })),
    http.get(`${API}/current/branding`, () => HttpResponse.json(branding)),
  );
});

const branding = { report_name: null, organization_name: 'Ромашка', accent_color: null, logo: null, can_edit: true };

function renderOrganization() {
  return renderWithRouter(
    <>
      <AppToaster />
    </>,
    { path: '/organization', pages: { '/organization': OrganizationScreen, '/organization/settings': OrganizationSettingsScreen } },
  );
}

describe('/organization', () => {
  it('shows the name and the plan', async () => {
    renderOrganization();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ромашка' })).toBeInTheDocument();
    expect(screen.getByTestId('plan-type')).toHaveTextContent('Профессиональный');
  });

  it("shows the free plan («Бесплатный») when the organization has none", async () => {
    server.use(http.get(`${API}/current`, () => HttpResponse.json({ id: 'org-1', name: 'Ромашка', plan_type: '', role: 'owner' })));
    renderOrganization();
    await waitFor(() => expect(screen.getByTestId('plan-type')).toHaveTextContent(/^Бесплатный$/));
  });

  it('lists members with their roles, and no removal for the owner or oneself', async () => {
    renderOrganization();
    const list = await screen.findByRole('list', { name: 'Участники организации' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Анна Петрова');
    expect(rows[0]).toHaveTextContent('Владелец');
    expect(rows[1]).toHaveTextContent('Борис Орлов');
    expect(rows[1]).toHaveTextContent('boris@example.com');
    expect(rows[1]).toHaveTextContent('Участник');
    expect(rows[2]).toHaveTextContent('Администратор');
    expect(within(rows[0]).queryByRole('button', { name: /Удалить/ })).not.toBeInTheDocument();
    expect(within(rows[1]).getByRole('button', { name: 'Удалить Борис Орлов' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Участники (3)' })).toBeInTheDocument();
  });

  it('removes a member after confirmation and drops that user_id from the list locally', async () => {
    const deleted: string[] = [];
    let listLoads = 0;
    server.use(
      http.get(`${API}/members`, () => {
        listLoads += 1;
        return HttpResponse.json({ members: [owner, boris, vera] });
      }),
      http.delete(`${API}/members/:userId`, ({ params }) => {
        deleted.push(String(params.userId));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderOrganization();
    await user.click(await screen.findByRole('button', { name: 'Удалить Борис Орлов' }));

    const dialog = screen.getByRole('alertdialog', { name: 'Удалить участника?' });
    expect(dialog).toHaveTextContent('Борис Орлов (boris@example.com)');
    // Cancelling does nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Удалить Борис Орлов' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.queryByText('Борис Орлов')).not.toBeInTheDocument());
    expect(deleted).toEqual(['u-boris']);
    expect(screen.getByText('Вера Ким')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Участники (2)' })).toBeInTheDocument();
    expect(listLoads).toBe(1);
    expect(await screen.findByText('Участник удалён')).toBeInTheDocument();
  });

  it("shows the owner everyone's balance and moves tokens to a member with one key per dialog, refreshing the list", async () => {
    let borisBalance = 100;
    const transfers: { userId: string; body: any }[] = [];
    server.use(
      http.get(`${API}/members`, () => HttpResponse.json({ members: [{ ...owner, balance: 1704 }, { ...boris, balance: borisBalance }, { ...vera, balance: 0 }] })),
      http.post(`${API}/members/:userId/transfer`, async ({ params, request }) => {
        const body = (await request.json()) as any;
        transfers.push({ userId: String(params.userId), body });
        if (body.direction === 'from_member') return HttpResponse.json({ error: 'На балансе участника недостаточно токенов', code: 'INSUFFICIENT_TOKENS' }, { status: 402 });
        borisBalance += body.amount;
        return HttpResponse.json({ owner_balance: 1704 - body.amount, member_balance: borisBalance, applied: true });
      }),
      http.get('*/api/v1/tokens/*', () => HttpResponse.json({})),
    );
    const user = userEvent.setup();
    renderOrganization();
    const list = await screen.findByRole('list', { name: 'Участники организации' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/Баланс: 1\s704 токена(?!в)/);
    expect(within(rows[0]).queryByRole('button', { name: /Токены/ })).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Баланс: 100 токенов');

    await user.click(within(rows[1]).getByRole('button', { name: 'Токены: Борис Орлов' }));
    const dialog = screen.getByRole('dialog', { name: 'Токены: Борис Орлов' });
    await user.type(within(dialog).getByLabelText('Количество токенов'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Перевести' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Количество токенов: целое число от 1');
    await user.clear(within(dialog).getByLabelText('Количество токенов'));
    await user.type(within(dialog).getByLabelText('Количество токенов'), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Перевести' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(transfers).toEqual([{ userId: 'u-boris', body: { direction: 'to_member', amount: 300, idempotency_key: expect.any(String) } }]);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Участники организации' })).getAllByRole('listitem')[1]).toHaveTextContent('Баланс: 400 токенов'));

    // Taking back more than the member holds is stopped before the request.
    await user.click(screen.getByRole('button', { name: 'Токены: Борис Орлов' }));
    const again = screen.getByRole('dialog');
    await user.click(within(again).getByRole('radio', { name: 'Вернуть себе' }));
    await user.type(within(again).getByLabelText('Количество токенов'), '500');
    await user.click(within(again).getByRole('button', { name: 'Вернуть' }));
    expect(within(again).getByRole('alert')).toHaveTextContent('На балансе участника недостаточно токенов');
    expect(transfers).toHaveLength(1);
  });

  it('lets the owner take back only what the owner gave (issue 27), before any request', async () => {
    const transfers: unknown[] = [];
    server.use(
      http.get(`${API}/members`, () => HttpResponse.json({ members: [{ ...owner, balance: 1704, returnable: 0 }, { ...boris, balance: 700, returnable: 200 }, { ...vera, balance: 0, returnable: 0 }] })),
      http.post(`${API}/members/:userId/transfer`, async ({ request }) => {
        transfers.push(await request.json());
        return HttpResponse.json({ owner_balance: 1904, member_balance: 500, applied: true });
      }),
      http.get('*/api/v1/tokens/*', () => HttpResponse.json({})),
    );
    const user = userEvent.setup();
    renderOrganization();
    await user.click(await screen.findByRole('button', { name: 'Токены: Борис Орлов' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('На балансе участника: 700, из них можно вернуть: 200');
    await user.click(within(dialog).getByRole('radio', { name: 'Вернуть себе' }));
    await user.type(within(dialog).getByLabelText('Количество токенов'), '201');
    await user.click(within(dialog).getByRole('button', { name: 'Вернуть' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Вернуть можно не больше 200: только переданные вами токены, которые участник ещё не потратил');
    expect(transfers).toEqual([]);
  });

  it('copies the invitation code', async () => {
    const user = userEvent.setup();
    renderOrganization();
    expect(await screen.findByLabelText('Текущий код приглашения')).toHaveTextContent('JOIN-12345');
    await user.click(screen.getByRole('button', { name: 'Копировать' }));
    expect(await navigator.clipboard.readText()).toBe('JOIN-12345');
    expect(await screen.findByText('Код приглашения скопирован')).toBeInTheDocument();
  });

  it('regenerates the invitation code after confirmation', async () => {
    let regenerated = 0;
    server.use(
      http.post(`${API}/regenerate-invitation-code`, () => {
        regenerated += 1;
        return HttpResponse.json({ invitation_code: 'NEW-67890' });
      }),
    );
    const user = userEvent.setup();
    renderOrganization();
    await user.click(await screen.findByRole('button', { name: 'Обновить код' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Обновить код приглашения?' })).getByRole('button', { name: 'Обновить' }));
    await waitFor(() => expect(screen.getByLabelText('Текущий код приглашения')).toHaveTextContent('NEW-67890'));
    expect(regenerated).toBe(1);
  });

  describe('fallback messages when the server gives none', () => {
    it("'Ошибка загрузки организации'", async () => {
      server.use(http.get(`${API}/current`, () => bare(500)));
      renderOrganization();
      expect(await screen.findByText('Ошибка загрузки организации')).toBeInTheDocument();
    });

    it("'Ошибка загрузки участников'", async () => {
      server.use(http.get(`${API}/members`, () => bare(500)));
      renderOrganization();
      expect(await screen.findByText('Ошибка загрузки участников')).toBeInTheDocument();
    });

    it("'Ошибка загрузки кода приглашения'", async () => {
      server.use(http.get(`${API}/invitation-code`, () => bare(503)));
      renderOrganization();
      expect(await screen.findByText('Ошибка загрузки кода приглашения')).toBeInTheDocument();
    });

    it("'Ошибка удаления участника', and the member stays", async () => {
      server.use(http.delete(`${API}/members/:userId`, () => bare(500)));
      const user = userEvent.setup();
      renderOrganization();
      await user.click(await screen.findByRole('button', { name: 'Удалить Борис Орлов' }));
      await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
      expect(await screen.findByText('Ошибка удаления участника')).toBeInTheDocument();
      expect(screen.getByText('Борис Орлов')).toBeInTheDocument();
      expect(console.error).toHaveBeenCalled();
    });

    it("'Ошибка обновления кода приглашения'", async () => {
      server.use(http.post(`${API}/regenerate-invitation-code`, () => bare(500)));
      const user = userEvent.setup();
      renderOrganization();
      await user.click(await screen.findByRole('button', { name: 'Обновить код' }));
      await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Обновить' }));
      expect(await screen.findByText('Ошибка обновления кода приглашения')).toBeInTheDocument();
      expect(screen.getByLabelText('Текущий код приглашения')).toHaveTextContent('JOIN-12345');
    });

    it("the server's own message wins over the fallback", async () => {
      server.use(http.delete(`${API}/members/:userId`, () => HttpResponse.json({ error: 'Нельзя удалить владельца организации', code: 'FORBIDDEN' }, { status: 403 })));
      const user = userEvent.setup();
      renderOrganization();
      await user.click(await screen.findByRole('button', { name: 'Удалить Вера Ким' }));
      await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
      expect(await screen.findByText('Нельзя удалить владельца организации')).toBeInTheDocument();
    });
  });
});

describe('/organization/settings', () => {
  function renderSettings() {
    return renderWithRouter(<AppToaster />, {
      path: '/organization/settings',
      pages: { '/organization': OrganizationScreen, '/organization/settings': OrganizationSettingsScreen },
    });
  }

  it('sets who may apply changes to the ad accounts (owner only by default)', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.put(`${API}/current/apply-settings`, async ({ request }) => {
        const body = (await request.json()) as { apply_changes_role: string };
        bodies.push(body);
        return HttpResponse.json(body);
      }),
    );
    const user = userEvent.setup();
    renderSettings();
    const select = await screen.findByLabelText('Кто может применять изменения через API Директа и отменять их');
    expect(select).toHaveValue('owner');
    await user.selectOptions(select, 'Владелец и администраторы');
    expect(await screen.findByText('Настройка сохранена')).toBeInTheDocument();
    expect(bodies).toEqual([{ apply_changes_role: 'admin' }]);
    expect(select).toHaveValue('admin');
  });

  it('renames the organization, and the session shows the new name', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.put(`${API}/current`, async ({ request }) => {
        const body = (await request.json()) as { name: string };
        bodies.push(body);
        return HttpResponse.json({ id: 'org-1', name: body.name, plan_type: 'pro', role: 'owner' });
      }),
    );
    const user = userEvent.setup();
    renderSettings();
    const name = await screen.findByLabelText('Название организации');
    await waitFor(() => expect(name).toHaveValue('Ромашка'));
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();

    await user.clear(name);
    await user.type(name, '  Василёк ');
    await user.click(save);
    expect(await screen.findByText('Настройки организации сохранены')).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'Василёк' }]);
    expect(sessionStore.get(sessionStateAtom).organization?.name).toBe('Василёк');
    expect(sessionStore.get(sessionStateAtom).organization?.role).toBe('owner');
  });

  it('checks the name length before sending', async () => {
    const user = userEvent.setup();
    renderSettings();
    const name = await screen.findByLabelText('Название организации');
    await waitFor(() => expect(name).toHaveValue('Ромашка'));
    await user.clear(name);
    await user.type(name, 'Я');
    await user.tab();
    expect(await screen.findByText('Название организации должно содержать минимум 2 символа')).toBeInTheDocument();
  });

  it("shows 'Ошибка обновления организации' when the server gives no message", async () => {
    server.use(http.put(`${API}/current`, () => bare(500)));
    const user = userEvent.setup();
    renderSettings();
    const name = await screen.findByLabelText('Название организации');
    await waitFor(() => expect(name).toHaveValue('Ромашка'));
    await user.type(name, ' и партнёры');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Ошибка обновления организации');
    expect(sessionStore.get(sessionStateAtom).organization?.name).toBe('Ромашка');
  });

  it("shows 'Ошибка загрузки организации' when the organization cannot be loaded", async () => {
    server.use(http.get(`${API}/current`, () => bare(502)));
    renderSettings();
    expect(await screen.findByText('Ошибка загрузки организации')).toBeInTheDocument();
  });
});

describe('/organization: the branding of client reports', () => {
  it('refuses an SVG logo before sending it, and saves the name, colour and a PNG logo', async () => {
    const saved: unknown[] = [];
    server.use(
      http.put(`${API}/current/branding`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        saved.push(body);
        return HttpResponse.json({ ...branding, ...body });
      }),
    );
    const user = userEvent.setup({ applyAccept: false });
    renderOrganization();
    const form = await screen.findByRole('form', { name: 'Оформление отчётов' });
    const name = within(form).getByLabelText('Название в отчёте');
    expect(name).toHaveAttribute('placeholder', 'Ромашка');
    await user.type(name, 'Агентство «Север»');
    const logo = within(form).getByLabelText(/Логотип/);
    await user.upload(logo, new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Логотип — картинка PNG или JPEG');
    await user.upload(logo, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    expect(await within(form).findByRole('img', { name: 'Логотип в отчёте' })).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Сохранить оформление' }));
    await screen.findByText('Оформление отчётов сохранено');
    expect(saved).toEqual([{ report_name: 'Агентство «Север»', accent_color: '#1f5fbf', logo: 'data:image/png;base64,iVBORw==' }]);
  });
});
