import * as v from 'valibot';
import { text } from './text.js';
import { EmailSchema } from './auth.js';
import { UuidSchema } from './common.js';
import { tokenMessages as m } from './messages.js';

// /api/v1/tokens/*: balance, history, cost of an analysis, admin credit.

export const BalanceSchema = v.object({ balance: v.number() });
export type Balance = v.InferOutput<typeof BalanceSchema>;

export const ledgerEntryTypes = ['welcome', 'admin_credit', 'analysis_debit', 'analysis_refund', 'adjustment', 'purchase', 'purchase_refund', 'transfer_in', 'transfer_out'] as const;
export type LedgerEntryType = (typeof ledgerEntryTypes)[number];

/** How the history screen names each kind of operation. */
export const ledgerEntryTypeLabels: Record<LedgerEntryType, string> = {
  welcome: 'Приветственный бонус',
  admin_credit: 'Начисление администратором',
  analysis_debit: 'Оплата анализа',
  analysis_refund: 'Возврат за анализ',
  adjustment: 'Корректировка',
  purchase: 'Покупка токенов',
  purchase_refund: 'Возврат платежа',
  transfer_in: 'Перевод в команде: получено',
  transfer_out: 'Перевод в команде: отправлено',
};

export const LedgerEntrySchema = v.object({
  id: v.string(),
  type: v.picklist(ledgerEntryTypes),
  /** Signed: credits positive, debits negative. */
  amount: v.number(),
  balance_after: v.number(),
  reason: v.nullable(v.string()),
  reference_id: v.nullable(v.string()),
  /** ISO timestamp. */
  created_at: v.string(),
});
export type LedgerEntry = v.InferOutput<typeof LedgerEntrySchema>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A date (`2025-01-31`, a whole day) or a full ISO timestamp with its offset. */
function isIsoDateOrTimestamp(value: string): boolean {
  if (!DATE_ONLY.test(value) && !TIMESTAMP.test(value)) return false;
  const parsed = new Date(value);
  // Rejects impossible days such as 2025-02-30, which Date would roll over.
  return !Number.isNaN(parsed.getTime()) && (!DATE_ONLY.test(value) || parsed.toISOString().startsWith(value));
}

const IsoDateSchema = v.pipe(text(m.dateInvalid), v.trim(), v.check(isIsoDateOrTimestamp, m.dateInvalid));

/**
 * Start of the period a `from`/`to` value covers, and its end: a date-only value is the whole UTC day,
 * so `from=2025-01-01&to=2025-01-31` includes everything on the 31st.
 */
export function periodBounds(from?: string, to?: string): { from?: Date; to?: Date } {
  const start = from ? new Date(from) : undefined;
  let end = to ? new Date(to) : undefined;
  if (end && to && DATE_ONLY.test(to)) end = new Date(end.getTime() + 24 * 3600 * 1000 - 1);
  return { from: start, to: end };
}

