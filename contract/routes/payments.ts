/**
 * Buying tokens, under /api/v1/tokens: packages, card payments (YooKassa and its notification webhook),
 * invoices with their PDF, the organization's requisites; and the platform admin's invoices under
 * /api/v1/admin/invoices (mark paid, cancel).
 */
import * as v from 'valibot';
import { ErrorBodySchema } from '../common.js';
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
} from '../payments.js';
import { defineRoute, fileAnswer } from './route.js';

const tags = ['payments'];
const adminTags = ['admin', 'payments'];

export const paymentRoutes = {
  packages: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/packages',
    response: { 200: PackagesResponseSchema, 401: ErrorBodySchema },
    tags,
    summary: 'Token packages for sale and the ways to pay for them',
    auth: true,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/payments',
    response: { 200: PaymentListSchema, 401: ErrorBodySchema },
    tags,
    summary: "The caller's payments (card and invoice), newest first",
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/payments/:id',
    params: PaymentParamsSchema,
    response: { 200: PaymentSchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: "One of the caller's payments; a pending card payment is checked with YooKassa first",
    auth: true,
  }),
  createCardPayment: defineRoute({
    method: 'POST',
    path: '/api/v1/tokens/payments',
    body: CreateCardPaymentSchema,
    response: { 200: PaymentSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: 'Pay for a package by card (YooKassa): answers the confirmation_url to send the user to; same idempotency_key, same payment',
    auth: true,
    verifiedEmail: true,
  }),
  yookassaNotification: defineRoute({
    method: 'POST',
    path: '/api/v1/tokens/payments/yookassa-notification',
    body: YookassaNotificationSchema,
    response: { 200: v.object({}), 404: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: "YooKassa's notification webhook (payment.succeeded, payment.canceled, refund.succeeded): answered at once; the object is fetched back from YooKassa in a job, the body is not trusted",
  }),
  requisites: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/requisites',
    response: { 200: SavedRequisitesSchema, 401: ErrorBodySchema },
    tags,
    summary: "The organization's requisites for invoices (can_edit: owner or admin)",
    auth: true,
  }),
  saveRequisites: defineRoute({
    method: 'PUT',
    path: '/api/v1/tokens/requisites',
    body: RequisitesSchema,
    response: { 200: SavedRequisitesSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: "Save the organization's requisites (owner or admin)",
    auth: true,
  }),
  createInvoice: defineRoute({
    method: 'POST',
    path: '/api/v1/tokens/invoices',
    body: CreateInvoiceSchema,
    response: { 200: PaymentSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: 'Issue an invoice («счёт на оплату») for a package; tokens are credited when a platform admin marks it paid',
    auth: true,
    verifiedEmail: true,
  }),
  invoicePdf: defineRoute({
    method: 'GET',
    path: '/api/v1/tokens/invoices/:id/pdf',
    params: PaymentParamsSchema,
    response: { 200: fileAnswer('application/pdf'), 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: 'The invoice as a PDF (its buyer or a platform admin); 503 with Retry-After while the server builds too many documents',
    auth: true,
  }),
  cancelInvoice: defineRoute({
    method: 'POST',
    path: '/api/v1/tokens/invoices/:id/cancel',
    params: PaymentParamsSchema,
    response: { 200: PaymentSchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Withdraw an unpaid invoice of the caller',
    auth: true,
  }),
  adminInvoices: defineRoute({
    method: 'GET',
    path: '/api/v1/admin/invoices',
    query: AdminInvoiceQuerySchema,
    response: { 200: AdminInvoiceListSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
    tags: adminTags,
    summary: 'Invoices of every user, newest first; filter by status (platform admin)',
    auth: true,
  }),
  markInvoicePaid: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/invoices/:id/mark-paid',
    params: PaymentParamsSchema,
    response: { 200: AdminInvoiceSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags: adminTags,
    summary: 'Mark an invoice paid: its tokens are credited once (platform admin; audit-logged)',
    auth: true,
  }),
  cancelInvoiceAsAdmin: defineRoute({
    method: 'POST',
    path: '/api/v1/admin/invoices/:id/cancel',
    params: PaymentParamsSchema,
    response: { 200: AdminInvoiceSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags: adminTags,
    summary: 'Cancel an unpaid invoice (platform admin; audit-logged)',
    auth: true,
  }),
};
