/**
 * Buying tokens from the PWA: packages, card payments (YooKassa), invoices and the organization's
 * requisites, plus the owner's transfers. After anything that moves tokens, `refreshTokenViews` makes
 * the header balance, the ledger and the members' balances fetch again at once.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CreateCardPayment, CreateInvoice, Payment, TransferRequest } from '@contract/payments.js';
import { organizationRoutes } from '@contract/routes/organizations.js';
import { paymentRoutes } from '@contract/routes/payments.js';
import { callApi } from './call-api';
import { saveDownloadedFile } from './download';
import { tokenKeys } from './paid-runs';
import { FETCHED_ON_OPEN_MS } from './route-data';

export const paymentKeys = {
  packages: () => ['tokens', 'packages'] as const,
  payments: () => ['tokens', 'payments'] as const,
  payment: (id: string) => ['tokens', 'payments', id] as const,
  requisites: () => ['tokens', 'requisites'] as const,
};

export const packagesQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.packages(),
    queryFn: ({ signal }) => callApi(paymentRoutes.packages, { signal }),
    // Kept on disk, with the payments below: the tokens screen reads offline as it was last seen.
    meta: { persist: true },
  });

export const paymentsQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.payments(),
    queryFn: async ({ signal }) => (await callApi(paymentRoutes.list, { signal })).items,
    staleTime: FETCHED_ON_OPEN_MS,
    meta: { persist: true },
  });

/** One payment; the server checks a pending card payment with YooKassa, so this is the "back from paying" call. */
export const paymentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: paymentKeys.payment(id),
    queryFn: ({ signal }) => callApi(paymentRoutes.get, { params: { id }, signal }),
    staleTime: 0,
  });

export const requisitesQueryOptions = () =>
  queryOptions({
    queryKey: paymentKeys.requisites(),
    queryFn: ({ signal }) => callApi(paymentRoutes.requisites, { signal }),
  });

export const createCardPayment = (body: CreateCardPayment) => callApi(paymentRoutes.createCardPayment, { body });
export const createInvoice = (body: CreateInvoice) => callApi(paymentRoutes.createInvoice, { body });
export const cancelInvoice = (id: string) => callApi(paymentRoutes.cancelInvoice, { params: { id } });
export const downloadInvoice = async (payment: Pick<Payment, 'id' | 'invoice_number'>) =>
  saveDownloadedFile(await callApi(paymentRoutes.invoicePdf, { params: { id: payment.id }, mode: 'download' }), `invoice-${payment.invoice_number}.pdf`);

export const transferTokens = (memberId: string, body: TransferRequest) =>
  callApi(organizationRoutes.transfer, { params: { userId: memberId }, body });

/**
 * Everything under ['tokens'] (balance, ledger, spending, payments) and the members list with their
 * balances: one call after any credit, purchase or transfer, so no screen shows the old figure.
 */
export function refreshTokenViews(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: tokenKeys.all }), client.invalidateQueries({ queryKey: ['organization', 'members'] })]);
}
