import * as v from 'valibot';
import { UuidSchema } from './common.js';
import { changeMessages as m } from './messages.js';
import { OrganizationRoleSchema } from './organizations.js';

// Applying an audit's accepted suggestions to the Yandex Direct account through its API, the journal and undo.

/**
 * What one item writes: a campaign's or a group's whole negative list, a campaign's whole list of excluded
 * network sites, a keyword's text, a keyword paused, a keyword's bids (manual strategies only), an ad's texts.
 */
export const changeKinds = ['campaign_negatives', 'campaign_excluded_sites', 'group_negatives', 'keyword_phrase', 'keyword_state', 'keyword_bids', 'ad_texts'] as const;
export type ChangeKind = (typeof changeKinds)[number];

export const changeSetStatuses = ['preview', 'applying', 'applied', 'partly_applied', 'failed', 'undoing'] as const;
export type ChangeSetStatus = (typeof changeSetStatuses)[number];

export const changeItemStatuses = ['pending', 'applied', 'failed', 'undone', 'undo_refused', 'undo_failed'] as const;
export type ChangeItemStatus = (typeof changeItemStatuses)[number];

/**
 * Values of a Direct object's fields, by their API names (`NegativeKeywords`, `ExcludedSites`, `Keyword`,
 * `State`, `SearchBid`, `NetworkBid`, `Title`, `Title2`, `Text`, `Href`, `DisplayUrlPath`): a list for
 * negatives and sites, a string (or null: empty) for the rest; bids as the API's integer micro-units
 * (roubles × 1 000 000) in a string, so nothing is lost to floating point.
 */
export const DirectValuesSchema = v.record(v.string(), v.nullable(v.union([v.string(), v.array(v.string())])));
export type DirectValues = v.InferOutput<typeof DirectValuesSchema>;

/** What an item asks for: negatives (or sites) added to the list as it is when written, or fields set. */
export interface PlannedChange {
  add?: string[];
  set?: Record<string, string>;
  /** A bid change as the audit advised it (× the bid read in the preview); the preview turns it into `set`. */
  bidFactor?: number;
}

/** An accepted suggestion the API cannot carry (a keyword removal, a callout…), said in the preview. */
export const SkippedSuggestionSchema = v.object({ suggestion_id: v.string(), label: v.string(), reason: v.string() });
export type SkippedSuggestion = v.InferOutput<typeof SkippedSuggestionSchema>;

export const ChangeItemSchema = v.object({
  id: v.string(),
  kind: v.picklist(changeKinds),
  /** The Direct object's id (campaign, group, keyword or ad). */
  object_id: v.string(),
  label: v.string(),
  /** As read when the preview was made. */
  before: DirectValuesSchema,
  after: DirectValuesSchema,
  /** E.g. an ad goes to moderation again. */
  warning: v.nullable(v.string()),
  status: v.picklist(changeItemStatuses),
  /** Yandex's error, or why an undo was refused. */
  message: v.nullable(v.string()),
  /** What the apply replaced and wrote (the journal's values). */
  replaced: v.nullable(DirectValuesSchema),
  written: v.nullable(DirectValuesSchema),
  applied_at: v.nullable(v.string()),
  undone_at: v.nullable(v.string()),
  /** Whether an undo may still be asked (applied, within 30 days). */
  undoable: v.boolean(),
  /** Chosen to be applied (the preview's checkbox); an item left out is never written. */
  selected: v.boolean(),
});
export type ChangeItem = v.InferOutput<typeof ChangeItemSchema>;

export const ChangeSetSchema = v.object({
  id: v.string(),
  project_id: v.string(),
  analysis_id: v.string(),
  status: v.picklist(changeSetStatuses),
  /** API points the writes (and the reads before them) will spend, by Direct's points table. */
  units_estimate: v.number(),
  units_spent: v.number(),
  created_at: v.string(),
  created_by: v.nullable(v.string()),
  applied_at: v.nullable(v.string()),
  applied_by: v.nullable(v.string()),
  error: v.nullable(v.string()),
  items: v.array(ChangeItemSchema),
  skipped: v.array(SkippedSuggestionSchema),
  /** Whether the caller may apply and undo (the organization's setting). */
  can_apply: v.boolean(),
});
export type ChangeSet = v.InferOutput<typeof ChangeSetSchema>;

export const JournalEntrySchema = v.object({
  item_id: v.string(),
  label: v.string(),
  action: v.picklist(['apply', 'undo']),
  outcome: v.picklist(['done', 'failed', 'refused']),
  user: v.nullable(v.string()),
  at: v.string(),
  replaced: v.nullable(DirectValuesSchema),
  written: v.nullable(DirectValuesSchema),
  message: v.nullable(v.string()),
});
export type JournalEntry = v.InferOutput<typeof JournalEntrySchema>;

