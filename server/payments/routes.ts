import type { FastifyPluginAsync } from 'fastify';
import { paymentRoutes as routes } from '../../contract/routes/payments.js';
import { callerOf } from '../auth/authenticate.js';
import { paymentMessages as m } from '../../contract/messages.js';
import { HttpError, notFound } from '../lib/errors.js';
import { addRoute } from '../lib/routes.js';
import { buildDocument } from '../lib/documents.js';
import { sellerPlaceholders } from '../config/payments.js';
import type { InvoiceDocument } from './invoice-pdf.js';
import { acceptNotification } from './notification-check.js';
import {
  cancelOwnInvoice,
  createCardPayment,
  createInvoice,
  decideInvoice,
  getPayment,
  getRequisites,
  invoiceForPdf,
  listAdminInvoices,
  listPayments,
  saveRequisites,
} from './service.js';
import { createYookassaClient } from './yookassa.js';

/** Built in the document pool's threads (server/lib/documents.ts), off the event loop. */
const invoicePdf = new URL('./invoice-pdf.js', import.meta.url);

/** Under /api/v1/tokens, beside the balance and the ledger. */
export const paymentRoutes: FastifyPluginAsync = async (app) => {
  const config = app.config.payments;
  const yookassa = config.yookassa ? createYookassaClient(config.yookassa) : null;

  addRoute(app, routes.packages, async () => ({
    packages: config.packages,
    methods: { card: yookassa !== null, invoice: sellerPlaceholders(config.seller).length === 0 },
    contact: config.seller.contact,
  }));

  addRoute(app, routes.list, async (request) => ({ items: await listPayments(app.db, callerOf(request).userId) }));

  addRoute(app, routes.get, async (request) => getPayment(app.db, yookassa, callerOf(request), request.params.id, request.log));

  addRoute(app, routes.createCardPayment, async (request) =>
    createCardPayment(app.db, yookassa, config, app.config.publicUrl, callerOf(request), { packageId: request.body.package_id, idempotencyKey: request.body.idempotency_key }, request.log),
  );

  // Answered at once; the object is fetched back from YooKassa in a job (notification-check.ts). Per client
  // address, generous for YooKassa's own senders, tight enough that forged ones cost little.
  const notificationLimited = { rateLimit: { max: 300, timeWindow: 60_000 } };
  addRoute(app, routes.yookassaNotification, { config: notificationLimited }, async (request) => {
    if (!yookassa) throw notFound();
    // No queue to check it later: YooKassa sends the notification again when the answer is not 200.
    if (!app.jobs) throw new HttpError(503, 'QUEUE_UNAVAILABLE', m.notificationQueueUnavailable);
    await acceptNotification(app.db, app.jobs, request.body);
    return {};
  });

  addRoute(app, routes.requisites, async (request) => getRequisites(app.db, callerOf(request)));

  addRoute(app, routes.saveRequisites, async (request) => {
    await saveRequisites(app.db, callerOf(request), request.body);
    return getRequisites(app.db, callerOf(request));
  });

  addRoute(app, routes.createInvoice, async (request) =>
    createInvoice(app.db, config, callerOf(request), { packageId: request.body.package_id, requisites: request.body.requisites, idempotencyKey: request.body.idempotency_key }),
  );

  addRoute(app, routes.invoicePdf, async (request, reply) => {
    const row = await invoiceForPdf(app.db, callerOf(request), request.params.id);
    const pdf = await buildDocument(invoicePdf, 'renderInvoicePdf', {
      number: Number(row.invoice_number),
      createdAt: row.created_at,
      buyer: row.requisites!,
      seller: config.seller,
      packageName: config.packages.find((item) => item.id === row.package_id)?.name ?? null,
      tokens: row.tokens,
      amountKopecks: Number(row.amount_kopecks),
    } satisfies InvoiceDocument);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="invoice-${row.invoice_number}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  addRoute(app, routes.cancelInvoice, async (request) => cancelOwnInvoice(app.db, callerOf(request), request.params.id));
};

/** Under /api/v1/admin/invoices. */
export const adminInvoiceRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.adminInvoices, async (request) => ({ items: await listAdminInvoices(app.db, { status: request.query.status }) }));
  addRoute(app, routes.markInvoicePaid, async (request) => (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'paid')).invoice);
  addRoute(app, routes.cancelInvoiceAsAdmin, async (request) => (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'canceled')).invoice);
};
