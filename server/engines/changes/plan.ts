/**
 * Accepted suggestions → the writes that carry them to a Yandex Direct account, and the arithmetic of those
 * writes: merging negatives into the list as it is now, the values after a change, what changed on Yandex's
 * side since we wrote, and the API points a change set spends. Pure: no HTTP, no database, no clock.
 *
 * One item per Direct object (a campaign's negatives, a group's negatives, a keyword, an ad), so accepting
 * 300 negatives of one campaign is one whole-list write, not 300.
 */
import type { AdField, KeywordVerdict, Suggestion } from '../../../contract/analysis-results.js';
import type { ChangeKind, DirectValues, PlannedChange, SkippedSuggestion } from '../../../contract/changes.js';
import { DIRECT_EXCLUDED_SITES_LIMIT } from '../scoring/checks/placements.js';
import { bidStep } from '../scoring/checks/statistics.js';

export interface AcceptedChoice {
  suggestion: Suggestion;
  /** The user's edited value of an ad fix. */
  value: string | null;
}

export interface PlannedItem {
  kind: ChangeKind;
  objectId: string;
  label: string;
  suggestionIds: string[];
  change: PlannedChange;
}

/**
 * Length limits of the negative lists (Direct help «Минус-фразы»: 20 000 characters for a campaign's list,
 * 4 096 for a group's, not counting spaces and operators; unconfirmed in the API reference, so counted
 * strictly here: every character but the separators).
 */
export const NEGATIVES_LIMIT: Record<'campaign_negatives' | 'group_negatives', number> = { campaign_negatives: 20_000, group_negatives: 4_096 };
/** A keyword with its minus-words: at most 4 096 characters (official «Ключевые фразы»). */
export const KEYWORD_LIMIT = 4_096;

/** Ad fields the API's `TextAd` carries, by our field and index; the others (sitelinks, callouts) are separate objects. */
function textAdField(field: AdField, index: number): string | null {
  if (field === 'headline') return index === 0 ? 'Title' : index === 1 ? 'Title2' : null;
  if (field === 'text') return index === 0 ? 'Text' : null;
  if (field === 'finalUrl') return 'Href';
  if (field === 'displayUrl' || (field === 'path' && index === 0)) return 'DisplayUrlPath';
  return null;
}

const normalise = (text: string) => text.trim().toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ');

/** The list as it is, then the additions it lacks (compared without case, «ё» and extra spaces): nothing existing is lost. */
export function mergeNegatives(current: readonly string[], additions: readonly string[]): string[] {
  const seen = new Set(current.map(normalise));
  const merged = [...current];
  for (const text of additions) {
    const key = normalise(text.replace(/^-/, ''));
    if (!key || seen.has(key)) continue;
    seen.add(key);
    merged.push(text.replace(/^-/, '').trim());
  }
  return merged;
}

/** The keyword with ` -word` appended for each minus-word it does not carry yet (`тёплый пол -водяной` + купить). */
export function withMinusWords(keyword: string, words: readonly string[]): string {
  const present = new Set(
    keyword
      .split(/\s+/)
      .filter((token) => token.startsWith('-'))
      .map((token) => normalise(token.replace(/^-+!?/, ''))),
  );
  let result = keyword.trim();
  for (const word of words) {
    const key = normalise(word.replace(/^-/, ''));
    if (!key || present.has(key)) continue;
    present.add(key);
    result += ` -${word.replace(/^-/, '').trim()}`;
  }
  return result;
}

/** Characters a negative list counts against its limit. */
export const negativesLength = (list: readonly string[]) => list.reduce((sum, text) => sum + text.replace(/\s+/g, '').length, 0);

const KIND_ORDER: readonly ChangeKind[] = ['campaign_negatives', 'campaign_excluded_sites', 'group_negatives', 'keyword_phrase', 'keyword_state', 'keyword_bids', 'ad_texts'];

interface Collected {
  items: Map<string, PlannedItem>;
  skipped: SkippedSuggestion[];
}

function itemFor(collected: Collected, kind: ChangeKind, objectId: string, label: string): PlannedItem {
  const key = `${kind}:${objectId}`;
  let item = collected.items.get(key);
  if (!item) collected.items.set(key, (item = { kind, objectId, label, suggestionIds: [], change: {} }));
  return item;
}