export const ChangeSetListSchema = v.object({
  change_sets: v.array(
    v.object({
      id: v.string(),
      analysis_id: v.string(),
      status: v.picklist(changeSetStatuses),
      items: v.number(),
      /** Items in effect now (applied and not undone). */
      applied: v.number(),
      failed: v.number(),
      undone: v.number(),
      created_at: v.string(),
      applied_at: v.nullable(v.string()),
      applied_by: v.nullable(v.string()),
    }),
  ),
});
export type ChangeSetList = v.InferOutput<typeof ChangeSetListSchema>;

export const JournalSchema = v.object({ entries: v.array(JournalEntrySchema) });
export type Journal = v.InferOutput<typeof JournalSchema>;

/**
 * POST /analyses/:id/change-sets: besides the accepted suggestions, pause the keywords the audit says to stop,
 * set the bids it advises (manual strategies only) and exclude the network sites it found; each of them is
 * then an item of its own the person keeps or leaves out in the preview.
 */
export const PreviewChangesSchema = v.object({
  pause_keywords: v.optional(v.boolean(), false),
  bids: v.optional(v.boolean(), false),
  exclude_sites: v.optional(v.boolean(), false),
});

/** PUT /change-sets/:id/selection: keep (or leave out) these items of a preview. */
export const SelectItemsSchema = v.object({
  item_ids: v.pipe(v.array(UuidSchema, m.itemsInvalid), v.minLength(1, m.itemsInvalid), v.maxLength(10_000, m.itemsInvalid)),
  selected: v.boolean(),
});

/** POST /change-sets/:id/undo: every undoable item, or only these. */
export const UndoSchema = v.object({
  item_ids: v.optional(v.pipe(v.array(UuidSchema, m.itemsInvalid), v.minLength(1, m.itemsInvalid), v.maxLength(10_000, m.itemsInvalid))),
});

export const ApplySettingsSchema = v.object({
  /** The lowest role that may apply and undo: `owner` (default), `admin` (owners and admins) or `member` (everyone). */
  apply_changes_role: v.picklist(OrganizationRoleSchema.options, m.roleInvalid),
});
export type ApplySettings = v.InferOutput<typeof ApplySettingsSchema>;

/** Days an applied change can be undone. */
export const UNDO_DAYS = 30;

/** Russian names of the Direct fields an item shows. */
export const directFieldLabels: Record<string, string> = {
  NegativeKeywords: 'Минус-фразы',
  ExcludedSites: 'Запрещённые площадки',
  Keyword: 'Фраза',
  State: 'Показы',
  SearchBid: 'Ставка на поиске',
  NetworkBid: 'Ставка в сетях',
  Title: 'Заголовок 1',
  Title2: 'Заголовок 2',
  Text: 'Текст',
  Href: 'Ссылка',
  DisplayUrlPath: 'Отображаемая ссылка',
};

/** A keyword's `State` as the interface says it. */
export const directStateLabels: Record<string, string> = { ON: 'идут', SUSPENDED: 'остановлены', OFF: 'выключены' };

/** Fields holding money in the API's micro-units. */
export const directMoneyFields = new Set(['SearchBid', 'NetworkBid']);

/** One field's value as a person reads it: a state in words, a bid in roubles («12,50 ₽»), the rest as it is. */
export function shownDirectValue(field: string, value: string | null): string {
  if (value === null || value === '') return '—';
  if (field === 'State') return directStateLabels[value] ?? value;
  if (directMoneyFields.has(field) && /^\d+$/.test(value)) {
    return `${(Number(value) / 1_000_000).toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ₽`;
  }
  return value;
}

export const changeKindLabels: Record<ChangeKind, string> = {
  campaign_negatives: 'Минус-фразы кампании',
  campaign_excluded_sites: 'Запрещённые площадки кампании',
  group_negatives: 'Минус-фразы группы',
  keyword_phrase: 'Ключевая фраза',
  keyword_state: 'Остановить фразу',
  keyword_bids: 'Ставка фразы',
  ad_texts: 'Объявление',
};

export const changeItemStatusLabels: Record<ChangeItemStatus, string> = {
  pending: 'Ждёт применения',
  applied: 'Применено',
  failed: 'Ошибка',
  undone: 'Отменено',
  undo_refused: 'Отмена не выполнена',
  undo_failed: 'Ошибка отмены',
};

export const changeSetStatusLabels: Record<ChangeSetStatus, string> = {
  preview: 'Предпросмотр',
  applying: 'Применяется',
  applied: 'Применено',
  partly_applied: 'Применено частично',
  failed: 'Не применено',
  undoing: 'Отменяется',
};
