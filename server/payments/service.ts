import type { FastifyBaseLogger } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { paymentMessages as m } from '../../contract/messages.js';
import type { AdminInvoice, Payment, PaymentStatus, Requisites, TokenPackage } from '../../contract/payments.js';
import type { Caller } from '../auth/authenticate.js';
import type { DB } from '../db/database.js';
import type { TokenPaymentsTable } from '../db/tables/payments.js';
import { fullName, iso } from '../lib/api-values.js';
import { conflict, forbidden, HttpError, notFound } from '../lib/errors.js';
import { applyLedgerEntry, getOwnBalance } from '../tokens/ledger.js';
import { formatCountOf } from '../../contract/format.js';
import { sellerPlaceholders, type PaymentsConfig } from '../config/payments.js';
import { YookassaError, valueToKopecks, type YookassaClient, type YookassaPayment } from './yookassa.js';

type PaymentRow = Selectable<TokenPaymentsTable>;

const unavailable = (message: string, code: string) => new HttpError(503, code, message);

export function findPackage(config: PaymentsConfig, packageId: string): TokenPackage {
  const found = config.packages.find((item) => item.id === packageId);
  if (!found) throw new HttpError(422, 'PACKAGE_UNKNOWN', m.packageUnknown, [{ loc: ['body', 'package_id'], msg: m.packageUnknown }]);
  return found;
}

export function toPaymentBody(row: PaymentRow): Payment {
  return {
    id: row.id,
    method: row.method,
    status: row.status,
    package_id: row.package_id,
    tokens: row.tokens,
    amount_rub: Number(row.amount_kopecks) / 100,
    refunded_rub: Number(row.refunded_kopecks) / 100,
    confirmation_url: row.status === 'pending' ? row.confirmation_url : null,
    invoice_number: row.invoice_number === null ? null : Number(row.invoice_number),
    requisites: row.requisites,
    cancel_reason: row.cancel_reason,
    created_at: iso(row.created_at),
    paid_at: iso(row.paid_at),
  };
}

/** The caller's payments (cards and invoices), newest first. */
export async function listPayments(db: DB, userId: string): Promise<Payment[]> {
  const rows = await db.selectFrom('token_payments').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(100).execute();
  return rows.map(toPaymentBody);
}

async function ownPayment(db: DB, caller: Caller, id: string): Promise<PaymentRow> {
  const row = await db.selectFrom('token_payments').selectAll().where('id', '=', id).where('user_id', '=', caller.userId).executeTakeFirst();
  if (!row) throw notFound(m.paymentNotFound, 'PAYMENT_NOT_FOUND');
  return row;
}

/**
 * Credits a paid payment's tokens, inside the caller's transaction, with the payment row locked. The
 * ledger key is the payment's id, so whatever path gets here twice (a repeated notification, the user's
 * return to the site, an admin's second click) credits once.
 */
async function creditPayment(trx: DB, payment: PaymentRow, decidedBy: string | null) {
  await trx
    .updateTable('token_payments')
    .set({ status: 'paid', paid_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, cancel_reason: null, decided_by: decidedBy })
    .where('id', '=', payment.id)
    .execute();
  const tokens = formatCountOf(payment.tokens, ['токен', 'токена', 'токенов']);
  const reason = payment.method === 'invoice' ? `Оплата счёта № ${payment.invoice_number}: ${tokens}` : `Оплата картой: ${tokens}`;
  return applyLedgerEntry(trx, {
    userId: payment.user_id,
    organizationId: payment.organization_id,
    type: 'purchase',
    amount: payment.tokens,
    idempotencyKey: `payment:${payment.id}`,
    reason,
    referenceId: payment.id,
    createdBy: decidedBy,
  });
}

// ---------------------------------------------------------------- cards (YooKassa)

/**
 * Creates (or, for a key used before, returns) a card payment: our row first, then YooKassa's payment
 * with our row's id as the Idempotence-Key, so a retry after a lost answer finds the same payment.
 */
