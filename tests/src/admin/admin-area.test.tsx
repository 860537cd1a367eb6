import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import * as v from 'valibot';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AdminOrganizationDetailSchema,
  AdminQueuesSchema,
  AdminRetryResponseSchema,
  AdminRunPageSchema,
  AdminRunSchema,
  AdminStatsSchema,
  AdminUserPageSchema,
  AdminUserSchema,
  AuditPageSchema,
  type AdminRun,
  type AdminUser,
} from '@contract/admin.js';
import { AdminCreditResponseSchema } from '@contract/tokens.js';
import { adminSections } from '@/features/admin/nav';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from '../routes/router-harness';

/**
 * The operator's screens against answers checked by the contract schemas the server's routes declare:
 * what the admin sees and what each action sends.
 */
useTestServer();
const admin = { ...verifiedUser, role: 'admin' as const };
beforeEach(() => {
  resetSession();
  signIn(admin, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })));
});

const olga: AdminUser = v.parse(AdminUserSchema, {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'olga@example.ru',
  full_name: 'Ольга Смирнова',
  role: 'user',
  is_verified: true,
  blocked_at: null,
  last_login_at: '2026-11-20T08:30:00.000Z',
  created_at: '2026-10-01T10:00:00.000Z',
  balance: 40,
  organizations: [{ id: '22222222-2222-4222-8222-222222222222', name: 'Ромашка', role: 'owner' }],
});