/** The items of a list of accepted suggestions (in the engine's order), and the ones the API cannot carry. */
export function planChanges(accepted: readonly AcceptedChoice[], messages: { notSupported: string; noExternalId: string }): { items: PlannedItem[]; skipped: SkippedSuggestion[] } {
  const collected: Collected = { items: new Map(), skipped: [] };
  const skip = (suggestion: Suggestion, reason: string) => collected.skipped.push({ suggestion_id: suggestion.id, label: labelOf(suggestion), reason });
  for (const { suggestion, value } of accepted) {
    const { target } = suggestion;
    if (!target.externalId) {
      skip(suggestion, messages.noExternalId);
      continue;
    }
    if (suggestion.kind === 'negative_keyword' || (suggestion.kind === 'cross_minus' && suggestion.level === 'group')) {
      const kind = target.level === 'campaign' ? 'campaign_negatives' : 'group_negatives';
      const item = itemFor(collected, kind, target.externalId, (target.level === 'campaign' ? target.campaignName : target.groupName) ?? target.label ?? target.externalId);
      item.change.add = [...(item.change.add ?? []), ...(suggestion.kind === 'negative_keyword' ? [suggestion.text] : suggestion.add)];
      item.suggestionIds.push(suggestion.id);
    } else if (suggestion.kind === 'cross_minus') {
      const item = itemFor(collected, 'keyword_phrase', target.externalId, target.label ?? suggestion.before);
      // Minus-words added to the keyword as it is when written (not its text at the audit): nothing set on Yandex's side since is lost.
      item.change.add = [...(item.change.add ?? []), ...suggestion.add];
      item.suggestionIds.push(suggestion.id);
      // Deleting the duplicates cannot be undone by writing a value back: left to a person.
      if (suggestion.remove.length > 0) skip(suggestion, messages.notSupported.replace('{what}', `удаление дублей (${suggestion.remove.map((ref) => ref.label).join(', ')})`));
    } else {
      const field = textAdField(suggestion.field, suggestion.index);
      const text = value?.trim() || (suggestion.manual ? '' : suggestion.after);
      if (!field || !text) {
        skip(suggestion, messages.notSupported.replace('{what}', field ? 'исправление без нового текста' : 'быстрые ссылки и уточнения'));
        continue;
      }
      const item = itemFor(collected, 'ad_texts', target.externalId, target.label ?? target.externalId);
      item.change.set = { ...item.change.set, [field]: text };
      item.suggestionIds.push(suggestion.id);
    }
  }
  return { items: inApplyOrder([...collected.items.values()]), skipped: collected.skipped };
}

/** Lists first, then keywords, then ads (the ads go to moderation: last, once the rest is in). */
export const inApplyOrder = (items: PlannedItem[]) => items.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));

/** A keyword the audit says to stop (verdict `stop`): paused with `keywords.suspend`, resumed by an undo. */
export function pauseItem(target: { key: string; label?: string; externalId?: string }): PlannedItem | null {
  if (!target.externalId) return null;
  return { kind: 'keyword_state', objectId: target.externalId, label: target.label ?? target.externalId, suggestionIds: [`verdict:${target.key}`], change: { set: { State: 'SUSPENDED' } } };
}

/**
 * A bid the audit advises (verdict `lower_bid` / `raise_bid`) as a change of the keyword's bid by the advice's
 * first step (`bidStep`, the same figure the finding names). The factor becomes a bid in the preview, once
 * the bid and the campaign's strategy are read from Direct (`bidChange`).
 */
export function bidItem(verdict: Pick<KeywordVerdict, 'target' | 'action' | 'clicks' | 'cost' | 'conversions' | 'referenceCpa'>): PlannedItem | null {
  const { target } = verdict;
  if (!target.externalId || verdict.referenceCpa === null || verdict.clicks === 0) return null;
  if (verdict.action !== 'lower_bid' && verdict.action !== 'raise_bid') return null;
  const factor = bidStep(verdict, verdict.referenceCpa, verdict.action === 'lower_bid' ? 'lower' : 'raise');
  if (!Number.isFinite(factor) || factor <= 0) return null;
  return { kind: 'keyword_bids', objectId: target.externalId, label: target.label ?? target.externalId, suggestionIds: [`verdict:${target.key}`], change: { bidFactor: factor } };
}

/**
 * Bids go in steps of 0,10 ₽ and not under 0,30 ₽ (rouble accounts; Direct's `Currencies` dictionary gives
 * `BidIncrement` and `MinimumBid` per currency: our reading for RUB, unconfirmed). Micro-units.
 */
export const BID_INCREMENT = 100_000;
export const MINIMUM_BID = 300_000;

/** Which bids a campaign's strategy leaves to the keywords (`HIGHEST_POSITION` on search, `MAXIMUM_COVERAGE` / `MANUAL_CPM` in networks). */
export interface ManualBids {
  search: boolean;
  network: boolean;
  /** The strategy's name when neither is manual, for the message. */
  strategy: string | null;
}

/**
 * The bids to write: each bid of a placement whose strategy is manual, times the factor, rounded to the
 * increment; null with the reason's key when there is none to write (automatic strategy: never a bid).
 */
