import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for YooKassa's payments API v3 on 127.0.0.1 (real HTTP), speaking its documented JSON:
 * - `POST /v3/payments` (basic auth `shopId:secretKey`, `Idempotence-Key` required; the same key answers
 *   the same payment) → a payment `{id, status: 'pending', paid: false, amount, confirmation: {type:
 *   'redirect', confirmation_url, return_url}, created_at, description, metadata, recipient, refundable, test}`;
 * - `GET /v3/payments/{id}`, `GET /v3/refunds/{id}` → the object, or 404 `{type: 'error', code: 'not_found'}`;
 * - wrong credentials → 401 `{type: 'error', code: 'invalid_credentials'}`;
 * - `hangLookups(true)`: those GETs never answer, as a hanging API (every GET is counted in `lookups`).
 * What the payer does is up to the test: `succeed(id)`, `cancel(id, reason)`, `refund(paymentId, value)`;
 * `notification(event, object)` builds the body YooKassa posts to the webhook. `GET /checkout/{id}` is a
 * page with a «Оплатить» button that pays and goes back to the return_url, for browser tests.
 */

export interface FakePayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  income_amount?: { value: string; currency: string };
  confirmation?: { type: 'redirect'; confirmation_url: string; return_url: string };
  captured_at?: string;
  created_at: string;
  description?: string;
  metadata: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
  recipient: { account_id: string; gateway_id: string };
  refundable: boolean;
  refunded_amount?: { value: string; currency: string };
  test: boolean;
}

export interface FakeRefund {
  id: string;
  payment_id: string;
  status: 'succeeded';
  amount: { value: string; currency: string };
  created_at: string;
}

