/**
 * Reading and writing the objects of change items through the Direct API: the current values of a kind's
 * objects (batched by the `get` limits) and one `update` call of a batch (per-object results back).
 */
import type { ChangeKind, DirectValues } from '../../contract/changes.js';
import type { DirectActionResult, DirectClient } from '../direct/api/client.js';
import { CAMPAIGN_STRATEGY_FIELDS, strategyOf } from '../direct/api/fetch-account.js';
import { strategyPhrase } from '../engines/scoring/strategy.js';
import { batches, KIND_API, type ManualBids } from '../engines/changes/plan.js';

interface ApiObject {
  Id: number;
  NegativeKeywords?: { Items?: string[] } | null;
  ExcludedSites?: { Items?: string[] } | null;
  Keyword?: string;
  State?: string;
  TextAd?: Record<string, string | null> | null;
  /** keywordbids.get */
  KeywordId?: number;
  CampaignId?: number;
  Search?: { Bid?: number | null } | null;
  Network?: { Bid?: number | null } | null;
}

const micros = (bid: number | null | undefined) => (typeof bid === 'number' && Number.isFinite(bid) ? String(Math.round(bid)) : null);

function valuesOf(kind: ChangeKind, object: ApiObject): DirectValues {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') return { NegativeKeywords: object.NegativeKeywords?.Items ?? [] };
  if (kind === 'campaign_excluded_sites') return { ExcludedSites: object.ExcludedSites?.Items ?? [] };
  if (kind === 'keyword_bids') return { SearchBid: micros(object.Search?.Bid), NetworkBid: micros(object.Network?.Bid) };
  if (kind === 'keyword_phrase') return { Keyword: object.Keyword ?? '' };
  if (kind === 'keyword_state') return { State: object.State ?? null };
  const textAd = object.TextAd ?? {};
  return { Title: textAd.Title ?? null, Title2: textAd.Title2 ?? null, Text: textAd.Text ?? null, Href: textAd.Href ?? null, DisplayUrlPath: textAd.DisplayUrlPath ?? null };
}

/**
 * The objects' current values by id (an id Direct no longer returns, deleted or archived, is absent), and for bids which of them the keyword's campaign leaves to the keywords, by its strategy
 * as it is now (campaigns.get `BiddingStrategy`): a bid is never written under an automatic strategy.
 */
export async function readObjects(client: DirectClient, kind: ChangeKind, ids: readonly string[]): Promise<{ values: Map<string, DirectValues>; manual: Map<string, ManualBids> }> {
  const api = KIND_API[kind];
  const values = new Map<string, DirectValues>();
  const campaignOf = new Map<string, string>();
  for (const piece of batches(ids, api.perGet)) {
    const objects = await client.get<ApiObject>(api.service, { SelectionCriteria: { [api.selectBy ?? 'Ids']: piece.map(Number) }, ...api.getFields });
    for (const object of objects) {
      const id = String(api.idField === 'KeywordId' ? object.KeywordId : object.Id);
      values.set(id, valuesOf(kind, object));
      if (object.CampaignId !== undefined) campaignOf.set(id, String(object.CampaignId));
    }
  }
  const manual = new Map<string, ManualBids>();
  if (kind !== 'keyword_bids' || campaignOf.size === 0) return { values, manual };
  const strategies = await campaignStrategies(client, [...new Set(campaignOf.values())]);
  for (const [id, campaignId] of campaignOf) manual.set(id, strategies.get(campaignId) ?? { search: false, network: false, strategy: null });
  return { values, manual };
}

/** `HIGHEST_POSITION` on search, `MAXIMUM_COVERAGE` or `MANUAL_CPM` in networks: the strategies that take keyword bids (keywordbids «set»). */
const MANUAL_SEARCH = new Set(['HIGHEST_POSITION']);
const MANUAL_NETWORK = new Set(['MAXIMUM_COVERAGE', 'MANUAL_CPM']);

