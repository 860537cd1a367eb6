/** The platform admin's invoices: list by status, mark paid (tokens credited once), cancel. */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PaymentStatus } from '@contract/payments.js';
import { paymentRoutes } from '@contract/routes/payments.js';
import { callApi } from '@/lib/call-api';
import { tokenKeys } from '@/lib/paid-runs';
import { FETCHED_ON_OPEN_MS } from '@/lib/route-data';

export const adminInvoiceKeys = {
  all: ['admin', 'invoices'] as const,
  list: (status: PaymentStatus | null) => ['admin', 'invoices', { status }] as const,
};

/** The list the screen opens with: the invoices waiting for the operator. */
export const FIRST_INVOICE_STATUS: PaymentStatus = 'pending';

export const adminInvoicesQuery = (status: PaymentStatus | null) =>
  queryOptions({
    queryKey: adminInvoiceKeys.list(status),
    queryFn: async ({ signal }) => (await callApi(paymentRoutes.adminInvoices, { query: { status: status ?? undefined }, signal })).items,
    staleTime: FETCHED_ON_OPEN_MS,
  });

export const markInvoicePaid = (id: string) => callApi(paymentRoutes.markInvoicePaid, { params: { id } });
export const cancelInvoiceAsAdmin = (id: string) => callApi(paymentRoutes.cancelInvoiceAsAdmin, { params: { id } });

/** After a decision: the lists, and the admin's own balance views in case they paid their own invoice. */
export const refreshAfterDecision = (client: QueryClient) =>
  Promise.all([client.invalidateQueries({ queryKey: adminInvoiceKeys.all }), client.invalidateQueries({ queryKey: tokenKeys.all })]);