/** A whole number from the URL (query values arrive as strings). */
const queryInteger = (min: number, max: number, message: string) =>
  v.pipe(v.unknown(), v.transform(Number), v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

/** GET /tokens/history: newest first, optional type and period filters. */
export const HistoryQuerySchema = v.pipe(
  v.object({
    page: v.optional(queryInteger(1, 1_000_000, m.pageInvalid), 1),
    page_size: v.optional(queryInteger(1, 100, m.pageSizeInvalid), 20),
    type: v.optional(v.picklist(ledgerEntryTypes, m.entryTypeInvalid)),
    from: v.optional(IsoDateSchema),
    to: v.optional(IsoDateSchema),
  }),
  v.forward(
    v.check((query) => {
      const { from, to } = periodBounds(query.from, query.to);
      return !from || !to || from.getTime() <= to.getTime();
    }, m.periodInvalid),
    ['to'],
  ),
);
export type HistoryQuery = v.InferInput<typeof HistoryQuerySchema>;

export const HistoryPageSchema = v.object({
  items: v.array(LedgerEntrySchema),
  total: v.number(),
  page: v.number(),
  page_size: v.number(),
});
export type HistoryPage = v.InferOutput<typeof HistoryPageSchema>;

/**
 * The kinds of analysis priced per campaign: what `POST /tokens/calculate-cost` quotes and an audit
 * start charges. `scoring` is the base and always included; `semantic` is priced as a share of it
 * (prices in `server/tokens/pricing.ts`). The page check (per page) and the AI plan
 * (flat) are not priced per campaign, so they are not kinds here: a quote with them would name a price
 * nothing charges, and an old client sending `relevance` or `ai` gets a 422.
 */
export const analysisKinds = ['scoring', 'semantic'] as const;
export type AnalysisKind = (typeof analysisKinds)[number];
export const analysisKindLabels: Record<AnalysisKind, string> = {
  scoring: 'Скоринг кампаний',
  semantic: 'Семантический анализ',
};

const CountSchema = v.pipe(v.number(m.countInvalid), v.integer(m.countInvalid), v.minValue(0, m.countInvalid), v.maxValue(10_000_000, m.countInvalid));

/** What the cost of one campaign depends on; id and name are echoed back in the breakdown. */
export const CampaignCountsSchema = v.object(
  {
    id: v.optional(v.union([v.pipe(text(), v.maxLength(200, m.campaignIdInvalid)), v.number()], m.campaignIdInvalid)),
    name: v.optional(v.pipe(text(m.campaignNameMax), v.maxLength(500, m.campaignNameMax))),
    keywords_count: CountSchema,
    ads_count: CountSchema,
    groups_count: v.optional(CountSchema),
  },
  m.countsRequired,
);
export type CampaignCounts = v.InferOutput<typeof CampaignCountsSchema>;

// An object's own message is what valibot reports for a missing key, so each object names what is missing.
export const CalculateCostSchema = v.object(
  {
    campaigns: v.pipe(v.array(CampaignCountsSchema, m.campaignsRequired), v.minLength(1, m.campaignsRequired), v.maxLength(1000, m.campaignsTooMany)),
    analysis_kinds: v.optional(v.array(v.picklist(analysisKinds, m.analysisKindInvalid), m.analysisKindInvalid)),
  },
  m.campaignsRequired,
);
export type CalculateCostRequest = v.InferInput<typeof CalculateCostSchema>;

export const CostLineSchema = v.object({ label: v.string(), amount: v.number() });
export const CampaignCostSchema = v.object({
  /** Position of the campaign in the request. */
  index: v.number(),
  id: v.optional(v.union([v.string(), v.number()])),
  name: v.optional(v.string()),
  cost: v.number(),
  items: v.array(CostLineSchema),
});
export type CampaignCost = v.InferOutput<typeof CampaignCostSchema>;

export const CostResponseSchema = v.object({
  total: v.number(),
  currency: v.literal('tokens'),
  breakdown: v.array(CampaignCostSchema),
  balance: v.number(),
  /** Whether the caller's balance covers the total. */
  sufficient: v.boolean(),
});
export type CostResponse = v.InferOutput<typeof CostResponseSchema>;

/** POST /admin/tokens/credit (platform admin): the recipient by id or by email. */
export const AdminCreditSchema = v.pipe(
  v.object({
    user_id: v.optional(UuidSchema),
    email: v.optional(EmailSchema),
    amount: v.pipe(v.number(m.amountInvalid), v.integer(m.amountInvalid), v.minValue(1, m.amountInvalid), v.maxValue(1_000_000, m.amountTooLarge)),
    reason: v.pipe(text(m.reasonRequired), v.trim(), v.nonEmpty(m.reasonRequired), v.maxLength(500, m.reasonMax)),
    /** Retrying with the same key never credits twice; without one every request is a new credit. */
    idempotency_key: v.optional(v.pipe(text(m.idempotencyKeyInvalid), v.trim(), v.minLength(1, m.idempotencyKeyInvalid), v.maxLength(200, m.idempotencyKeyInvalid))),
  }, m.creditFieldsRequired),
  v.check((body) => Boolean(body.user_id) !== Boolean(body.email), m.recipientRequired),
);
export type AdminCreditRequest = v.InferInput<typeof AdminCreditSchema>;

export const AdminCreditResponseSchema = v.object({ balance: v.number(), entry: LedgerEntrySchema });
export type AdminCreditResponse = v.InferOutput<typeof AdminCreditResponseSchema>;