export async function createCardPayment(
  db: DB,
  yookassa: YookassaClient | null,
  config: PaymentsConfig,
  publicUrl: string,
  caller: Caller,
  input: { packageId: string; idempotencyKey: string },
  log: FastifyBaseLogger,
): Promise<Payment> {
  if (!yookassa) throw unavailable(m.cardUnavailable, 'CARD_PAYMENTS_DISABLED');
  const pkg = findPackage(config, input.packageId);
  const inserted = await db
    .insertInto('token_payments')
    .values({
      user_id: caller.userId,
      organization_id: caller.organizationId,
      method: 'card',
      package_id: pkg.id,
      tokens: pkg.tokens,
      amount_kopecks: pkg.price_rub * 100,
      idempotency_key: input.idempotencyKey,
    })
    .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
  const row = inserted ?? (await db.selectFrom('token_payments').selectAll().where('user_id', '=', caller.userId).where('idempotency_key', '=', input.idempotencyKey).executeTakeFirstOrThrow());
  if (row.method !== 'card' || row.package_id !== pkg.id) throw conflict('Ключ идемпотентности уже использован для другого платежа', 'IDEMPOTENCY_KEY_REUSED');
  if (row.provider_payment_id) return toPaymentBody(row);

  let created: YookassaPayment;
  try {
    created = await yookassa.createPayment({
      amountKopecks: Number(row.amount_kopecks),
      description: `Reklama Lab: ${pkg.tokens} токенов (пакет «${pkg.name}»)`,
      returnUrl: `${publicUrl.replace(/\/+$/, '')}/tokens?payment=${row.id}`,
      metadata: { payment_id: row.id },
      idempotenceKey: row.id,
    });
  } catch (error) {
    log.error({ err: error, paymentId: row.id }, 'YooKassa payment creation failed');
    // A refusal (4xx) is final; a timeout or a 5xx may still have created it, and a retry with the same key finds it.
    if (error instanceof YookassaError && error.status < 500) {
      await db.updateTable('token_payments').set({ status: 'canceled', cancel_reason: 'Платёжный сервис отклонил платёж', updated_at: sql<Date>`now()` }).where('id', '=', row.id).execute();
    }
    throw new HttpError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', m.providerUnavailable);
  }
  const updated = await db
    .updateTable('token_payments')
    .set({ provider_payment_id: created.id, confirmation_url: created.confirmation?.confirmation_url ?? null, updated_at: sql<Date>`now()` })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPaymentBody(updated);
}

/**
 * Applies what YooKassa says about a payment (always an object fetched from its API, never a
 * notification's body): succeeded credits the tokens once, canceled closes a pending payment.
 * Returns the payment, or null when it is not ours or its amount is not the one we asked for.
 */
export async function applyProviderPayment(db: DB, provider: YookassaPayment, log: FastifyBaseLogger): Promise<PaymentRow | null> {
  return db.transaction().execute(async (trx) => {
    const ourId = provider.metadata?.payment_id;
    const row = await trx
      .selectFrom('token_payments')
      .selectAll()
      .where((eb) => eb.or([eb('provider_payment_id', '=', provider.id), ...(ourId && /^[0-9a-f-]{36}$/i.test(ourId) ? [eb('id', '=', ourId)] : [])]))
      .where('method', '=', 'card')
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    if (provider.amount.currency !== 'RUB' || valueToKopecks(provider.amount.value) !== Number(row.amount_kopecks)) {
      log.warn({ paymentId: row.id, providerId: provider.id, amount: provider.amount }, 'YooKassa payment amount differs from ours: ignored');
      return null;
    }
    if (!row.provider_payment_id) {
      await trx.updateTable('token_payments').set({ provider_payment_id: provider.id }).where('id', '=', row.id).execute();
    }
    if (provider.status === 'succeeded' && provider.paid !== false && (row.status === 'pending' || row.status === 'canceled')) {
      await creditPayment(trx, row, null);
    } else if (provider.status === 'canceled' && row.status === 'pending') {
      await trx
        .updateTable('token_payments')
        .set({ status: 'canceled', cancel_reason: cancellationText(provider.cancellation_details?.reason), updated_at: sql<Date>`now()` })
        .where('id', '=', row.id)
        .execute();
    }
    return trx.selectFrom('token_payments').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  });
}

