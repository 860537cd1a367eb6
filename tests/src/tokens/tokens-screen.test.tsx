import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry } from '@contract/tokens.js';
import { dailySpending } from '@/features/tokens/spending';
import { TokensScreen } from '@/features/tokens/TokensScreen';
import { renderWithRouter, server, signIn } from '../components/helpers';

const API = '*/api/v1/tokens';

function entry(index: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: `e-${index}`,
    type: 'analysis_debit',
    amount: -10,
    balance_after: 1000 - index * 10,
    reason: `Анализ №${index}`,
    reference_id: null,
    created_at: new Date(Date.UTC(2025, 2, 10, 9, 0) - index * 3_600_000).toISOString(),
    ...overrides,
  };
}

interface HistoryRequest {
  page: string | null;
  page_size: string | null;
  type: string | null;
  from: string | null;
}

/** History endpoint over `all` entries that records every query it receives. */
function historyServer(all: LedgerEntry[]) {
  const requests: HistoryRequest[] = [];
  server.use(
    http.get(`${API}/history`, ({ request }) => {
      const url = new URL(request.url);
      const query = { page: url.searchParams.get('page'), page_size: url.searchParams.get('page_size'), type: url.searchParams.get('type'), from: url.searchParams.get('from') };
      requests.push(query);
      const page = Number(query.page ?? 1);
      const size = Number(query.page_size ?? 20);
      let items = all.filter((item) => !query.type || item.type === query.type);
      if (query.from) items = items.filter((item) => item.created_at >= query.from!);
      return HttpResponse.json({ items: items.slice((page - 1) * size, page * size), total: items.length, page, page_size: size });
    }),
  );
  return requests;
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
afterAll(() => server.close());
const packages = [
  { id: 'start', name: 'Старт', tokens: 500, price_rub: 990 },
  { id: 'team', name: 'Команда', tokens: 2000, price_rub: 3490 },
];
const contact = 'support@reklama-lab.example';
beforeEach(() => {
  signIn();
  server.use(
    http.get(`${API}/balance`, () => HttpResponse.json({ balance: 2480 })),
    http.get(`${API}/packages`, () => HttpResponse.json({ packages, methods: { card: false, invoice: true }, contact })),
    http.get(`${API}/payments`, () => HttpResponse.json({ items: [] })),
    http.get(`${API}/requisites`, () => HttpResponse.json({ requisites: null, can_edit: true })),
  );
});

const renderTokens = () => renderWithRouter(null, { path: '/tokens', pages: { '/tokens': () => <TokensScreen /> } });

describe('/tokens', () => {
  it('shows the balance', async () => {
    historyServer([]);
    renderTokens();
    await waitFor(() => expect(screen.getByTestId('tokens-balance')).toHaveTextContent(/2\s480/));
  });

  it('shows the history with type, signed amount, balance after and reason', async () => {
    historyServer([
      entry(0, { type: 'analysis_debit', amount: -25, balance_after: 75, reason: 'Скоринг: Лето' }),
      entry(1, { type: 'welcome', amount: 100, balance_after: 100, reason: null }),
    ]);
    renderTokens();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Оплата анализа');
    expect(rows[0]).toHaveTextContent('−25');
    expect(rows[0]).toHaveTextContent('75');
    expect(rows[0]).toHaveTextContent('Скоринг: Лето');
    expect(rows[1]).toHaveTextContent('Приветственный бонус');
    expect(rows[1]).toHaveTextContent('+100');
  });

  it('pages through the history', async () => {
    const requests = historyServer(Array.from({ length: 45 }, (_, index) => entry(index)));
    const user = userEvent.setup();
    renderTokens();
    expect(await screen.findByText('Страница 1 из 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Назад' })).toBeDisabled();
    expect(screen.getByText('Анализ №0')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(await screen.findByText('Страница 2 из 3')).toBeInTheDocument();
    expect(await screen.findByText('Анализ №20')).toBeInTheDocument();
    expect(screen.queryByText('Анализ №0')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(await screen.findByText('Анализ №40')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Вперёд' })).toBeDisabled();

    const pageRequests = requests.filter((request) => request.from === null);
    expect(pageRequests.map((request) => [request.page, request.page_size])).toEqual([
      ['1', '20'],
      ['2', '20'],
      ['3', '20'],
    ]);
  });

  it('filters by operation type and starts again from page 1', async () => {
    const requests = historyServer([
      ...Array.from({ length: 30 }, (_, index) => entry(index)),
      entry(99, { type: 'admin_credit', amount: 500, reason: 'Пополнение по счёту' }),
    ]);
    const user = userEvent.setup();
    renderTokens();
    await user.click(await screen.findByRole('button', { name: 'Вперёд' }));
    await screen.findByText('Страница 2 из 2');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Тип операции' }), 'Начисление администратором');
    expect(await screen.findByText('Пополнение по счёту')).toBeInTheDocument();
    expect(screen.getByText('Страница 1 из 1')).toBeInTheDocument();
    expect(requests.at(-1)).toMatchObject({ page: '1', type: 'admin_credit' });
  });

  it('shows an empty history', async () => {
    historyServer([]);
    renderTokens();
    expect(await screen.findByText('Операций пока нет.')).toBeInTheDocument();
  });

  it('draws the debits per day of the last 30 days as SVG bars', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 10, 15, 0));
    const at = (day: number, hour: number) => new Date(2025, 2, day, hour, 0).toISOString();
    const requests = historyServer([
      entry(1, { amount: -30, created_at: at(10, 9) }),
      entry(2, { amount: -20, created_at: at(10, 8) }),
      entry(3, { type: 'analysis_refund', amount: 20, created_at: at(10, 7) }),
      entry(4, { amount: -15, created_at: at(8, 12) }),
      entry(5, { type: 'welcome', amount: 100, created_at: at(1, 12) }),
    ]);
    renderTokens();
    const chart = await screen.findByRole('img', { name: /Расход токенов по дням за 30 дн/ });
    expect(chart).toHaveAccessibleName(/всего 65$/);
    const bars = chart.querySelectorAll('rect');
    expect(bars).toHaveLength(30);
    expect(bars[29]).toHaveAttribute('data-day', '2025-03-10');
    expect(bars[29]).toHaveAttribute('data-spent', '50');
    expect(bars[27]).toHaveAttribute('data-spent', '15');
    expect(bars[28]).toHaveAttribute('data-spent', '0');
    expect(screen.getByTestId('spending-total')).toHaveTextContent('65');
    // The chart asks for the period, not page by page of the table.
    const chartRequest = requests.find((request) => request.from !== null)!;
    expect(new Date(chartRequest.from!).getTime()).toBe(new Date(2025, 1, 9, 0, 0).getTime());
    expect(chartRequest.page_size).toBe('100');
  });

  it('says so when nothing was spent', async () => {
    historyServer([entry(1, { type: 'welcome', amount: 100 })]);
    renderTokens();
    expect(await screen.findByText('За 30 дней токены не списывались.')).toBeInTheDocument();
  });

  it("shows the server's message when the history fails", async () => {
    server.use(http.get(`${API}/history`, () => HttpResponse.json({ error: 'Внутренняя ошибка сервера', code: 'INTERNAL' }, { status: 500 })));
    renderTokens();
    expect((await screen.findAllByText('Внутренняя ошибка сервера')).length).toBeGreaterThan(0);
  });
});

