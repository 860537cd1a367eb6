import { screen, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { packagesQueryOptions, paymentsQueryOptions } from '@/lib/payments-api';
import { renderAt } from '../auth/render-app';
import { reloadedOffline } from '../lib/persisted-cache';
import { signInOwner } from '../lib/signed-in';
import { useTestServer } from '../lib/test-server';

useTestServer();

const API = '/api/v1/tokens';
const payment = {
  id: '99999999-9999-4999-8999-999999999999',
  method: 'invoice',
  status: 'pending',
  package_id: 'start',
  tokens: 500,
  amount_rub: 990,
  refunded_rub: 0,
  invoice_number: 7,
  confirmation_url: null,
  requisites: null,
  cancel_reason: null,
  created_at: '2026-11-20T10:00:00.000Z',
  paid_at: null,
};

beforeEach(() => {
  signInOwner(
    http.get(`${API}/packages`, () => HttpResponse.json({ packages: [{ id: 'start', tokens: 500, price_rub: 990 }, { id: 'one', tokens: 21, price_rub: 50 }], methods: { card: false, invoice: true } })),
    http.get(`${API}/payments`, () => HttpResponse.json({ items: [payment] })),
    http.get(`${API}/history`, () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 20 })),
  );
});
afterEach(() => onlineManager.setOnline(true));

describe('/tokens without network', () => {
  it('shows the packages and payments seen last time (kept on the device)', async () => {
    const before = createQueryClient();
    await Promise.all([before.fetchQuery(packagesQueryOptions()), before.fetchQuery(paymentsQueryOptions())]);
    await renderAt('/tokens', { queryClient: await reloadedOffline(before) });
    const packages = await screen.findByRole('list', { name: 'Пакеты токенов' });
    expect(within(packages).getByText('500 токенов')).toBeInTheDocument();
    // The one plural helper: «21 токен», not «21 токенов».
    expect(within(packages).getByText('21 токен')).toBeInTheDocument();
    expect(screen.getByTestId('payment-row')).toHaveTextContent('По счёту № 7');
    expect(screen.queryByText('Загрузка пакетов…')).not.toBeInTheDocument();
  });

  it('says what it has not kept waits for the network, instead of «Загрузка…» for ever', async () => {
    onlineManager.setOnline(false);
    await renderAt('/tokens', { queryClient: createQueryClient() });
    expect(await screen.findByText('Нет подключения к сети, а пакеты токенов на этом устройстве ещё не сохранены: они загрузятся, когда связь появится.')).toBeInTheDocument();
    expect(screen.getByText('Нет подключения к сети, а платежи и счета на этом устройстве ещё не сохранены: они загрузятся, когда связь появится.')).toBeInTheDocument();
    expect(screen.queryByText('Загрузка пакетов…')).not.toBeInTheDocument();
    expect(screen.queryByText('Загрузка платежей…')).not.toBeInTheDocument();
  });
});
