/**
 * Assembles campaigns → groups → keywords/ads from rows of any structure file, finding a campaign or group
 * again by id, by number or by name, so several files (or several sheets) of one account merge into one tree.
 */
import type { Ad, AdGroup, AdPlatform, Campaign, Keyword, PlacementStats, Stats } from '../../../contract/campaigns.js';
import { collapseSpaces } from './phrases.js';

export interface CampaignRef {
  id?: string;
  name?: string;
}

export interface GroupRef {
  id?: string;
  /** A number local to the file (Direct «Номер группы»); `scope` says which file it belongs to. */
  number?: string;
  scope?: string;
  name?: string;
}

interface GroupIndex {
  byKey: Map<string, AdGroup>;
  keywordKeys: Map<AdGroup, Map<string, Keyword>>;
  adKeys: Map<AdGroup, Map<string, Ad>>;
}

export class StructureBuilder {
  readonly campaigns: Campaign[] = [];
  private readonly campaignByKey = new Map<string, Campaign>();
  private readonly groups = new Map<Campaign, GroupIndex>();

  constructor(readonly platform: AdPlatform) {}

  campaign(ref: CampaignRef): Campaign {
    const idKey = ref.id ? `id:${ref.id}` : undefined;
    const nameKey = ref.name ? `name:${nameKeyOf(ref.name)}` : undefined;
    let campaign = (idKey && this.campaignByKey.get(idKey)) || undefined;
    if (!campaign && nameKey) {
      const byName = this.campaignByKey.get(nameKey);
      // A campaign found by name with another id is another campaign.
      if (byName && !(ref.id && byName.externalId && byName.externalId !== ref.id)) campaign = byName;
    }
    if (!campaign) {
      campaign = { name: ref.name || (ref.id ? `Кампания ${ref.id}` : 'Кампания'), negativeKeywords: [], groups: [], platform: this.platform };
      if (ref.id) campaign.externalId = ref.id;
      this.campaigns.push(campaign);
      this.groups.set(campaign, { byKey: new Map(), keywordKeys: new Map(), adKeys: new Map() });
    } else if (ref.id && !campaign.externalId) {
      campaign.externalId = ref.id;
    }
    if (idKey) this.campaignByKey.set(idKey, campaign);
    if (nameKey && !this.campaignByKey.has(nameKey)) this.campaignByKey.set(nameKey, campaign);
    return campaign;
  }

  group(campaign: Campaign, ref: GroupRef): AdGroup {
    const index = this.groups.get(campaign)!;
    const keys: string[] = [];
    if (ref.id) keys.push(`id:${ref.id}`);
    if (ref.number) keys.push(`num:${ref.scope ?? ''}:${ref.number}`);
    // A name identifies a group only when the file gives neither id nor number.
    if (!ref.id && !ref.number && ref.name) keys.push(`name:${nameKeyOf(ref.name)}`);
    let group: AdGroup | undefined;
    for (const key of keys) {
      group = index.byKey.get(key);
      if (group) break;
    }
    if (!group) {
      group = { name: ref.name || (ref.number ? `Группа ${ref.number}` : ref.id ? `Группа ${ref.id}` : 'Группа'), keywords: [], ads: [], negativeKeywords: [] };
      if (ref.id) group.externalId = ref.id;
      campaign.groups.push(group);
      index.keywordKeys.set(group, new Map());
      index.adKeys.set(group, new Map());
    } else {
      if (ref.id && !group.externalId) group.externalId = ref.id;
      if (ref.name && /^Группа( \d+)?$/.test(group.name) && group.name !== ref.name) group.name = ref.name;
    }
    for (const key of keys) if (!index.byKey.has(key)) index.byKey.set(key, group);
    return group;
  }

  /** Adds the keyword unless the group already has it (same id, or same phrase, minus-words and match type). */
  addKeyword(campaign: Campaign, group: AdGroup, keyword: Keyword): Keyword {
    const keys = this.groups.get(campaign)!.keywordKeys.get(group)!;
    const key = keyword.externalId
      ? `id:${keyword.externalId}`
      : `p:${keyword.phrase.toLowerCase()}|${keyword.matchType}|${keyword.negativeWords.join(' ').toLowerCase()}`;
    const existing = keys.get(key);
    if (existing) {
      if (keyword.stats) existing.stats = addStats(existing.stats, keyword.stats);
      for (const [placement, stats] of Object.entries(keyword.placementStats ?? {}) as ['search' | 'networks', Stats][]) addPlacementStats(existing, placement, stats);
      return existing;
    }
    keys.set(key, keyword);
    group.keywords.push(keyword);
    return keyword;
  }

  /** Adds the ad unless the group already has it (same id, or the same texts and link). */
  addAd(campaign: Campaign, group: AdGroup, ad: Ad): Ad {
    const keys = this.groups.get(campaign)!.adKeys.get(group)!;
    const key = ad.externalId ? `id:${ad.externalId}` : `c:${adSignature(ad)}`;
    const existing = keys.get(key);
    if (existing) {
      if (ad.stats) existing.stats = addStats(existing.stats, ad.stats);
      return existing;
    }
    keys.set(key, ad);
    group.ads.push(ad);
    return ad;
  }
}

export function adSignature(ad: Ad): string {
  return [ad.kind, ad.headlines.join('\u0001'), ad.texts.join('\u0001'), ad.finalUrl ?? '', ad.displayUrl ?? '', (ad.paths ?? []).join('/')].join('\u0002');
}

/** A name's key: lower case, «ё» as «е», runs of spaces as one, trimmed. Regular expressions only where there is something to replace (most names have nothing). */
export function nameKeyOf(name: string): string {
  const lower = name.toLowerCase();
  return collapseSpaces(lower.includes('ё') ? lower.replaceAll('ё', 'е') : lower).trim();
}

export function emptyStats(): Stats {
  return { impressions: 0, clicks: 0, cost: 0, conversions: 0 };
}

export function addStats(target: Stats | undefined, add: Stats): Stats {
  const result = target ?? emptyStats();
  result.impressions += add.impressions;
  result.clicks += add.clicks;
  result.cost = roundMoney(result.cost + add.cost);
  result.conversions = roundMoney(result.conversions + add.conversions);
  if (add.revenue !== undefined) result.revenue = roundMoney((result.revenue ?? 0) + add.revenue);
  return result;
}

/** Adds a report row's statistics to its placement's share of the object's statistics (`Keyword`/`Campaign.placementStats`). */
export function addPlacementStats(target: { placementStats?: PlacementStats }, placement: 'search' | 'networks' | undefined, stats: Stats): void {
  if (!placement) return;
  target.placementStats ??= {};
  target.placementStats[placement] = addStats(target.placementStats[placement], stats);
}

/** Adds a placements-report row to the campaign's site (sites compared case-insensitively). */
export function addSiteStats(campaign: Campaign, site: string, stats: Stats): void {
  campaign.sites ??= [];
  const key = site.toLowerCase();
  const existing = campaign.sites.find((item) => item.site.toLowerCase() === key);
  if (existing) existing.stats = addStats(existing.stats, stats);
  else campaign.sites.push({ site, stats: addStats(undefined, stats) });
}

function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function pushUnique(list: string[], values: string[]): void {
  for (const value of values) if (!list.includes(value)) list.push(value);
}
