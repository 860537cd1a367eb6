/**
 * Buying tokens from the PWA: packages, card payments (YooKassa), invoices and the organization's
 * requisites, plus the owner's transfers. After anything that moves tokens, `refreshTokenViews` makes
 * the header balance, the ledger and the members' balances fetch again at once.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  CreateCardPayment,
  CreateInvoice,
  PackagesResponse,
  Payment,
  PaymentList,
  RequisitesInput,
  SavedRequisites,
  TransferRequest,
  TransferResponse,
} from '../../contract/payments.js';
import { apiClient } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';
import { tokenKeys } from '../../lib/paid-runs';

export const paymentKeys = {
  packages: () => ['tokens', 'packages'] as const,
  payments: () => ['tokens', 'payments'] as const,
  payment: (id: string) => ['tokens', 'payments', id] as const,
  requisites: () => ['tokens', 'requisites'] as const,
};

export const packagesQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.packages(),
    queryFn: ({ signal }) => apiClient.get<PackagesResponse>('/api/v1/tokens/packages', { signal }),
  });

export const paymentsQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.payments(),
    queryFn: async ({ signal }) => (await apiClient.get<PaymentList>('/api/v1/tokens/payments', { signal })).items,
    staleTime: 0,
  });

/** One payment; the server checks a pending card payment with YooKassa, so this is the "back from paying" call. */
export const paymentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentKeys.payment(id),
    queryFn: ({ signal }) => apiClient.get<Payment>(`/api/v1/tokens/payments/${encodeURIComponent(id)}`, { signal }),
    staleTime: 0,
  });

export const requisitesQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.requisites(),
    queryFn: ({ signal }) => apiClient.get<SavedRequisites>('/api/v1/tokens/requisites', { signal }),
  });

export const createCardPayment = (body: CreateCardPayment) => apiClient.post<Payment>('/api/v1/tokens/payments', body);
export const createInvoice = (body: CreateInvoice) => apiClient.post<Payment>('/api/v1/tokens/invoices', body);
export const saveRequisites = (body: RequisitesInput) => apiClient.put<SavedRequisites>('/api/v1/tokens/requisites', body);
export const cancelInvoice = (id: string) => apiClient.post<Payment>(`/api/v1/tokens/invoices/${encodeURIComponent(id)}/cancel`);
export const downloadInvoice = (payment: Pick<Payment, 'id' | 'invoice_number'>) =>
  saveDownload(`/api/v1/tokens/invoices/${encodeURIComponent(payment.id)}/pdf`, `invoice-${payment.invoice_number}.pdf`);

export const transferTokens = (memberId: string, body: TransferRequest) =>
  apiClient.post<TransferResponse>(`/api/v1/organizations/members/${encodeURIComponent(memberId)}/transfer`, body);

/**
 * Everything under ['tokens'] (balance, ledger, spending, payments) and the members list with their
 * balances: one call after any credit, purchase or transfer, so no screen shows the old figure.
 */
export function refreshTokenViews(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: tokenKeys.all }), client.invalidateQueries({ queryKey: ['organization', 'members'] })]);
}