describe('/tokens: buying tokens', () => {
  it('shows the packages with their prices, and the card only when the server offers it', async () => {
    historyServer([]);
    renderTokens();
    const start = await screen.findByTestId('package-start');
    expect(start).toHaveTextContent('500 токенов');
    expect(start).toHaveTextContent(/990\s₽/);
    expect(within(start).queryByRole('button', { name: 'Оплатить картой' })).not.toBeInTheDocument();
    expect(within(start).getByRole('button', { name: 'Счёт для юрлица' })).toBeInTheDocument();
    expect(screen.queryByText(/чат поддержки/)).not.toBeInTheDocument();
  });

  it('sends the user to the confirmation page of a card payment', async () => {
    historyServer([]);
    server.use(
      http.get(`${API}/packages`, () => HttpResponse.json({ packages, methods: { card: true, invoice: true }, contact })),
      http.post(`${API}/payments`, () => HttpResponse.json({ error: 'Платёжный сервис временно недоступен. Попробуйте позже', code: 'PAYMENT_PROVIDER_UNAVAILABLE' }, { status: 502 })),
    );
    const user = userEvent.setup();
    renderTokens();
    const team = await screen.findByTestId('package-team');
    await user.click(within(team).getByRole('button', { name: 'Оплатить картой' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Платёжный сервис временно недоступен. Попробуйте позже');
  });

  it('without card payments tells a private person whom to write to', async () => {
    historyServer([]);
    renderTokens();
    const hint = await screen.findByRole('note');
    expect(hint).toHaveTextContent('Оплата картой пока не подключена: частным лицам — напишите нам, и мы подскажем, как оплатить: support@reklama-lab.example.');
    expect(within(hint).getByRole('link', { name: contact })).toHaveAttribute('href', `mailto:${contact}`);
    expect(screen.queryByRole('button', { name: 'Оплатить картой' })).not.toBeInTheDocument();
  });

  it('without invoices (the seller\'s requisites not set) offers no invoice and says whom to write to', async () => {
    historyServer([]);
    server.use(http.get(`${API}/packages`, () => HttpResponse.json({ packages, methods: { card: false, invoice: false }, contact })));
    renderTokens();
    const hint = await screen.findByRole('note');
    expect(hint).toHaveTextContent('Оплата на сайте пока не подключена. Чтобы купить пакет, напишите нам — support@reklama-lab.example.');
    expect(screen.queryByRole('button', { name: 'Счёт для юрлица' })).not.toBeInTheDocument();
  });

  it('issues an invoice with the requisites, checking them first', async () => {
    historyServer([]);
    const sent: unknown[] = [];
    const issued = { id: '0b6f8a4e-4a53-4c7a-9d0c-1d5c1f1b2a3c', method: 'invoice', status: 'pending', package_id: 'team', tokens: 2000, amount_rub: 3490, refunded_rub: 0, confirmation_url: null, invoice_number: 17, requisites: null, cancel_reason: null, created_at: new Date().toISOString(), paid_at: null };
    let listed: unknown[] = [];
    server.use(
      http.post(`${API}/invoices`, async ({ request }) => {
        sent.push(await request.json());
        listed = [issued];
        return HttpResponse.json(issued);
      }),
      http.get(`${API}/payments`, () => HttpResponse.json({ items: listed })),
      http.get(`${API}/invoices/:id/pdf`, () => new HttpResponse('%PDF-1.3', { headers: { 'content-type': 'application/pdf' } })),
    );
    const createObjectURL = vi.fn(() => 'blob:invoice');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const user = userEvent.setup();
    renderTokens();
    const team = await screen.findByTestId('package-team');
    // Packages are named in Russian, never by their machine id.
    expect(team).toHaveTextContent('Команда');
    expect(team).not.toHaveTextContent('team');
    await user.click(within(team).getByRole('button', { name: 'Счёт для юрлица' }));
    const form = screen.getByRole('form', { name: 'Счёт на оплату' });
    expect(within(form).getByRole('heading')).toHaveTextContent('Счёт за пакет «Команда»: 2 000 токенов, 3 490 ₽');
    await user.type(within(form).getByLabelText('Название организации'), 'ООО «Ромашка»');
    await user.type(within(form).getByLabelText('ИНН'), '123');
    await user.type(within(form).getByLabelText('Юридический адрес'), 'Москва, Мясницкая, 1');
    await user.click(within(form).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(form).findByText('ИНН: 10 цифр для организации или 12 для ИП')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    // Ten digits whose control digit does not match: caught on the form.
    await user.clear(within(form).getByLabelText('ИНН'));
    await user.type(within(form).getByLabelText('ИНН'), '1234567890');
    await user.click(within(form).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(form).findByText(/^ИНН с ошибкой: контрольная цифра не сходится/)).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    // A company's ИНН: the КПП is asked for, and checked.
    await user.clear(within(form).getByLabelText('ИНН'));
    await user.type(within(form).getByLabelText('ИНН'), '7701234560');
    await user.click(within(form).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(form).findByText(/^Укажите КПП: у организации/)).toBeInTheDocument();
    await user.type(within(form).getByLabelText('КПП (для организаций)'), '7701010');
    await user.click(within(form).getByRole('button', { name: 'Выставить счёт' }));
    expect(await within(form).findByText(/^КПП: 9 символов/)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.type(within(form).getByLabelText('КПП (для организаций)'), '01');
    await user.click(within(form).getByRole('button', { name: 'Выставить счёт' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ package_id: 'team', requisites: { name: 'ООО «Ромашка»', inn: '7701234560', kpp: '770101001', address: 'Москва, Мясницкая, 1' }, idempotency_key: expect.any(String) });
    const row = await screen.findByTestId('payment-row');
    expect(row).toHaveTextContent('По счёту № 17');
    expect(row).toHaveTextContent('Ожидает оплаты');
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
  });
});

describe('dailySpending', () => {
  it('sums debits per local day, oldest first, with empty days as 0', () => {
    const now = new Date(2025, 0, 3, 10);
    const result = dailySpending(
      [entry(1, { amount: -5, created_at: new Date(2025, 0, 3, 1).toISOString() }), entry(2, { amount: -7, created_at: new Date(2025, 0, 1, 23).toISOString() })],
      3,
      now,
    );
    expect(result).toEqual([
      { day: '2025-01-01', spent: 7 },
      { day: '2025-01-02', spent: 0 },
      { day: '2025-01-03', spent: 5 },
    ]);
  });
});