export function bidChange(current: DirectValues, manual: ManualBids, factor: number): { set: Record<string, string> } | { reason: 'automatic' | 'no_bid' | 'unchanged' } {
  if (!manual.search && !manual.network) return { reason: 'automatic' };
  const set: Record<string, string> = {};
  let any = false;
  for (const [field, on] of [['SearchBid', manual.search], ['NetworkBid', manual.network]] as const) {
    const bid = Number(current[field] ?? 0);
    if (!on || !Number.isFinite(bid) || bid <= 0) continue;
    any = true;
    const next = Math.max(MINIMUM_BID, Math.round((bid * factor) / BID_INCREMENT) * BID_INCREMENT);
    if (next !== bid) set[field] = String(next);
  }
  if (!any) return { reason: 'no_bid' };
  return Object.keys(set).length > 0 ? { set } : { reason: 'unchanged' };
}

/** The network sites of a finding (`stats.network_sites`) as additions to its campaign's `ExcludedSites`. */
export function excludedSitesItem(target: { key: string; label?: string; campaignName?: string; externalId?: string }, findingId: string, sites: readonly string[]): PlannedItem | null {
  if (!target.externalId || sites.length === 0) return null;
  return { kind: 'campaign_excluded_sites', objectId: target.externalId, label: target.campaignName ?? target.label ?? target.externalId, suggestionIds: [`finding:${findingId}`], change: { add: [...sites] } };
}

const normaliseSite = (site: string) => site.trim().toLowerCase().replace(/^www\./, '');

/**
 * The campaign's list as it is, then the sites it lacks (compared without case and `www.`), as long as the
 * list stays within Direct's 1 000; `left` is what did not fit (said to the person, never dropped silently).
 */
export function mergeSites(current: readonly string[], additions: readonly string[], limit = DIRECT_EXCLUDED_SITES_LIMIT): { list: string[]; left: string[] } {
  const seen = new Set(current.map(normaliseSite));
  const list = [...current];
  const left: string[] = [];
  for (const site of additions) {
    const key = normaliseSite(site);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    if (list.length >= limit) left.push(site.trim());
    else list.push(site.trim());
  }
  return { list, left };
}

function labelOf(suggestion: Suggestion): string {
  if (suggestion.kind === 'negative_keyword') return `-${suggestion.text}`;
  if (suggestion.kind === 'cross_minus') return suggestion.after;
  return suggestion.target.label ?? suggestion.after;
}

/** The object's values once the change is written over `current` (the fields the item touches only). */
export function valuesAfter(kind: ChangeKind, current: DirectValues, change: PlannedChange): DirectValues {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') return { NegativeKeywords: mergeNegatives(listOf(current.NegativeKeywords), change.add ?? []) };
  if (kind === 'campaign_excluded_sites') return { ExcludedSites: mergeSites(listOf(current.ExcludedSites), change.add ?? []).list };
  if (kind === 'keyword_phrase') return { Keyword: withMinusWords(String(current.Keyword ?? ''), change.add ?? []) };
  return { ...Object.fromEntries(Object.keys(change.set ?? {}).map((field) => [field, current[field] ?? null])), ...change.set };
}

/** The fields of `current` the item touches (what an undo writes back and what the journal keeps). */
export function touchedValues(kind: ChangeKind, current: DirectValues, change: PlannedChange): DirectValues {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') return { NegativeKeywords: listOf(current.NegativeKeywords) };
  if (kind === 'campaign_excluded_sites') return { ExcludedSites: listOf(current.ExcludedSites) };
  if (kind === 'keyword_phrase') return { Keyword: String(current.Keyword ?? '') };
  return Object.fromEntries(Object.keys(change.set ?? {}).map((field) => [field, current[field] ?? null]));
}

/** Why a write would break Direct's limits, or null. */
export function limitProblem(kind: ChangeKind, after: DirectValues): { limit: number; length: number } | null {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') {
    const length = negativesLength(listOf(after.NegativeKeywords));
    return length > NEGATIVES_LIMIT[kind] ? { limit: NEGATIVES_LIMIT[kind], length } : null;
  }
  if (kind === 'keyword_phrase') {
    const length = String(after.Keyword ?? '').length;
    return length > KEYWORD_LIMIT ? { limit: KEYWORD_LIMIT, length } : null;
  }
  return null;
}

const listOf = (value: DirectValues[string] | undefined): string[] => (Array.isArray(value) ? value : []);

/**
 * What differs between the values we wrote and the object as it is now, in words («добавлено «x»; удалено
 * «y»» for lists, «Заголовок 1: «было» → «стало»» for fields); null when nothing did.
 */