/** YooKassa's cancellation reasons a person can act on, in Russian; the rest as one generic line. */
function cancellationText(reason: string | undefined): string {
  switch (reason) {
    case 'insufficient_funds':
      return 'Недостаточно средств на карте';
    case 'expired_on_confirmation':
      return 'Время на подтверждение платежа истекло';
    case 'canceled_by_merchant':
      return 'Платёж отменён магазином';
    case '3d_secure_failed':
      return 'Не пройдена проверка 3-D Secure';
    case 'card_expired':
      return 'Истёк срок действия карты';
    default:
      return 'Платёж отменён платёжным сервисом';
  }
}

/**
 * A refund YooKassa reports (fetched back by its id): debits the refunded share of the tokens once per
 * refund id, as far as the balance allows (tokens already spent on analyses are not taken below zero).
 */
export async function applyProviderRefund(db: DB, refund: { id: string; payment_id: string; status: string; amount: { value: string; currency: string } }): Promise<boolean> {
  if (refund.status !== 'succeeded') return false;
  return db.transaction().execute(async (trx) => {
    const payment = await trx.selectFrom('token_payments').selectAll().where('provider_payment_id', '=', refund.payment_id).forUpdate().executeTakeFirst();
    if (!payment || payment.status === 'pending' || payment.status === 'canceled') return false;
    const refundKopecks = valueToKopecks(refund.amount.value);
    if (!Number.isFinite(refundKopecks) || refundKopecks <= 0) return false;
    const share = Math.min(payment.tokens, Math.round((payment.tokens * refundKopecks) / Number(payment.amount_kopecks)));
    // Only the buyer's own tokens go back with the money: never a welcome credit nor an owner's grant.
    const tokens = Math.min(share, await getOwnBalance(trx, payment.user_id));
    const recorded = await trx
      .insertInto('token_payment_refunds')
      .values({ provider_refund_id: refund.id, payment_id: payment.id, amount_kopecks: refundKopecks, tokens_debited: tokens })
      .onConflict((oc) => oc.column('provider_refund_id').doNothing())
      .returning('provider_refund_id')
      .executeTakeFirst();
    if (!recorded) return false;
    if (tokens > 0) {
      await applyLedgerEntry(trx, {
        userId: payment.user_id,
        organizationId: payment.organization_id,
        type: 'purchase_refund',
        amount: -tokens,
        idempotencyKey: `refund:${refund.id}`,
        reason: `Возврат платежа: ${refund.amount.value} ₽`,
        referenceId: payment.id,
      });
    }
    const refunded = Number(payment.refunded_kopecks) + refundKopecks;
    await trx
      .updateTable('token_payments')
      .set({ refunded_kopecks: refunded, status: refunded >= Number(payment.amount_kopecks) ? 'refunded' : payment.status, updated_at: sql<Date>`now()` })
      .where('id', '=', payment.id)
      .execute();
    return true;
  });
}

/**
 * The notification webhook. Its body is only a hint of which object changed: the object is fetched back
 * from YooKassa with our credentials and only that answer counts, so a forged notification changes nothing.
 */
export async function handleNotification(db: DB, yookassa: YookassaClient, event: string, objectId: string, log: FastifyBaseLogger): Promise<void> {
  if (event.startsWith('payment.')) {
    const payment = await yookassa.getPayment(objectId);
    if (!payment) {
      log.warn({ objectId, event }, 'YooKassa notification for an unknown payment: ignored');
      return;
    }
    await applyProviderPayment(db, payment, log);
  } else if (event === 'refund.succeeded') {
    const refund = await yookassa.getRefund(objectId);
    if (!refund) {
      log.warn({ objectId, event }, 'YooKassa notification for an unknown refund: ignored');
      return;
    }
    await applyProviderRefund(db, refund);
  }
}