export interface FakeYookassa {
  /** As YOOKASSA_API_URL takes it: `http://127.0.0.1:<port>/v3`. */
  url: string;
  shopId: string;
  secretKey: string;
  payments: Map<string, FakePayment>;
  /** Every POST /payments with its Idempotence-Key, in order (retries included). */
  creations: { idempotenceKey: string | undefined; body: any }[];
  /** The payer confirmed: the payment succeeds (capture: true). */
  succeed: (id: string) => FakePayment;
  cancel: (id: string, reason?: string) => FakePayment;
  refund: (paymentId: string, value?: string) => FakeRefund;
  notification: (event: string, object: object) => { type: 'notification'; event: string; object: object };
  /** The next POST /payments answers this status (e.g. 500) once. */
  failNextCreation: (status: number) => void;
  /** Every GET of a payment or a refund (authorized or not), in order: `payments/<id>` or `refunds/<id>`. */
  lookups: string[];
  /** While on, GETs of payments and refunds never answer (a hanging API); off answers them normally again. */
  hangLookups: (on: boolean) => void;
  close: () => Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const error = (code: string, description: string, parameter?: string) => ({ type: 'error', id: randomUUID(), code, description, ...(parameter ? { parameter } : {}) });

export async function startFakeYookassa(options: { shopId?: string; secretKey?: string } = {}): Promise<FakeYookassa> {
  const shopId = options.shopId ?? '123456';
  const secretKey = options.secretKey ?? `test_${randomUUID().replace(/-/g, '')}`;
  const expectedAuth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
  const payments = new Map<string, FakePayment>();
  const refunds = new Map<string, FakeRefund>();
  const byKey = new Map<string, string>();
  /** Where the checkout page sends the payer back (the payment's confirmation is gone once it succeeds). */
  const returnUrls = new Map<string, string>();
  const creations: FakeYookassa['creations'] = [];
  const lookups: string[] = [];
  let hanging = false;
  let failNext: number | null = null;
  let base = '';

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const checkout = /^\/checkout\/([\w-]+)$/.exec(url.pathname);
    if (checkout) {
      const payment = payments.get(checkout[1]!);
      if (!payment) return sendJson(response, 404, error('not_found', 'Payment not found'));
      if (request.method === 'POST') {
        const back = returnUrls.get(payment.id)!;
        if (payment.status === 'pending') succeed(payment.id);
        response.writeHead(303, { location: back });
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(`<!doctype html><meta charset="utf-8"><title>ЮKassa (тест)</title><p>К оплате: ${payment.amount.value} ₽</p><form method="post"><button type="submit">Оплатить</button></form>`);
    }
    const get = /^\/v3\/(payments|refunds)\/([\w-]+)$/.exec(url.pathname);
    if (request.method === 'GET' && get) {
      lookups.push(`${get[1]}/${get[2]}`);
      // Hanging: the request stays open until the client gives up (or the fake closes).
      if (hanging) return;
    }
    if (request.headers.authorization !== expectedAuth) return sendJson(response, 401, error('invalid_credentials', 'Authentication by given credentials failed'));

    if (request.method === 'POST' && url.pathname === '/v3/payments') {
      const key = request.headers['idempotence-key'] as string | undefined;
      let body: any;
      try {
        body = JSON.parse(await readBody(request));
      } catch {
        return sendJson(response, 400, error('invalid_request', 'Request body is not valid JSON'));
      }
      creations.push({ idempotenceKey: key, body });
      if (failNext !== null) {
        const status = failNext;
        failNext = null;
        return sendJson(response, status, error('internal_server_error', 'Internal server error'));
      }
      if (!key) return sendJson(response, 400, error('invalid_request', 'Idempotence key missing', 'Idempotence-Key'));
      const known = byKey.get(key);
      if (known) return sendJson(response, 200, payments.get(known));
      if (!body?.amount?.value || !/^\d+\.\d{2}$/.test(body.amount.value) || body.amount.currency !== 'RUB') {
        return sendJson(response, 400, error('invalid_request', 'Invalid amount', 'amount'));
      }
      if (body.confirmation?.type !== 'redirect' || !body.confirmation.return_url) {
        return sendJson(response, 400, error('invalid_request', 'Confirmation is required', 'confirmation'));
      }
      const id = `2${randomUUID().slice(1)}`;
      const payment: FakePayment = {
        id,
        status: 'pending',
        paid: false,
        amount: body.amount,
        confirmation: { type: 'redirect', confirmation_url: `${base}/checkout/${id}`, return_url: body.confirmation.return_url },
        created_at: new Date().toISOString(),
        description: body.description,
        metadata: body.metadata ?? {},
        recipient: { account_id: shopId, gateway_id: '100001' },
        refundable: false,
        test: true,
      };
      payments.set(id, payment);
      byKey.set(key, id);
      returnUrls.set(id, body.confirmation.return_url);
      return sendJson(response, 200, payment);
    }
    if (request.method === 'GET' && get) {
      const found = get[1] === 'payments' ? payments.get(get[2]!) : refunds.get(get[2]!);
      return found ? sendJson(response, 200, found) : sendJson(response, 404, error('not_found', 'Object not found'));
    }
    return sendJson(response, 404, error('not_found', `Unknown request: ${request.method} ${url.pathname}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  function mustFind(id: string): FakePayment {
    const payment = payments.get(id);
    if (!payment) throw new Error(`fake YooKassa: no payment ${id}`);
    return payment;
  }
  function succeed(id: string): FakePayment {
    const payment = mustFind(id);
    Object.assign(payment, { status: 'succeeded', paid: true, captured_at: new Date().toISOString(), refundable: true, income_amount: payment.amount });
    delete payment.confirmation;
    return payment;
  }

  return {
    url: `${base}/v3`,
    shopId,
    secretKey,
    payments,
    creations,
    succeed,
    cancel: (id, reason = 'expired_on_confirmation') => {
      const payment = mustFind(id);
      Object.assign(payment, { status: 'canceled', paid: false, cancellation_details: { party: 'yoo_money', reason } });
      delete payment.confirmation;
      return payment;
    },
    refund: (paymentId, value) => {
      const payment = mustFind(paymentId);
      const refund: FakeRefund = { id: `2${randomUUID().slice(1)}`, payment_id: paymentId, status: 'succeeded', amount: { value: value ?? payment.amount.value, currency: 'RUB' }, created_at: new Date().toISOString() };
      refunds.set(refund.id, refund);
      payment.refunded_amount = refund.amount;
      return refund;
    },
    notification: (event, object) => ({ type: 'notification', event, object }),
    failNextCreation: (status) => {
      failNext = status;
    },
    lookups,
    hangLookups: (on) => {
      hanging = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
