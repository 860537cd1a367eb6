/** The platform admin's invoices: list by status, mark paid (tokens credited once), cancel. */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AdminInvoice, AdminInvoiceList, PaymentStatus } from '../../../contract/payments.js';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from '../../../lib/paid-runs';

export const adminInvoiceKeys = {
  all: ['admin', 'invoices'] as const,
  list: (status: PaymentStatus | null) => ['admin', 'invoices', { status }] as const,
};

export const adminInvoicesQuery = (status: PaymentStatus | null) =>
  queryOptions({
    queryKey: adminInvoiceKeys.list(status),
    queryFn: async ({ signal }) => (await apiClient.get<AdminInvoiceList>('/api/v1/admin/invoices', { params: { status }, signal })).items,
    staleTime: 0,
  });

export const markInvoicePaid = (id: string) => apiClient.post<AdminInvoice>(`/api/v1/admin/invoices/${encodeURIComponent(id)}/mark-paid`);
export const cancelInvoiceAsAdmin = (id: string) => apiClient.post<AdminInvoice>(`/api/v1/admin/invoices/${encodeURIComponent(id)}/cancel`);

/** After a decision: the lists, and the admin's own balance views in case they paid their own invoice. */
export const refreshAfterDecision = (client: QueryClient) =>
  Promise.all([client.invalidateQueries({ queryKey: adminInvoiceKeys.all }), client.invalidateQueries({ queryKey: tokenKeys.all })]);
