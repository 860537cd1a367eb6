import type { FastifyPluginAsync } from 'fastify';
import { paymentRoutes as routes } from '../../src/contract/routes/payments.js';
import { callerOf } from '../auth/authenticate.js';
import { notFound } from '../lib/errors.js';
import { addRoute } from '../lib/routes.js';
import { sellerPlaceholders } from './config.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import {
  cancelOwnInvoice,
  createCardPayment,
  createInvoice,
  decideInvoice,
  getPayment,
  getRequisites,
  handleNotification,
  invoiceForPdf,
  listAdminInvoices,
  listPayments,
  saveRequisites,
} from './service.js';
import { createYookassaClient } from './yookassa.js';

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

  addRoute(app, routes.yookassaNotification, async (request) => {
    if (!yookassa) throw notFound();
    await handleNotification(app.db, yookassa, request.body.event, request.body.object.id, request.log);
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
    const pdf = await renderInvoicePdf({
      number: Number(row.invoice_number),
      createdAt: row.created_at,
      buyer: row.requisites!,
      seller: config.seller,
      packageName: config.packages.find((item) => item.id === row.package_id)?.name ?? null,
      tokens: row.tokens,
      amountKopecks: Number(row.amount_kopecks),
    });
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
  const admin = { preValidation: [app.requirePlatformAdmin] };
  addRoute(app, routes.adminInvoices, admin, async (request) => ({ items: await listAdminInvoices(app.db, { status: request.query.status }) }));
  addRoute(app, routes.markInvoicePaid, admin, async (request) => (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'paid')).invoice);
  addRoute(app, routes.cancelInvoiceAsAdmin, admin, async (request) => (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'canceled')).invoice);
};
