import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { paymentStatusLabels, paymentStatuses, type AdminInvoice, type PaymentStatus } from '@contract/payments.js';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { QueryError } from '@/components/ui/QueryError';
import { TableHead } from '@/components/ui/TableHead';
import { formatDateTime, formatTokens } from '@contract/format';
import { downloadInvoice } from '@/lib/payments-api';
import { adminInvoicesQuery, cancelInvoiceAsAdmin, FIRST_INVOICE_STATUS, markInvoicePaid, refreshAfterDecision } from './api';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';

type Decision = { invoice: AdminInvoice; action: 'paid' | 'cancel' };

const formatRoubles = (value: number) => `${value.toLocaleString('ru-RU', { maximumFractionDigits: 2 })} ₽`;

/**
 * /admin/invoices: invoices of every organization. «Оплачен» once the money is on the account credits
 * the package's tokens to the buyer (once, however often it is clicked); «Отменить» closes an unpaid one.
 * Both are written to the audit log on the server.
 */
export function AdminInvoicesScreen() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<PaymentStatus | null>(FIRST_INVOICE_STATUS);
  const invoices = useQuery(adminInvoicesQuery(status));
  const [decision, setDecision] = useState<Decision | null>(null);
  const decide = useMutation({
    mutationFn: ({ invoice, action }: Decision) => (action === 'paid' ? markInvoicePaid(invoice.id) : cancelInvoiceAsAdmin(invoice.id)),
    onSuccess: async (invoice, { action }) => {
      await refreshAfterDecision(queryClient);
      toast.success(action === 'paid' ? `Счёт № ${invoice.invoice_number} оплачен. Зачислено пользователю ${invoice.user.email}: ${formatTokens(invoice.tokens)}` : `Счёт № ${invoice.invoice_number} отменён`);
      setDecision(null);
    },
    onError: () => setDecision(null),
  });
  const download = useMutation({ mutationFn: (invoice: AdminInvoice) => downloadInvoice(invoice) });

  return (
    <section className="admin-invoices" aria-labelledby="admin-invoices-title">
      <div className="card__header">
        <h1 id="admin-invoices-title">Счета на оплату</h1>
        <label>
          <span className="visually-hidden">Статус</span>
          <select className="select" aria-label="Статус" value={status ?? ''} onChange={(event) => setStatus((event.target.value || null) as PaymentStatus | null)}>
            <option value="">Все</option>
            {paymentStatuses.map((value) => (
              <option key={value} value={value}>
                {paymentStatusLabels[value]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {(decide.isError || download.isError) && (
        <p className="form-error" role="alert">
          {(decide.error ?? download.error)?.message}
        </p>
      )}
      <LoadingLine query={invoices} label="Загрузка счетов…" offlineText={notSavedOffline('счета')} />
      {invoices.isError && <QueryError error={invoices.error} onRetry={() => void invoices.refetch()} />}
      {invoices.data && invoices.data.length === 0 && <p className="muted">Счетов нет.</p>}
      {invoices.data && invoices.data.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <TableHead columns={['№', 'Дата', 'Покупатель', 'Пользователь', 'Пакет', 'Сумма', 'Статус']} actions />
            <tbody>
              {invoices.data.map((invoice) => (
                <tr key={invoice.id} data-testid="admin-invoice-row">
                  <td data-label="№">{invoice.invoice_number}</td>
                  <td data-label="Дата">{formatDateTime(invoice.created_at)}</td>
                  <td data-label="Покупатель">
                    {invoice.requisites?.name ?? '—'}
                    {invoice.requisites && <span className="muted"> ИНН {invoice.requisites.inn}</span>}
                  </td>
                  <td data-label="Пользователь">
                    {invoice.user.full_name || invoice.user.email}
                    <span className="muted"> {invoice.user.email}</span>
                    {invoice.organization && <span className="muted"> · {invoice.organization.name}</span>}
                  </td>
                  <td data-label="Пакет">{formatTokens(invoice.tokens)}</td>
                  <td data-label="Сумма">{formatRoubles(invoice.amount_rub)}</td>
                  <td data-label="Статус">{paymentStatusLabels[invoice.status]}</td>
                  <td>
                    <button type="button" className="btn btn--ghost btn--small" onClick={() => download.mutate(invoice)} disabled={download.isPending}>
                      PDF
                    </button>
                    {invoice.status === 'pending' && (
                      <>
                        <button type="button" className="btn btn--primary btn--small" onClick={() => setDecision({ invoice, action: 'paid' })}>
                          Оплачен
                        </button>
                        <button type="button" className="btn btn--ghost btn--small" onClick={() => setDecision({ invoice, action: 'cancel' })}>
                          Отменить
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {decision && (
        <ConfirmDialog
          title={decision.action === 'paid' ? `Отметить счёт № ${decision.invoice.invoice_number} оплаченным?` : `Отменить счёт № ${decision.invoice.invoice_number}?`}
          confirmLabel={decision.action === 'paid' ? 'Оплачен' : 'Отменить счёт'}
          cancelLabel="Назад"
          danger={decision.action === 'cancel'}
          busy={decide.isPending}
          onConfirm={() => decide.mutate(decision)}
          onCancel={() => setDecision(null)}
        >
          {decision.action === 'paid'
            ? `${decision.invoice.user.email} получит ${formatTokens(decision.invoice.tokens)}. Отмечайте, когда ${formatRoubles(decision.invoice.amount_rub)} поступили на расчётный счёт.`
            : 'Покупатель увидит счёт отменённым; оплатить его будет нельзя.'}
        </ConfirmDialog>
      )}
    </section>
  );
}
