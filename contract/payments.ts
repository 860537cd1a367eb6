import * as v from 'valibot';
import { text } from './text.js';
import { UuidSchema } from './common.js';
import { paymentMessages as m } from './messages.js';
import { isCompanyInn, isInnShaped, isValidInn, isValidKpp } from './tax-ids.js';

// Buying tokens (/api/v1/tokens/packages, /payments, /invoices, /requisites), the admin's invoices
// (/api/v1/admin/invoices) and moving tokens inside a team (/api/v1/organizations/members/:userId/transfer).

/** A package of tokens for sale; prices are whole roubles (TOKEN_PACKAGES_JSON, server/payments/config.ts). */
export const TokenPackageSchema = v.object({
  id: v.string(),
  /** How screens and invoices name it, in Russian («Старт»); `id` is for machines only. */
  name: v.string(),
  tokens: v.number(),
  price_rub: v.number(),
});
export type TokenPackage = v.InferOutput<typeof TokenPackageSchema>;

export const PackagesResponseSchema = v.object({
  packages: v.array(TokenPackageSchema),
  /**
   * Which ways to pay the server offers: card only when YooKassa is configured; invoices only when the
   * seller's requisites are real (not the placeholders of server/payments/config.ts).
   */
  methods: v.object({ card: v.boolean(), invoice: v.boolean() }),
  /** Whom to write to when no way offered fits (a person without a card payment, a company without invoices). */
  contact: v.string(),
});
export type PackagesResponse = v.InferOutput<typeof PackagesResponseSchema>;