/** One payment of the caller; a pending card payment is checked with YooKassa first (the user is back from paying). */
export async function getPayment(db: DB, yookassa: YookassaClient | null, caller: Caller, id: string, log: FastifyBaseLogger): Promise<Payment> {
  const row = await ownPayment(db, caller, id);
  if (row.method === 'card' && row.status === 'pending' && row.provider_payment_id && yookassa) {
    try {
      const provider = await yookassa.getPayment(row.provider_payment_id);
      if (provider) return toPaymentBody((await applyProviderPayment(db, provider, log)) ?? row);
    } catch (error) {
      // The notification will bring the news later; the user sees «ожидает оплаты» meanwhile.
      log.warn({ err: error, paymentId: row.id }, 'YooKassa payment check failed');
    }
  }
  return toPaymentBody(row);
}

// ---------------------------------------------------------------- invoices

export async function getRequisites(db: DB, caller: Caller): Promise<{ requisites: Requisites | null; can_edit: boolean }> {
  const row = await db.selectFrom('organization_requisites').select(['name', 'inn', 'kpp', 'address']).where('organization_id', '=', caller.organizationId).executeTakeFirst();
  return { requisites: row ?? null, can_edit: caller.organizationRole !== 'member' };
}

export async function saveRequisites(db: DB, caller: Caller, requisites: Requisites): Promise<void> {
  if (caller.organizationRole === 'member') throw forbidden(m.requisitesManagersOnly, 'FORBIDDEN');
  await db
    .insertInto('organization_requisites')
    .values({ organization_id: caller.organizationId, ...requisites })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...requisites, updated_at: sql<Date>`now()` }))
    .execute();
}

/**
 * An invoice for a package, numbered from one sequence. Owners and admins keep the requisites as the
 * organization's for next time; the invoice keeps its own copy either way.
 */