describe('admin area navigation', () => {
  it('links every section from the bar, the current one marked', async () => {
    server.use(http.get('/api/v1/admin/audit-log', () => HttpResponse.json(v.parse(AuditPageSchema, { items: [], total: 0, page: 1, page_size: 20 }))));
    await renderAt('/admin/audit');
    const nav = await screen.findByRole('navigation', { name: 'Разделы админки' });
    expect(within(nav).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(adminSections.map((section) => section.to));
    expect(within(nav).getByRole('link', { name: 'Журнал действий' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('Записей нет.')).toBeInTheDocument();
  });
});

describe('users screen', () => {
  it('lists users with balance and last login, and credits one with a reason (one key per opened form)', async () => {
    const credits: unknown[] = [];
    let balance = 40;
    server.use(
      http.get('/api/v1/admin/users', ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        const items = search && !'olga@example.ru ольга смирнова'.includes(search.toLowerCase()) ? [] : [{ ...olga, balance }];
        return HttpResponse.json(v.parse(AdminUserPageSchema, { items, total: items.length, page: 1, page_size: 20 }));
      }),
      http.post('/api/v1/admin/tokens/credit', async ({ request }) => {
        const body = (await request.json()) as { amount: number };
        credits.push(body);
        balance += body.amount;
        return HttpResponse.json(
          v.parse(AdminCreditResponseSchema, {
            balance,
            entry: { id: 'e1', type: 'admin_credit', amount: body.amount, balance_after: balance, reason: 'Оплата по счёту 17', reference_id: null, created_at: '2026-11-24T10:00:00.000Z' },
          }),
        );
      }),
    );
    await renderAt('/admin/users');
    const table = await screen.findByRole('table', { name: 'Пользователи' });
    const row = within(table).getByText('olga@example.ru').closest('tr')!;
    expect(within(row).getByText('Ромашка (владелец)')).toBeInTheDocument();
    expect(within(row).getByText('40')).toBeInTheDocument();
    expect(within(row).getByText('активен')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Начислить токены: olga@example.ru' }));
    const form = screen.getByRole('form', { name: 'Начисление токенов: Ольга Смирнова' });
    await userEvent.click(within(form).getByRole('button', { name: 'Начислить' }));
    // Checked by the contract's own rules before anything is sent.
    expect(within(form).getByRole('alert')).toHaveTextContent('Сумма начисления должна быть целым положительным числом');
    await userEvent.type(within(form).getByLabelText('Сколько токенов'), '500');
    await userEvent.click(within(form).getByRole('button', { name: 'Начислить' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Укажите причину начисления');
    await userEvent.type(within(form).getByLabelText('Причина'), 'Оплата по счёту 17');
    await userEvent.click(within(form).getByRole('button', { name: 'Начислить' }));

    await waitFor(() => expect(credits).toHaveLength(1));
    expect(credits[0]).toMatchObject({ user_id: olga.id, amount: 500, reason: 'Оплата по счёту 17', idempotency_key: expect.any(String) });
    expect(await screen.findByText('Начислено 500 токенов пользователю olga@example.ru. Баланс: 540 токенов.')).toBeInTheDocument();
    // The list is read again: the new balance is in the row.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Пользователи' })).getByText('540')).toBeInTheDocument());
    expect(screen.queryByRole('form', { name: /Начисление токенов/ })).not.toBeInTheDocument();
  });

  it('blocks a user after a confirmation with a reason, then offers to unblock', async () => {
    let current = olga;
    const blocks: unknown[] = [];
    server.use(
      http.get('/api/v1/admin/users', () => HttpResponse.json(v.parse(AdminUserPageSchema, { items: [current], total: 1, page: 1, page_size: 20 }))),
      http.post('/api/v1/admin/users/:id/block', async ({ request, params }) => {
        blocks.push({ id: params.id, body: await request.json() });
        current = { ...olga, blocked_at: '2026-11-24T10:00:00.000Z' };
        return HttpResponse.json(v.parse(AdminUserSchema, current));
      }),
    );
    await renderAt('/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Заблокировать olga@example.ru' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Заблокировать olga@example.ru?' });
    await userEvent.type(within(dialog).getByLabelText('Причина (для журнала действий)'), 'Спам');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Заблокировать' }));
    await waitFor(() => expect(blocks).toEqual([{ id: olga.id, body: { reason: 'Спам' } }]));
    expect(await screen.findByRole('button', { name: 'Разблокировать olga@example.ru' })).toBeInTheDocument();
    expect(screen.getByText(/^заблокирован/)).toBeInTheDocument();
  });
});

describe('audit log', () => {
  it('names every action and the machine values of its details in Russian', async () => {
    const entry = (action: string, details: Record<string, unknown>) => ({
      id: `${action}-id`,
      action,
      actor: { id: admin.id, email: 'admin@example.ru', full_name: 'Админ' },
      target_user: { id: olga.id, email: olga.email, full_name: olga.full_name },
      organization: null,
      details,
      created_at: '2026-11-24T09:00:00.000Z',
    });
    const items = [
      entry('invoice.mark_paid', { invoice_id: 'x', invoice_number: 7, tokens: 2000, amount_rub: 3490, balance_after: 2040 }),
      entry('invoice.cancel', { invoice_number: 8, tokens: 500, amount_rub: 990 }),
      entry('organization.plan_changed', { from: 'free', to: 'business', name: 'Ромашка' }),
      entry('run.retried', { kind: 'ai-plan', run_id: 'y', resumed: true }),
      entry('tokens.admin_credit', { amount: 10, reason: 'Бонус', source: 'api' }),
    ];
    server.use(http.get('/api/v1/admin/audit-log', () => HttpResponse.json(v.parse(AuditPageSchema, { items, total: items.length, page: 1, page_size: 20 }))));
    await renderAt('/admin/audit');
    const table = await screen.findByRole('table', { name: 'Журнал действий' });
    const text = table.textContent ?? '';
    for (const machine of ['invoice.mark_paid', 'invoice.cancel', 'free', 'business', 'ai-plan', 'api', 'invoice_number', 'amount_rub']) expect(text).not.toContain(machine);
    for (const shown of ['Счёт отмечен оплаченным', 'Счёт отменён', 'было: Бесплатный; стало: Бизнес', 'вид: ИИ-план', 'откуда: админка', 'счёт №: 7']) expect(text).toContain(shown);
  });
});

describe('runs screen', () => {
  const failed: AdminRun = v.parse(AdminRunSchema, {
    kind: 'audit',
    id: '33333333-3333-4333-8333-333333333333',
    status: 'failed',
    stuck: false,
    error: 'Анализ прерван: поток превысил предел памяти',
    error_code: 'OUT_OF_MEMORY',
    cost: 20,
    created_at: '2026-11-24T09:00:00.000Z',
    finished_at: '2026-11-24T09:05:00.000Z',
    project: { id: '44444444-4444-4444-8444-444444444444', name: 'Окна Москва' },
    organization: { id: '22222222-2222-4222-8222-222222222222', name: 'Ромашка' },
    author: { id: olga.id, email: olga.email, full_name: olga.full_name },
    analysis_id: null,
  });
  const stuck: AdminRun = { ...failed, kind: 'page-check', id: '55555555-5555-4555-8555-555555555555', status: 'running', stuck: true, error: null, error_code: null, finished_at: null, cost: 7 };
  const queues = v.parse(AdminQueuesSchema, {
    available: true,
    queues: [
      { name: 'analysis.run', waiting: 3, active: 1, failed: 2, completed: 40, cancelled: 1, oldest_waiting_at: '2026-11-24T09:00:00.000Z' },
      { name: 'ai-plan.run', waiting: 0, active: 0, failed: 0, completed: 2, cancelled: 0, oldest_waiting_at: null },
    ],
  });

  it('shows failed runs with their reason and retries one; shows the queues', async () => {
    const retried: string[] = [];
    server.use(
      http.get('/api/v1/admin/runs', () => HttpResponse.json(v.parse(AdminRunPageSchema, { items: [failed], total: 1, page: 1, page_size: 20 }))),
      http.get('/api/v1/admin/queues', () => HttpResponse.json(queues)),
      http.post('/api/v1/admin/runs/:kind/:id/retry', ({ params }) => {
        retried.push(`${params.kind}/${params.id}`);
        return HttpResponse.json(v.parse(AdminRetryResponseSchema, { retried_from: failed.id, run: { ...failed, id: '66666666-6666-4666-8666-666666666666', status: 'queued', error: null, error_code: null } }));
      }),
    );
    await renderAt('/admin/runs');
    const table = await screen.findByRole('table', { name: 'Запуски' });
    expect(within(table).getByText('Превышен предел памяти потока анализа: Анализ прерван: поток превысил предел памяти')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Отменить/ })).not.toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'Повторить: Аудит Окна Москва' }));
    await waitFor(() => expect(retried).toEqual([`audit/${failed.id}`]));
    expect(await screen.findByText('Запущен заново, списано 20 токенов с баланса автора.')).toBeInTheDocument();

    const queueTable = await screen.findByRole('table', { name: 'Очереди задач' });
    const row = within(queueTable).getByText('Аудиты').closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(1, 6).map((cell) => cell.textContent)).toEqual(['3', '1', '2', '40', '1']);
    expect(within(queueTable).getByText('ИИ-планы')).toBeInTheDocument();
  });

  it('cancels a stuck run after a confirmation that names the refund', async () => {
    const cancelled: string[] = [];
    server.use(
      http.get('/api/v1/admin/runs', ({ request }) => {
        const state = new URL(request.url).searchParams.get('state');
        const items = state === 'stuck' ? [stuck] : [];
        return HttpResponse.json(v.parse(AdminRunPageSchema, { items, total: items.length, page: 1, page_size: 20 }));
      }),
      http.get('/api/v1/admin/queues', () => HttpResponse.json(queues)),
      http.post('/api/v1/admin/runs/:kind/:id/cancel', ({ params }) => {
        cancelled.push(`${params.kind}/${params.id}`);
        return HttpResponse.json(v.parse(AdminRunSchema, { ...stuck, status: 'cancelled', stuck: false }));
      }),
    );
    await renderAt('/admin/runs');
    expect(await screen.findByText('Неудавшихся запусков нет.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Зависшие/ }));
    const table = await screen.findByRole('table', { name: 'Запуски' });
    expect(within(table).getByText('Выполняется (завис)')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'Отменить: Проверка страниц Окна Москва' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Отменить запуск?' });
    expect(dialog).toHaveTextContent('7 токенов вернутся автору (olga@example.ru)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отменить запуск' }));
    await waitFor(() => expect(cancelled).toEqual([`page-check/${stuck.id}`]));
    expect(await screen.findByText('Запуск отменён, 7 токенов возвращено: olga@example.ru.')).toBeInTheDocument();
  });
});

describe('organization screen', () => {
  it('changes the plan and shows the members with their balances', async () => {
    const org = v.parse(AdminOrganizationDetailSchema, {
      id: '22222222-2222-4222-8222-222222222222',
      name: 'Ромашка',
      plan_type: 'free',
      members_count: 2,
      balance_total: 140,
      owner: { id: olga.id, email: olga.email, full_name: olga.full_name },
      created_at: '2026-10-01T10:00:00.000Z',
      members: [
        { id: olga.id, email: olga.email, full_name: olga.full_name, role: 'owner', balance: 40, blocked: false, joined_at: '2026-10-01T10:00:00.000Z' },
        { id: '77777777-7777-4777-8777-777777777777', email: 'mark@example.ru', full_name: 'Марк Иванов', role: 'member', balance: 100, blocked: false, joined_at: '2026-10-02T10:00:00.000Z' },
      ],
    });
    const plans: unknown[] = [];
    server.use(
      http.get('/api/v1/admin/organizations/:id', () => HttpResponse.json(org)),
      http.put('/api/v1/admin/organizations/:id/plan', async ({ request }) => {
        plans.push(await request.json());
        return HttpResponse.json({ ...org, plan_type: 'business' });
      }),
    );
    await renderAt(`/admin/organizations/${org.id}`);
    expect(await screen.findByRole('heading', { name: 'Ромашка' })).toBeInTheDocument();
    const members = screen.getByRole('table', { name: 'Участники организации' });
    expect(within(within(members).getByText('Марк Иванов (mark@example.ru)').closest('tr')!).getByText('100')).toBeInTheDocument();

    // Plans are named in Russian: in the details, in the choice and in the answer.
    expect(screen.getAllByText('Тариф').find((element) => element.tagName === 'DT')!.nextElementSibling).toHaveTextContent(/^Бесплатный$/);
    const plan = screen.getByRole('combobox', { name: 'Тариф организации' });
    expect(within(plan).getAllByRole('option').map((option) => option.textContent)).toEqual(['Бесплатный', 'Профессиональный', 'Бизнес', 'Корпоративный']);
    await userEvent.selectOptions(plan, 'Бизнес');
    await userEvent.click(screen.getByRole('button', { name: 'Сменить тариф' }));
    await waitFor(() => expect(plans).toEqual([{ plan_type: 'business' }]));
    expect(await screen.findByText('Тариф организации «Ромашка»: Бизнес')).toBeInTheDocument();
  });
});

describe('overview charts', () => {
  it('draws sign-ups and tokens per day with the figures as a table, and runs by kind and status', async () => {
    const days = ['2026-11-22', '2026-11-23', '2026-11-24'];
    const stats = v.parse(AdminStatsSchema, {
      days: 7,
      signups: days.map((date, i) => ({ date, count: [2, 0, 5][i]! })),
      tokens: days.map((date, i) => ({ date, credited: [100, 0, 600][i]!, spent: [13, 40, 0][i]! })),
      runs: [
        { kind: 'audit', status: 'completed', count: 12 },
        { kind: 'audit', status: 'failed', count: 1 },
        { kind: 'ai-plan', status: 'queued', count: 2 },
      ],
    });
    server.use(
      http.get('/api/v1/admin/stats', () => HttpResponse.json(stats)),
      http.get('/api/v1/admin/overview', () =>
        HttpResponse.json({
          counts: { organizations: 1, users: 7, projects: 0, analyses: 13, analyses_by_status: { queued: 0, running: 0, completed: 12, failed: 1, cancelled: 0 }, tokens_spent: 53 },
          recent_analyses: [],
          projects: { items: [], total: 0, page: 1, page_size: 20 },
        }),
      ),
    );
    await renderAt('/admin');
    expect(await screen.findByRole('img', { name: 'Регистрации по дням за 3 дн. Всего — Регистрации: 7.' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Токены по дням за 3 дн. Всего — Начислено: 700, Потрачено: 53.' })).toBeInTheDocument();
    const tokens = screen.getByRole('table', { name: 'Токены по дням' });
    expect(within(within(tokens).getByText('2026-11-24').closest('tr')!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['600', '0']);
    const runs = screen.getByRole('table', { name: 'Запуски за период по видам и статусам' });
    const audits = within(runs).getByRole('rowheader', { name: 'Аудит' }).closest('tr')!;
    expect(within(audits).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['0', '0', '12', '1', '0']);
  });
});
