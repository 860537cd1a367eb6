import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminInvoice } from '@contract/payments.js';
import { AppToaster } from '@/components/layout/AppToaster';
import { AdminInvoicesScreen } from '@/features/admin/invoices/AdminInvoicesScreen';
import { renderWithRouter, server, signIn } from '../components/helpers';

const API = '*/api/v1/admin/invoices';

const invoice: AdminInvoice = {
  id: '0b6f8a4e-4a53-4c7a-9d0c-1d5c1f1b2a3c',
  method: 'invoice',
  status: 'pending',
  package_id: 'team',
  tokens: 2000,
  amount_rub: 3490,
  refunded_rub: 0,
  confirmation_url: null,
  invoice_number: 17,
  requisites: { name: 'ООО «Ромашка»', inn: '7701234560', kpp: '770101001', address: 'Москва' },
  cancel_reason: null,
  created_at: '2026-11-20T10:00:00Z',
  paid_at: null,
  user: { id: 'u-1', email: 'owner@example.com', full_name: 'Ольга Смирнова' },
  organization: { id: 'o-1', name: 'Ромашка' },
};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
beforeEach(() => signIn({ role: 'admin' }));

describe('/admin/invoices', () => {
  it('lists pending invoices and marks one paid after confirmation, once', async () => {
    let current = invoice;
    const statuses: (string | null)[] = [];
    const decisions: string[] = [];
    server.use(
      http.get(API, ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        statuses.push(status);
        return HttpResponse.json({ items: !status || current.status === status ? [current] : [] });
      }),
      http.post(`${API}/:id/mark-paid`, ({ params }) => {
        decisions.push(String(params.id));
        current = { ...current, status: 'paid', paid_at: new Date().toISOString() };
        return HttpResponse.json(current);
      }),
      http.get('*/api/v1/tokens/*', () => HttpResponse.json({})),
    );
    const user = userEvent.setup();
    renderWithRouter(<AppToaster />, { path: '/admin/invoices', pages: { '/admin/invoices': AdminInvoicesScreen } });
    const row = await screen.findByTestId('admin-invoice-row');
    expect(statuses[0]).toBe('pending');
    expect(row).toHaveTextContent('ООО «Ромашка»');
    expect(row).toHaveTextContent('owner@example.com');
    expect(row).toHaveTextContent(/3\s490\s₽/);

    await user.click(within(row).getByRole('button', { name: 'Оплачен' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Отметить счёт № 17 оплаченным?' });
    expect(dialog).toHaveTextContent(/owner@example\.com получит 2\s000 токенов/);
    await user.click(within(dialog).getByRole('button', { name: 'Оплачен' }));
    expect(await screen.findByText(/Счёт № 17 оплачен\. Зачислено пользователю owner@example\.com: 2\s000 токенов/)).toBeInTheDocument();
    expect(decisions).toEqual([invoice.id]);
    // The pending list no longer has it.
    await waitFor(() => expect(screen.queryByTestId('admin-invoice-row')).not.toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Статус'), 'paid');
    expect(await screen.findByTestId('admin-invoice-row')).toHaveTextContent('Оплачен');
    expect(within(screen.getByTestId('admin-invoice-row')).queryByRole('button', { name: 'Оплачен' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal", async () => {
    server.use(http.get(API, () => HttpResponse.json({ error: 'Недостаточно прав', code: 'FORBIDDEN' }, { status: 403 })));
    renderWithRouter(null, { path: '/admin/invoices', pages: { '/admin/invoices': AdminInvoicesScreen } });
    expect(await screen.findByText('Недостаточно прав')).toBeInTheDocument();
  });
});
