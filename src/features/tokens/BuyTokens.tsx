import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { paymentMethodLabels, paymentStatusLabels, RequisitesSchema, type Payment, type RequisitesInput, type TokenPackage } from '@contract/payments.js';
import { FormField } from '@/components/ui/form';
import { formatTokens } from '@contract/format';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { TableHead } from '@/components/ui/TableHead';
import { ApiError } from '@/lib/api-client';
import { useIdempotencyKey } from '@/lib/idempotency';
import {
  cancelInvoice,
  createCardPayment,
  createInvoice,
  downloadInvoice,
  packagesQueryOptions,
  paymentKeys,
  paymentQueryOptions,
  paymentsQueryOptions,
  refreshTokenViews,
  requisitesQueryOptions,
} from '@/lib/payments-api';

const formatRoubles = (value: number) => `${value.toLocaleString('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 })} ₽`;
const formatDate = (iso: string) => new Date(iso).toLocaleDateString('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

export const INVOICE_ISSUED = 'Счёт выставлен: скачайте PDF и оплатите его с расчётного счёта организации';
export const PAYMENT_SUCCEEDED = 'Оплата прошла: токены зачислены';

/** Packages for sale; the card button only when the server offers card payments. */
export function BuyTokensCard() {
  const packages = useQuery(packagesQueryOptions());
  const [invoicePackage, setInvoicePackage] = useState<TokenPackage | null>(null);
  // Kept across a retry after a lost answer or a 5xx (the same payment comes back); renewed otherwise.
  const cardKey = useIdempotencyKey();
  const card = useMutation({
    mutationFn: (pkg: TokenPackage) => createCardPayment({ package_id: pkg.id, idempotency_key: cardKey.key() }),
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) cardKey.renew();
    },
    onSuccess: (payment) => {
      cardKey.renew();
      // YooKassa's confirmation page; it sends the user back to /tokens?payment=<id>.
      if (payment.confirmation_url) window.location.assign(payment.confirmation_url);
    },
  });

  return (
    <section className="card tokens-buy" aria-labelledby="tokens-buy-title">
      <div className="card__header">
        <h2 id="tokens-buy-title" className="card__title">
          Пополнить баланс
        </h2>
      </div>
      <LoadingLine query={packages} label="Загрузка пакетов…" offlineText={notSavedOffline('пакеты токенов')} />
      {packages.isError && <QueryError error={packages.error} onRetry={() => void packages.refetch()} />}
      {card.isError && (
        <p className="form-error" role="alert">
          {card.error.message}
        </p>
      )}
      {packages.data && (
        <>
          <ul className="tokens-packages" aria-label="Пакеты токенов">
            {packages.data.packages.map((pkg) => (
              <li key={pkg.id} className="tokens-package" data-testid={`package-${pkg.id}`}>
                <p className="tokens-package__name">{pkg.name}</p>
                <p className="tokens-package__tokens">{formatTokens(pkg.tokens)}</p>
                <p className="tokens-package__price">{formatRoubles(pkg.price_rub)}</p>
                <p className="muted tokens-package__unit">{formatRoubles(Math.round((pkg.price_rub / pkg.tokens) * 100) / 100)} за токен</p>
                <div className="tokens-package__actions">
                  {packages.data.methods.card && (
                    <button type="button" className="btn btn--primary btn--small" disabled={card.isPending} aria-busy={card.isPending && card.variables?.id === pkg.id} onClick={() => card.mutate(pkg)}>
                      Оплатить картой
                    </button>
                  )}
                  {packages.data.methods.invoice && (
                    <button type="button" className="btn btn--secondary btn--small" onClick={() => setInvoicePackage(pkg)} aria-expanded={invoicePackage?.id === pkg.id}>
                      Счёт для юрлица
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <PaymentWaysHint methods={packages.data.methods} contact={packages.data.contact} />
        </>
      )}
      {invoicePackage && <InvoiceForm pkg={invoicePackage} onDone={() => setInvoicePackage(null)} />}
    </section>
  );
}

/** Who pays how: a person needs a card payment, a company an invoice; where one is off, whom to write to. */
function PaymentWaysHint({ methods, contact }: { methods: { card: boolean; invoice: boolean }; contact: string }) {
  const write = <a href={/^[^@\s]+@[^@\s]+$/.test(contact) ? `mailto:${contact}` : contact} className="link">{contact}</a>;
  if (methods.card && methods.invoice) return <p className="muted tokens-buy__hint">Частные лица и ИП платят картой, организации — картой или по счёту.</p>;
  if (methods.card) {
    return (
      <p className="muted tokens-buy__hint">
        Оплата картой — для всех, включая организации. Счета для юрлиц пока не выставляются: если нужен счёт, напишите нам — {write}.
      </p>
    );
  }
  if (methods.invoice) {
    return (
      <p className="muted tokens-buy__hint" role="note">
        Организации и ИП оплачивают пакеты по счёту. Оплата картой пока не подключена: частным лицам — напишите нам, и мы подскажем, как оплатить: {write}.
      </p>
    );
  }
  return (
    <p className="muted tokens-buy__hint" role="note">
      Оплата на сайте пока не подключена. Чтобы купить пакет, напишите нам — {write}.
    </p>
  );
}

const emptyRequisites: RequisitesInput = { name: '', inn: '', kpp: '', address: '' };

/** The buyer's requisites (the organization's saved ones to start with) and «Выставить счёт». */
function InvoiceForm({ pkg, onDone }: { pkg: TokenPackage; onDone: () => void }) {
  const queryClient = useQueryClient();
  const saved = useQuery(requisitesQueryOptions());
  const form = useForm<RequisitesInput>({ resolver: valibotResolver(RequisitesSchema), mode: 'onTouched', defaultValues: emptyRequisites });
  const { register, handleSubmit, reset, formState } = form;
  // One key per opened form: a double submit or a retry issues one invoice.
  const key = useIdempotencyKey();

  useEffect(() => {
    if (saved.data?.requisites) reset(saved.data.requisites);
  }, [saved.data, reset]);

  const issue = useMutation({
    mutationFn: (requisites: RequisitesInput) => createInvoice({ package_id: pkg.id, requisites, idempotency_key: key.key() }),
    onSuccess: async (invoice) => {
      toast.success(INVOICE_ISSUED);
      await Promise.all([queryClient.invalidateQueries({ queryKey: paymentKeys.payments() }), queryClient.invalidateQueries({ queryKey: paymentKeys.requisites() })]);
      onDone();
      await downloadInvoice(invoice).catch((error: Error) => toast.error(error.message));
    },
  });
  const submit = handleSubmit((values) => issue.mutateAsync(values).catch(() => undefined));
  const field = (name: keyof RequisitesInput, label: string, props: Record<string, unknown> = {}) => (
    <FormField id={`requisites-${name}`} label={label} error={formState.errors[name]?.message}>
      <input id={`requisites-${name}`} className="input" aria-invalid={Boolean(formState.errors[name])} {...props} {...register(name)} />
    </FormField>
  );

  return (
    <form className="form tokens-invoice-form" onSubmit={submit} noValidate aria-label="Счёт на оплату">
      <h3 className="tokens-invoice-form__title">
        Счёт за пакет «{pkg.name}»: {formatTokens(pkg.tokens)}, {formatRoubles(pkg.price_rub)}
      </h3>
      <p className="muted">Реквизиты покупателя{saved.data?.can_edit ? ' сохранятся для следующих счетов организации' : ''}.</p>
      {field('name', 'Название организации', { autoComplete: 'organization', maxLength: 300 })}
      <div className="form__grid">
        {field('inn', 'ИНН', { inputMode: 'numeric', maxLength: 12 })}
        {field('kpp', 'КПП (для организаций)', { maxLength: 9, autoCapitalize: 'characters' })}
      </div>
      {field('address', 'Юридический адрес', { maxLength: 500 })}
      {issue.isError && (
        <p className="form-error" role="alert">
          {issue.error.message}
        </p>
      )}
      <div className="form__row form__row--end">
        <button type="button" className="btn btn--ghost" onClick={onDone}>
          Отмена
        </button>
        <button type="submit" className="btn btn--primary" disabled={issue.isPending} aria-busy={issue.isPending}>
          Выставить счёт
        </button>
      </div>
    </form>
  );
}

const statusBadge: Record<Payment['status'], string> = { pending: 'badge--warning', paid: 'badge--success', canceled: 'badge--muted', refunded: 'badge--muted' };

/** Every payment of the user: card payments and invoices with their state and what can be done next. */
export function PaymentsCard() {
  const queryClient = useQueryClient();
  const payments = useQuery(paymentsQueryOptions());
  const cancel = useMutation({
    mutationFn: (payment: Payment) => cancelInvoice(payment.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentKeys.payments() }),
  });
  const download = useMutation({ mutationFn: (payment: Payment) => downloadInvoice(payment) });

  if (payments.data && payments.data.length === 0) return null;
  return (
    <section className="card tokens-payments" aria-labelledby="tokens-payments-title">
      <div className="card__header">
        <h2 id="tokens-payments-title" className="card__title">
          Платежи и счета
        </h2>
      </div>
      <LoadingLine query={payments} label="Загрузка платежей…" offlineText={notSavedOffline('платежи и счета')} />
      {payments.isError && <QueryError error={payments.error} onRetry={() => void payments.refetch()} />}
      {(cancel.isError || download.isError) && (
        <p className="form-error" role="alert">
          {(cancel.error ?? download.error)?.message}
        </p>
      )}
      {payments.data && payments.data.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <TableHead columns={['Дата', 'Способ', 'Пакет', 'Сумма', 'Статус']} actions />
            <tbody>
              {payments.data.map((payment) => (
                <tr key={payment.id} data-testid="payment-row">
                  <td data-label="Дата">{formatDate(payment.created_at)}</td>
                  <td data-label="Способ">
                    {paymentMethodLabels[payment.method]}
                    {payment.invoice_number !== null && ` № ${payment.invoice_number}`}
                  </td>
                  <td data-label="Пакет">{formatTokens(payment.tokens)}</td>
                  <td data-label="Сумма">
                    {formatRoubles(payment.amount_rub)}
                    {payment.refunded_rub > 0 && <span className="muted"> (возвращено {formatRoubles(payment.refunded_rub)})</span>}
                  </td>
                  <td data-label="Статус">
                    <span className={`badge ${statusBadge[payment.status]}`} title={payment.cancel_reason ?? undefined}>
                      {paymentStatusLabels[payment.status]}
                    </span>
                    {payment.cancel_reason && <span className="muted tokens-payments__reason">{payment.cancel_reason}</span>}
                  </td>
                  <td className="tokens-payments__actions">
                    {payment.method === 'invoice' && (
                      <button type="button" className="btn btn--ghost btn--small" onClick={() => download.mutate(payment)} disabled={download.isPending}>
                        PDF
                      </button>
                    )}
                    {payment.method === 'invoice' && payment.status === 'pending' && (
                      <button type="button" className="btn btn--ghost btn--small" onClick={() => cancel.mutate(payment)} disabled={cancel.isPending}>
                        Отменить
                      </button>
                    )}
                    {payment.method === 'card' && payment.status === 'pending' && payment.confirmation_url && (
                      <a className="btn btn--ghost btn--small" href={payment.confirmation_url}>
                        Оплатить
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Back from YooKassa (`/tokens?payment=<id>`): asks the server, which checks with YooKassa, and once the
 * payment is settled refreshes the balance and the ledger and says how it went.
 */
export function ReturnedPayment({ paymentId, onSettled }: { paymentId: string; onSettled: () => void }) {
  const queryClient = useQueryClient();
  const payment = useQuery({ ...paymentQueryOptions(paymentId), refetchInterval: (query) => (query.state.data?.status === 'pending' ? 3_000 : false) });
  const status = payment.data?.status;
  const cancelReason = payment.data?.cancel_reason ?? null;
  // Told once per settled status; the latest callback is read without re-running the effect.
  const settled = useRef(onSettled);
  settled.current = onSettled;
  useEffect(() => {
    if (!status || status === 'pending') return;
    void refreshTokenViews(queryClient);
    if (status === 'paid') {
      // The notification comes from the balance watcher (credit-notifications.ts), as for any credit.
      toast.success(PAYMENT_SUCCEEDED);
    } else if (status === 'canceled') {
      toast.error(`Платёж не прошёл${cancelReason ? `: ${cancelReason}` : ''}`);
    }
    settled.current();
  }, [status, cancelReason, queryClient]);
  if (payment.isError) return <QueryError error={payment.error} onRetry={() => void payment.refetch()} />;
  if (status === 'pending' || payment.isPending) return <p className="state-line" role="status">Проверяем оплату…</p>;
  return null;
}
