import type { FastifyPluginAsync } from 'fastify';
import { ErrorBodySchema } from '../../src/contract/common.js';
import {
  AdminInvoiceListSchema,
  AdminInvoiceQuerySchema,
  AdminInvoiceSchema,
  CreateCardPaymentSchema,
  CreateInvoiceSchema,
  PackagesResponseSchema,
  PaymentListSchema,
  PaymentParamsSchema,
  PaymentSchema,
  RequisitesSchema,
  SavedRequisitesSchema,
  YookassaNotificationSchema,
} from '../../src/contract/payments.js';
import * as v from 'valibot';
import { callerOf } from '../auth/authenticate.js';
import { notFound } from '../lib/errors.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
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

const tags = ['payments'];

const packages = { response: { 200: PackagesResponseSchema }, tags, summary: 'Token packages for sale and the ways to pay for them', auth: true } satisfies RouteContract;
const payments = { response: { 200: PaymentListSchema }, tags, summary: "The caller's payments (card and invoice), newest first", auth: true } satisfies RouteContract;
const onePayment = {
  params: PaymentParamsSchema,
  response: { 200: PaymentSchema, 404: ErrorBodySchema },
  tags,
  summary: "One of the caller's payments; a pending card payment is checked with YooKassa first",
  auth: true,
} satisfies RouteContract;
const createCard = {
  body: CreateCardPaymentSchema,
  response: { 200: PaymentSchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
  tags,
  summary: 'Pay for a package by card (YooKassa): answers the confirmation_url to send the user to; same idempotency_key, same payment',
  auth: true,
} satisfies RouteContract;
const notification = {
  body: YookassaNotificationSchema,
  response: { 200: v.object({}), 404: ErrorBodySchema, 422: ErrorBodySchema },
  tags,
  summary: "YooKassa's notification webhook (payment.succeeded, payment.canceled, refund.succeeded); the object is fetched back from YooKassa, the body is not trusted",
} satisfies RouteContract;
const requisites = { response: { 200: SavedRequisitesSchema }, tags, summary: "The organization's requisites for invoices (can_edit: owner or admin)", auth: true } satisfies RouteContract;
const saveRequisitesRoute = {
  body: RequisitesSchema,
  response: { 200: SavedRequisitesSchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
  tags,
  summary: "Save the organization's requisites (owner or admin)",
  auth: true,
} satisfies RouteContract;
const createInvoiceRoute = {
  body: CreateInvoiceSchema,
  response: { 200: PaymentSchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
  tags,
  summary: 'Issue an invoice («счёт на оплату») for a package; tokens are credited when a platform admin marks it paid',
  auth: true,
} satisfies RouteContract;
const invoicePdf = { params: PaymentParamsSchema, response: { 404: ErrorBodySchema }, tags, summary: 'The invoice as a PDF (its buyer or a platform admin)', auth: true } satisfies RouteContract;
const cancelInvoice = {
  params: PaymentParamsSchema,
  response: { 200: PaymentSchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
  tags,
  summary: 'Withdraw an unpaid invoice of the caller',
  auth: true,
} satisfies RouteContract;

/** Under /api/v1/tokens, beside the balance and the ledger. */
export const paymentRoutes: FastifyPluginAsync = async (app) => {
  const config = app.config.payments;
  const yookassa = config.yookassa ? createYookassaClient(config.yookassa) : null;

  app.get('/packages', { schema: routeSchema(packages) }, async () => ({ packages: config.packages, methods: { card: yookassa !== null, invoice: true } }));

  app.get('/payments', { schema: routeSchema(payments) }, async (request) => ({ items: await listPayments(app.db, callerOf(request).userId) }));

  app.get<Req<typeof onePayment>>('/payments/:id', { schema: routeSchema(onePayment) }, async (request) =>
    getPayment(app.db, yookassa, callerOf(request), request.params.id, request.log),
  );

  app.post<Req<typeof createCard>>('/payments', { schema: routeSchema(createCard) }, async (request) =>
    createCardPayment(app.db, yookassa, config, app.config.publicUrl, callerOf(request), { packageId: request.body.package_id, idempotencyKey: request.body.idempotency_key }, request.log),
  );

  app.post<Req<typeof notification>>('/payments/yookassa-notification', { schema: routeSchema(notification) }, async (request) => {
    if (!yookassa) throw notFound();
    await handleNotification(app.db, yookassa, request.body.event, request.body.object.id, request.log);
    return {};
  });

  app.get('/requisites', { schema: routeSchema(requisites) }, async (request) => getRequisites(app.db, callerOf(request)));

  app.put<Req<typeof saveRequisitesRoute>>('/requisites', { schema: routeSchema(saveRequisitesRoute) }, async (request) => {
    await saveRequisites(app.db, callerOf(request), request.body);
    return getRequisites(app.db, callerOf(request));
  });

  app.post<Req<typeof createInvoiceRoute>>('/invoices', { schema: routeSchema(createInvoiceRoute) }, async (request) =>
    createInvoice(app.db, config, callerOf(request), { packageId: request.body.package_id, requisites: request.body.requisites, idempotencyKey: request.body.idempotency_key }),
  );

  app.get<Req<typeof invoicePdf>>('/invoices/:id/pdf', { schema: routeSchema(invoicePdf) }, async (request, reply) => {
    const row = await invoiceForPdf(app.db, callerOf(request), request.params.id);
    const pdf = await renderInvoicePdf({
      number: Number(row.invoice_number),
      createdAt: row.created_at,
      buyer: row.requisites!,
      seller: config.seller,
      packageId: row.package_id,
      tokens: row.tokens,
      amountKopecks: Number(row.amount_kopecks),
    });
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="invoice-${row.invoice_number}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });

  app.post<Req<typeof cancelInvoice>>('/invoices/:id/cancel', { schema: routeSchema(cancelInvoice) }, async (request) => cancelOwnInvoice(app.db, callerOf(request), request.params.id));
};

const adminList = {
  querystring: AdminInvoiceQuerySchema,
  response: { 200: AdminInvoiceListSchema, 403: ErrorBodySchema },
  tags: ['admin', 'payments'],
  summary: 'Invoices of every user, newest first; filter by status (platform admin)',
  auth: true,
} satisfies RouteContract;
const adminDecide = {
  params: PaymentParamsSchema,
  response: { 200: AdminInvoiceSchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
  tags: ['admin', 'payments'],
  auth: true,
} satisfies RouteContract;
const markPaid = { ...adminDecide, summary: 'Mark an invoice paid: its tokens are credited once (platform admin; audit-logged)' } satisfies RouteContract;
const adminCancel = { ...adminDecide, summary: 'Cancel an unpaid invoice (platform admin; audit-logged)' } satisfies RouteContract;

/** Under /api/v1/admin/invoices. */
export const adminInvoiceRoutes: FastifyPluginAsync = async (app) => {
  const admin = [app.requirePlatformAdmin];
  app.get<Req<typeof adminList>>('/', { schema: routeSchema(adminList), preValidation: admin }, async (request) => ({ items: await listAdminInvoices(app.db, { status: request.query.status }) }));
  app.post<Req<typeof markPaid>>('/:id/mark-paid', { schema: routeSchema(markPaid), preValidation: admin }, async (request) =>
    (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'paid')).invoice,
  );
  app.post<Req<typeof adminCancel>>('/:id/cancel', { schema: routeSchema(adminCancel), preValidation: admin }, async (request) =>
    (await decideInvoice(app.db, callerOf(request).userId, request.params.id, 'canceled')).invoice,
  );
};