export function changedSince(written: DirectValues, current: DirectValues, labels: Record<string, string>, show: (field: string, value: string | null) => string = (_field, value) => value ?? ''): string | null {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(written)) {
    const now = current[field] ?? null;
    if (Array.isArray(value) || Array.isArray(now)) {
      const was = new Set(listOf(value).map(normalise));
      const is = new Set(listOf(now).map(normalise));
      const added = listOf(now).filter((text) => !was.has(normalise(text)));
      const removed = listOf(value).filter((text) => !is.has(normalise(text)));
      if (added.length > 0) parts.push(`${labels[field] ?? field}: добавлено ${quoteList(added)}`);
      if (removed.length > 0) parts.push(`${labels[field] ?? field}: удалено ${quoteList(removed)}`);
    } else if ((value ?? '') !== (now ?? '')) {
      parts.push(`${labels[field] ?? field}: «${show(field, value)}» → «${show(field, now)}»`);
    }
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

function quoteList(texts: string[]): string {
  const shown = texts.slice(0, 5).map((text) => `«${text}»`).join(', ');
  return texts.length > 5 ? `${shown} и ещё ${texts.length - 5}` : shown;
}

/**
 * How each kind is read and written through the API: the service, the field names, the objects one
 * request may carry (official «Ограничения» of each method: campaigns.update 10 campaigns; adgroups.update
 * 1 000 groups; keywords.update 10 000 keywords; ads.update 1 000 ads; get: 10 000 ids per request,
 * campaigns.get 1 000; keywords.suspend/resume 10 000 ids), and the points it costs (Direct's points table «Баллы»: per call and per object;
 * the figures are our reading of it and are checked against the `Units` header after a real run).
 * `keywordbids`: `get` selects by `KeywordIds` (10 000 objects an answer) and answers `KeywordId`, `set`
 * takes at most 10 000 keywords a call (official «set», «get» of the KeywordBids service).
 */
export const KIND_API: Record<ChangeKind, { service: string; objects: string; getFields: Record<string, unknown>; selectBy?: string; idField?: string; perUpdate: number; perGet: number; units: { getCall: number; getObject: number; updateCall: number; updateObject: number } }> = {
  campaign_negatives: { service: 'campaigns', objects: 'Campaigns', getFields: { FieldNames: ['Id', 'NegativeKeywords'] }, perUpdate: 10, perGet: 1_000, units: { getCall: 10, getObject: 1, updateCall: 10, updateObject: 3 } },
  campaign_excluded_sites: { service: 'campaigns', objects: 'Campaigns', getFields: { FieldNames: ['Id', 'ExcludedSites'] }, perUpdate: 10, perGet: 1_000, units: { getCall: 10, getObject: 1, updateCall: 10, updateObject: 3 } },
  group_negatives: { service: 'adgroups', objects: 'AdGroups', getFields: { FieldNames: ['Id', 'NegativeKeywords'] }, perUpdate: 1_000, perGet: 10_000, units: { getCall: 15, getObject: 1, updateCall: 20, updateObject: 20 } },
  keyword_phrase: { service: 'keywords', objects: 'Keywords', getFields: { FieldNames: ['Id', 'Keyword'] }, perUpdate: 10_000, perGet: 10_000, units: { getCall: 15, getObject: 1, updateCall: 20, updateObject: 2 } },
  keyword_state: { service: 'keywords', objects: 'Ids', getFields: { FieldNames: ['Id', 'State'] }, perUpdate: 10_000, perGet: 10_000, units: { getCall: 15, getObject: 1, updateCall: 15, updateObject: 0 } },
  // The bids' re-read also reads the campaigns' strategies (counted in getCall), so no bid goes to an automatic one.
  keyword_bids: { service: 'keywordbids', objects: 'KeywordBids', getFields: { FieldNames: ['KeywordId', 'CampaignId'], SearchFieldNames: ['Bid'], NetworkFieldNames: ['Bid'] }, selectBy: 'KeywordIds', idField: 'KeywordId', perUpdate: 10_000, perGet: 10_000, units: { getCall: 25, getObject: 1, updateCall: 25, updateObject: 0 } },
  ad_texts: { service: 'ads', objects: 'Ads', getFields: { FieldNames: ['Id'], TextAdFieldNames: ['Title', 'Title2', 'Text', 'Href', 'DisplayUrlPath'] }, perUpdate: 1_000, perGet: 10_000, units: { getCall: 15, getObject: 1, updateCall: 20, updateObject: 20 } },
};

/** Points a write of `count` objects of `kind` spends: the re-read before it and the update itself, batch by batch. */
export function unitsFor(kind: ChangeKind, count: number): number {
  if (count === 0) return 0;
  const api = KIND_API[kind];
  return Math.ceil(count / api.perGet) * api.units.getCall + count * api.units.getObject + Math.ceil(count / api.perUpdate) * api.units.updateCall + count * api.units.updateObject;
}

/** `list` in pieces of at most `size`. */
export function batches<T>(list: readonly T[], size: number): T[][] {
  const pieces: T[][] = [];
  for (let i = 0; i < list.length; i += size) pieces.push(list.slice(i, i + size));
  return pieces;
}
