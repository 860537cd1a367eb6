/**
 * Where a campaign's ads are shown (search, networks or both), decided once from everything the data
 * says, most reliable first:
 * 1. the platform's own setting the import kept (`Campaign.placement`: Google Editor «Networks», the
 *    Direct API strategy with search or networks `SERVING_OFF`);
 * 2. the campaign type when it names a placement (Google «Search» / «Display», Direct «Смарт-баннеры»,
 *    «Медийная кампания»); Yandex's «Текстово-графические объявления» / TEXT / UNIFIED run on both and say nothing;
 * 3. the statistics split by placement (a report with «Тип площадки», AdNetworkType or Network);
 * 4. the campaign name as the last hint (РСЯ, сети, YAN, КМС, network, display, GDN; поиск, search);
 * 5. search, the default of a text campaign.
 *
 * Also reads one placement label of a report row or a setting («Поиск», «Сети», SEARCH, AD_NETWORK,
 * «Google search», «Display Network», «Google search;Search Partners;Display Network»). Pure.
 */
import type { Campaign, Placement, PlacementStats, Stats } from '../../contract/campaigns.js';

export type PlacementSource = 'settings' | 'type' | 'statistics' | 'name' | 'default';

export interface CampaignPlacement {
  placement: Placement;
  /** Which of the rules above decided it (the explanation says so). */
  source: PlacementSource;
}

const SEARCH_PART = /search|поиск|^google$|партн[её]р/;
const NETWORK_PART = /display|ad_network|network|сет[иьяе]|рся|кмс|контекстно-медийн|youtube|gmail|discover/;

function combine(found: Set<'search' | 'networks'>): Placement | null {
  if (found.has('search') && found.has('networks')) return 'both';
  if (found.has('search')) return 'search';
  if (found.has('networks')) return 'networks';
  return null;
}

/**
 * One placement label (a report cell, an Editor «Networks» value): search wins inside one part, so
 * «Search Network» and «Поисковая сеть» are search; parts joined by `;` or `,` add up («…;Display Network» = both).
 * «Cross-network» (Performance Max) is both. Unknown text: null.
 */
export function placementOfLabel(label: string | undefined | null): Placement | null {
  if (!label) return null;
  const found = new Set<'search' | 'networks'>();
  for (const raw of label.toLowerCase().replace(/ё/g, 'е').split(/[;,|]/)) {
    const part = raw.trim();
    if (!part) continue;
    if (/cross-network|все площадки|both/.test(part)) return 'both';
    if (SEARCH_PART.test(part)) found.add('search');
    else if (NETWORK_PART.test(part)) found.add('networks');
  }
  return combine(found);
}

/** The campaign type when it names a placement; null for types that run anywhere (text, unified, текстово-графические). */
export function placementOfType(type: string | undefined): Placement | null {
  if (!type) return null;
  const text = type.toLowerCase().replace(/ё/g, 'е');
  if (/performance max|cross-network/.test(text)) return 'both';
  const found = new Set<'search' | 'networks'>();
  // «Search Network» is search: the bare word «network» says nothing here.
  if (/search|поиск|dynamic|динамическ|shopping|торгов/.test(text)) found.add('search');
  if (/display|сет[иья]|рся|кмс|контекстно-медийн|cpm|медийн|media|smart|смарт|video|видео|discovery|demand gen/.test(text)) found.add('networks');
  return combine(found);
}

/** The split statistics when they show traffic on one or both placements. */
export function placementOfStats(split: PlacementStats | undefined): Placement | null {
  if (!split) return null;
  const active = (stats: Stats | undefined) => !!stats && (stats.impressions > 0 || stats.clicks > 0 || stats.cost > 0);
  const found = new Set<'search' | 'networks'>();
  if (active(split.search)) found.add('search');
  if (active(split.networks)) found.add('networks');
  return combine(found);
}

const NAME_NETWORK_WORDS = new Set(['рся', 'сети', 'сеть', 'сетях', 'сетей', 'yan', 'rsya', 'кмс', 'kms', 'network', 'networks', 'display', 'gdn', 'context', 'контекст']);
const NAME_SEARCH_WORDS = new Set(['поиск', 'поиске', 'поисковая', 'поисковые', 'search']);

/** The name's hint: «Цветы | РСЯ» = networks, «Цветы — поиск» = search, both words = both. */
export function placementOfName(name: string): Placement | null {
  const found = new Set<'search' | 'networks'>();
  for (const word of name.toLowerCase().replace(/ё/g, 'е').split(/[^a-zа-я0-9]+/)) {
    if (NAME_NETWORK_WORDS.has(word)) found.add('networks');
    else if (NAME_SEARCH_WORDS.has(word)) found.add('search');
  }
  return combine(found);
}

/** The statistics of a campaign's keywords summed per placement (when the keywords carry a split). */
function keywordSplit(campaign: Campaign): PlacementStats | undefined {
  let split: PlacementStats | undefined;
  for (const group of campaign.groups) {
    for (const keyword of group.keywords) {
      if (!keyword.placementStats) continue;
      split ??= {};
      for (const placement of ['search', 'networks'] as const) {
        const stats = keyword.placementStats[placement];
        if (stats) split[placement] = sumInto(split[placement], stats);
      }
    }
  }
  return split;
}

function sumInto(target: Stats | undefined, add: Stats): Stats {
  const result = target ?? { impressions: 0, clicks: 0, cost: 0, conversions: 0 };
  result.impressions += add.impressions;
  result.clicks += add.clicks;
  result.cost += add.cost;
  result.conversions += add.conversions;
  return result;
}

/** The campaign's statistics split by placement: its own split, else its keywords'. */
export function campaignPlacementStats(campaign: Campaign): PlacementStats | undefined {
  return campaign.placementStats ?? keywordSplit(campaign);
}

export function campaignPlacement(campaign: Campaign): CampaignPlacement {
  if (campaign.placement) return { placement: campaign.placement, source: 'settings' };
  const byType = placementOfType(campaign.type);
  if (byType) return { placement: byType, source: 'type' };
  const byStats = placementOfStats(campaignPlacementStats(campaign));
  if (byStats) return { placement: byStats, source: 'statistics' };
  const byName = placementOfName(campaign.name);
  if (byName) return { placement: byName, source: 'name' };
  return { placement: 'search', source: 'default' };
}

/** «на поиске», «в сетях», «на поиске и в сетях»: for explanations. */
export const placementPhrase: Record<Placement, string> = { search: 'на поиске', networks: 'в сетях', both: 'на поиске и в сетях' };