export async function createInvoice(db: DB, config: PaymentsConfig, caller: Caller, input: { packageId: string; requisites: Requisites; idempotencyKey: string }): Promise<Payment> {
  // An invoice with placeholder bank details would send a company's money nowhere.
  if (sellerPlaceholders(config.seller).length > 0) throw unavailable(m.invoicesUnavailable.replace('{contact}', config.seller.contact), 'INVOICES_DISABLED');
  const pkg = findPackage(config, input.packageId);
  return db.transaction().execute(async (trx) => {
    if (caller.organizationRole !== 'member') await saveRequisites(trx, caller, input.requisites);
    const inserted = await trx
      .insertInto('token_payments')
      .values({
        user_id: caller.userId,
        organization_id: caller.organizationId,
        method: 'invoice',
        package_id: pkg.id,
        tokens: pkg.tokens,
        amount_kopecks: pkg.price_rub * 100,
        idempotency_key: input.idempotencyKey,
        invoice_number: sql`nextval('token_invoice_number_seq')`,
        requisites: JSON.stringify(input.requisites),
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    const row = inserted ?? (await trx.selectFrom('token_payments').selectAll().where('user_id', '=', caller.userId).where('idempotency_key', '=', input.idempotencyKey).executeTakeFirstOrThrow());
    if (row.method !== 'invoice' || row.package_id !== pkg.id) throw conflict('Ключ идемпотентности уже использован для другого платежа', 'IDEMPOTENCY_KEY_REUSED');
    return toPaymentBody(row);
  });
}

/** The invoice behind a PDF: the caller's own, or any for a platform admin. */
export async function invoiceForPdf(db: DB, caller: Caller, id: string): Promise<PaymentRow> {
  const row = await db
    .selectFrom('token_payments')
    .selectAll()
    .where('id', '=', id)
    .where('method', '=', 'invoice')
    .$if(caller.role !== 'admin', (query) => query.where('user_id', '=', caller.userId))
    .executeTakeFirst();
  if (!row) throw notFound(m.invoiceNotFound, 'INVOICE_NOT_FOUND');
  return row;
}

/** The buyer withdraws an unpaid invoice of theirs. */
export async function cancelOwnInvoice(db: DB, caller: Caller, id: string): Promise<Payment> {
  const row = await db
    .updateTable('token_payments')
    .set({ status: 'canceled', cancel_reason: 'Отменён покупателем', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('user_id', '=', caller.userId)
    .where('method', '=', 'invoice')
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (row) return toPaymentBody(row);
  const existing = await ownPayment(db, caller, id);
  if (existing.method !== 'invoice') throw notFound(m.invoiceNotFound, 'INVOICE_NOT_FOUND');
  throw conflict(m.invoiceNotPending, 'INVOICE_NOT_PENDING');
}

/**
 * A platform admin's decision on an invoice: paid (the money is on the account: tokens credited) or
 * canceled. Row-locked, so two admins clicking at once credit once; a second «paid» on a paid invoice
 * answers the invoice as it is (the same request again), any other change of a decided invoice is 409.
 * The decision and its audit-log row are written in one transaction.
 */
export async function decideInvoice(db: DB, adminId: string, id: string, decision: 'paid' | 'canceled'): Promise<{ invoice: AdminInvoice; applied: boolean }> {
  const applied = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('token_payments').selectAll().where('id', '=', id).where('method', '=', 'invoice').forUpdate().executeTakeFirst();
    if (!row) throw notFound(m.invoiceNotFound, 'INVOICE_NOT_FOUND');
    if (row.status === decision) return false;
    if (row.status !== 'pending') throw conflict(m.invoiceNotPending, 'INVOICE_NOT_PENDING');
    let payload: Record<string, unknown> = { invoice_id: row.id, invoice_number: Number(row.invoice_number), tokens: row.tokens, amount_rub: Number(row.amount_kopecks) / 100 };
    if (decision === 'paid') {
      const credit = await creditPayment(trx, row, adminId);
      payload = { ...payload, entry_id: credit.entry.id, balance_after: credit.balance };
    } else {
      await trx
        .updateTable('token_payments')
        .set({ status: 'canceled', cancel_reason: 'Отменён администратором', decided_by: adminId, updated_at: sql<Date>`now()` })
        .where('id', '=', row.id)
        .execute();
    }
    await trx
      .insertInto('audit_log')
      .values({ actor_user_id: adminId, action: decision === 'paid' ? 'invoice.mark_paid' : 'invoice.cancel', target_user_id: row.user_id, organization_id: row.organization_id, payload: JSON.stringify(payload) })
      .execute();
    return true;
  });
  const [invoice] = await listAdminInvoices(db, { id });
  return { invoice: invoice!, applied };
}

export async function listAdminInvoices(db: DB, filter: { status?: PaymentStatus; id?: string }): Promise<AdminInvoice[]> {
  const rows = await db
    .selectFrom('token_payments as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('organizations as o', 'o.id', 'p.organization_id')
    .selectAll('p')
    .select(['u.email', 'u.first_name', 'u.last_name', 'o.name as organization_name'])
    .where('p.method', '=', 'invoice')
    .$if(filter.status !== undefined, (query) => query.where('p.status', '=', filter.status!))
    .$if(filter.id !== undefined, (query) => query.where('p.id', '=', filter.id!))
    .orderBy('p.created_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => ({
    ...toPaymentBody(row),
    user: { id: row.user_id, email: row.email, full_name: fullName(row.first_name, row.last_name) },
    organization: row.organization_id && row.organization_name !== null ? { id: row.organization_id, name: row.organization_name } : null,
  }));
}
