import type { YookassaConfig } from '../config/payments.js';

/**
 * The few calls of YooKassa's payments API v3 we make (https://yookassa.ru/developers/api): basic auth
 * `shopId:secretKey`, JSON bodies, an `Idempotence-Key` on every POST so a retried creation returns the
 * same payment instead of charging twice.
 */

export interface YookassaAmount {
  /** Decimal string with two digits after the point, e.g. "990.00". */
  value: string;
  currency: string;
}

export type YookassaPaymentStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface YookassaPayment {
  id: string;
  status: YookassaPaymentStatus;
  paid: boolean;
  amount: YookassaAmount;
  confirmation?: { type: string; confirmation_url?: string; return_url?: string };
  description?: string;
  metadata?: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  test?: boolean;
}

export interface YookassaRefund {
  id: string;
  payment_id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: YookassaAmount;
  created_at: string;
}

export class YookassaError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'YookassaError';
  }
}

/**
 * How long one API call may take: the payment screen then tells the user to try later, and a
 * notification's check (server/payments/notification-check.ts) fails and is retried. Tests shorten it.
 */
export const yookassaTiming = { requestTimeoutMs: 15_000 };

export function kopecksToValue(kopecks: number): string {
  return `${Math.trunc(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}

/** "990.00" → 99000; anything else is NaN (and never equals an expected amount). */
export function valueToKopecks(value: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export function createYookassaClient(config: YookassaConfig) {
  const authorization = `Basic ${Buffer.from(`${config.shopId}:${config.secretKey}`).toString('base64')}`;

  async function request<T>(method: 'GET' | 'POST', path: string, options: { body?: unknown; idempotenceKey?: string } = {}): Promise<T | null> {
    const response = await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: {
        authorization,
        accept: 'application/json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.idempotenceKey ? { 'idempotence-key': options.idempotenceKey } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(yookassaTiming.requestTimeoutMs),
    });
    const text = await response.text();
    if (response.status === 404 && method === 'GET') return null;
    if (!response.ok) {
      let description = text.slice(0, 300);
      try {
        const body = JSON.parse(text) as { code?: string; description?: string };
        description = `${body.code ?? ''}: ${body.description ?? ''}`;
      } catch {
        // not JSON: keep the start of the text
      }
      throw new YookassaError(response.status, `YooKassa ${method} ${path} answered ${response.status} ${description}`);
    }
    return JSON.parse(text) as T;
  }

  return {
    /** POST /payments with `capture: true` (one step) and a redirect confirmation. */
    createPayment: async (input: { amountKopecks: number; description: string; returnUrl: string; metadata: Record<string, string>; idempotenceKey: string }) =>
      (await request<YookassaPayment>('POST', '/payments', {
        idempotenceKey: input.idempotenceKey,
        body: {
          amount: { value: kopecksToValue(input.amountKopecks), currency: 'RUB' },
          capture: true,
          confirmation: { type: 'redirect', return_url: input.returnUrl },
          description: input.description.slice(0, 128),
          metadata: input.metadata,
        },
      }))!,
    /** GET /payments/{id}; null when YooKassa does not know it (a forged id). */
    getPayment: (id: string) => request<YookassaPayment>('GET', `/payments/${encodeURIComponent(id)}`),
    getRefund: (id: string) => request<YookassaRefund>('GET', `/refunds/${encodeURIComponent(id)}`),
  };
}

export type YookassaClient = ReturnType<typeof createYookassaClient>;