export const paymentMethods = ['card', 'invoice'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
export const paymentStatuses = ['pending', 'paid', 'canceled', 'refunded'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  pending: 'Ожидает оплаты',
  paid: 'Оплачен',
  canceled: 'Отменён',
  refunded: 'Возвращён',
};
export const paymentMethodLabels: Record<PaymentMethod, string> = { card: 'Картой', invoice: 'По счёту' };

const IdempotencyKeySchema = v.pipe(text(m.idempotencyKeyInvalid), v.trim(), v.minLength(1, m.idempotencyKeyInvalid), v.maxLength(200, m.idempotencyKeyInvalid));
const PackageIdSchema = v.pipe(text(m.packageRequired), v.trim(), v.nonEmpty(m.packageRequired), v.maxLength(50, m.packageUnknown));

/** The organization's requisites as an invoice names the buyer (as stored and answered). */
const StoredRequisitesSchema = v.object({ name: v.string(), inn: v.string(), kpp: v.string(), address: v.string() });

/** The requisites as a form or an API client sends them: ИНН and КПП checked (contract/tax-ids.ts). */
export const RequisitesSchema = v.pipe(
  v.object(
    {
      name: v.pipe(text(m.nameRequired), v.trim(), v.nonEmpty(m.nameRequired), v.maxLength(300, m.nameMax)),
      /** 10 digits for a company, 12 for an individual entrepreneur; control digits checked. */
      inn: v.pipe(text(m.innInvalid), v.trim(), v.check(isInnShaped, m.innInvalid), v.check(isValidInn, m.innChecksum)),
      /** Companies have one (9 characters), entrepreneurs none. */
      kpp: v.optional(v.pipe(text(m.kppInvalid), v.trim(), v.toUpperCase(), v.check((value) => value === '' || isValidKpp(value), m.kppInvalid)), ''),
      address: v.pipe(text(m.addressRequired), v.trim(), v.nonEmpty(m.addressRequired), v.maxLength(500, m.addressMax)),
    },
    m.requisitesRequired,
  ),
  v.forward(
    v.partialCheck([['inn'], ['kpp']], (input) => !isCompanyInn(input.inn) || input.kpp !== '', m.kppRequired),
    ['kpp'],
  ),
  v.forward(
    v.partialCheck([['inn'], ['kpp']], (input) => isCompanyInn(input.inn) || input.kpp === '', m.kppForbidden),
    ['kpp'],
  ),
);
export type Requisites = v.InferOutput<typeof RequisitesSchema>;
export type RequisitesInput = v.InferInput<typeof RequisitesSchema>;

export const SavedRequisitesSchema = v.object({ requisites: v.nullable(StoredRequisitesSchema), can_edit: v.boolean() });
export type SavedRequisites = v.InferOutput<typeof SavedRequisitesSchema>;

export const PaymentSchema = v.object({
  id: v.string(),
  method: v.picklist(paymentMethods),
  status: v.picklist(paymentStatuses),
  package_id: v.string(),
  tokens: v.number(),
  /** Whole roubles. */
  amount_rub: v.number(),
  /** Roubles returned by refunds so far. */
  refunded_rub: v.number(),
  /** Card: where the user confirms the payment (while pending). */
  confirmation_url: v.nullable(v.string()),
  /** Invoice: its number («Счёт № …»). */
  invoice_number: v.nullable(v.number()),
  requisites: v.nullable(StoredRequisitesSchema),
  cancel_reason: v.nullable(v.string()),
  created_at: v.string(),
  paid_at: v.nullable(v.string()),
});
export type Payment = v.InferOutput<typeof PaymentSchema>;

export const PaymentListSchema = v.object({ items: v.array(PaymentSchema) });
export type PaymentList = v.InferOutput<typeof PaymentListSchema>;

/** POST /tokens/payments: a card payment through YooKassa. Same key: the same payment. */
export const CreateCardPaymentSchema = v.object({ package_id: PackageIdSchema, idempotency_key: IdempotencyKeySchema }, m.packageRequired);
export type CreateCardPayment = v.InferInput<typeof CreateCardPaymentSchema>;

/** POST /tokens/invoices: an invoice for the organization; owners and admins keep the requisites for next time. */
export const CreateInvoiceSchema = v.object({ package_id: PackageIdSchema, requisites: RequisitesSchema, idempotency_key: IdempotencyKeySchema }, m.packageRequired);
export type CreateInvoice = v.InferInput<typeof CreateInvoiceSchema>;

/** A YooKassa notification as it arrives; only `event`, `object.id` and the hints below are read, the rest is fetched back. */
export const YookassaNotificationSchema = v.object({
  type: v.optional(v.pipe(text(m.notificationInvalid), v.maxLength(50, m.notificationInvalid))),
  event: v.pipe(text(m.notificationInvalid), v.maxLength(100, m.notificationInvalid)),
  object: v.object(
    {
      id: v.pipe(text(m.notificationInvalid), v.maxLength(100, m.notificationInvalid)),
      // Hints only, to tell at once whether the object can concern one of our payments: a payment names ours
      // in its metadata, a refund names its payment. What counts is fetched back from YooKassa.
      metadata: v.optional(v.object({ payment_id: v.optional(v.pipe(text(m.notificationInvalid), v.maxLength(100, m.notificationInvalid))) })),
      payment_id: v.optional(v.pipe(text(m.notificationInvalid), v.maxLength(100, m.notificationInvalid))),
    },
    m.notificationInvalid,
  ),
}, m.notificationInvalid);
export type YookassaNotification = v.InferOutput<typeof YookassaNotificationSchema>;

export const AdminInvoiceSchema = v.object({
  ...PaymentSchema.entries,
  user: v.object({ id: v.string(), email: v.string(), full_name: v.string() }),
  organization: v.nullable(v.object({ id: v.string(), name: v.string() })),
});
export type AdminInvoice = v.InferOutput<typeof AdminInvoiceSchema>;

export const AdminInvoiceQuerySchema = v.object({ status: v.optional(v.picklist(paymentStatuses, m.statusInvalid)) });
export const AdminInvoiceListSchema = v.object({ items: v.array(AdminInvoiceSchema) });
export type AdminInvoiceList = v.InferOutput<typeof AdminInvoiceListSchema>;

export const PaymentParamsSchema = v.object({ id: UuidSchema });

// ---- team balance ----

export const transferDirections = ['to_member', 'from_member'] as const;
export type TransferDirection = (typeof transferDirections)[number];

/** POST /organizations/members/:userId/transfer (owner): move tokens to the member or back. */
export const TransferSchema = v.object(
  {
    direction: v.picklist(transferDirections, m.directionInvalid),
    amount: v.pipe(v.number(m.transferAmountInvalid), v.integer(m.transferAmountInvalid), v.minValue(1, m.transferAmountInvalid), v.maxValue(10_000_000, m.transferAmountInvalid)),
    /** Retrying with the same key never moves twice. */
    idempotency_key: IdempotencyKeySchema,
  },
  m.transferFieldsRequired,
);
export type TransferRequest = v.InferInput<typeof TransferSchema>;

export const TransferResponseSchema = v.object({
  /** The owner's balance after the move. */
  owner_balance: v.number(),
  member_balance: v.number(),
  /** False when the key had been used: nothing moved again. */
  applied: v.boolean(),
});
export type TransferResponse = v.InferOutput<typeof TransferResponseSchema>;