async function campaignStrategies(client: DirectClient, campaignIds: string[]): Promise<Map<string, ManualBids>> {
  const found = new Map<string, ManualBids>();
  for (const piece of batches(campaignIds, KIND_API.campaign_negatives.perGet)) {
    type ApiCampaign = Parameters<typeof strategyOf>[0] & { Id: number };
    const campaigns = await client.get<ApiCampaign>('campaigns', { SelectionCriteria: { Ids: piece.map(Number) }, FieldNames: ['Id'], ...CAMPAIGN_STRATEGY_FIELDS });
    for (const campaign of campaigns) {
      const strategy = (campaign.TextCampaign ?? campaign.UnifiedCampaign)?.BiddingStrategy;
      const search = MANUAL_SEARCH.has(strategy?.Search?.BiddingStrategyType ?? '');
      const network = MANUAL_NETWORK.has(strategy?.Network?.BiddingStrategyType ?? '');
      const parsed = strategyOf(campaign);
      const automatic = parsed?.search?.bidding === 'automatic' ? parsed.search : parsed?.networks?.bidding === 'automatic' ? parsed.networks : undefined;
      found.set(String(campaign.Id), { search, network, strategy: automatic ? strategyPhrase(automatic) : null });
    }
  }
  return found;
}

/** One object of an update request carrying `values` (an empty negative list is written as null: cleared). */
function updateObject(kind: ChangeKind, id: string, values: DirectValues): Record<string, unknown> {
  if (kind === 'campaign_negatives' || kind === 'group_negatives') {
    const list = Array.isArray(values.NegativeKeywords) ? values.NegativeKeywords : [];
    return { Id: Number(id), NegativeKeywords: list.length > 0 ? { Items: list } : null };
  }
  if (kind === 'campaign_excluded_sites') {
    const list = Array.isArray(values.ExcludedSites) ? values.ExcludedSites : [];
    return { Id: Number(id), ExcludedSites: list.length > 0 ? { Items: list } : null };
  }
  if (kind === 'keyword_bids') {
    // Only the bids the item changes: a bid of a placement left to a strategy is never sent.
    return { KeywordId: Number(id), ...Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string').map(([field, value]) => [field, Number(value)])) };
  }
  if (kind === 'keyword_phrase') return { Id: Number(id), Keyword: values.Keyword };
  return { Id: Number(id), TextAd: values };
}

/** Writes one batch (at most the method's objects per call); the results come back in the batch's order. */
export async function writeBatch(client: DirectClient, kind: ChangeKind, writes: readonly { id: string; values: DirectValues }[]): Promise<DirectActionResult[]> {
  if (kind === 'keyword_state') return writeStates(client, writes);
  const api = KIND_API[kind];
  if (kind === 'keyword_bids') return client.write(api.service, 'set', { [api.objects]: writes.map((write) => updateObject(kind, write.id, write.values)) });
  return client.write(api.service, 'update', { [api.objects]: writes.map((write) => updateObject(kind, write.id, write.values)) });
}

/** Keywords paused (`keywords.suspend`) or resumed (`keywords.resume`, an undo), the results put back in the batch's order. */
async function writeStates(client: DirectClient, writes: readonly { id: string; values: DirectValues }[]): Promise<DirectActionResult[]> {
  const results: DirectActionResult[] = new Array<DirectActionResult>(writes.length);
  for (const method of ['suspend', 'resume'] as const) {
    const positions = writes.map((write, i) => ((write.values.State === 'SUSPENDED') === (method === 'suspend') ? i : -1)).filter((i) => i >= 0);
    if (positions.length === 0) continue;
    const answers = await client.write('keywords', method, { SelectionCriteria: { Ids: positions.map((i) => Number(writes[i]!.id)) } });
    positions.forEach((position, n) => (results[position] = answers[n]!));
  }
  return results;
}

/** Yandex's words for a failed object («Code: Message. Details»), or null when it succeeded. */
export function errorText(result: DirectActionResult | undefined): string | null {
  if (!result) return 'Директ не вернул результат для объекта';
  if (!result.Errors || result.Errors.length === 0) return null;
  return result.Errors.map((error) => [error.Message, error.Details].filter(Boolean).join('. ')).join('; ');
}
