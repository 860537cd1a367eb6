/**
 * Which keywords can meet in the same auction, and so compete: only those of one platform, shown on a
 * common placement (a search campaign and a network one never meet: «розы» on search and «розы» in
 * РСЯ are two different purchases, not duplicates) to people of a common region.
 *
 * Regions are compared by the geography dictionary (geo/): two targeting texts are apart only when
 * every part of both names a known place and no place of one is, or borders as city and region, a
 * place of the other («Москва» and «Санкт-Петербург»: apart; «Москва» and «Московская область»: they
 * meet). Anything the dictionary cannot read («Россия», «Центр», exclusions «-Москва») or a group
 * without a region is taken to meet everything: an unknown region is no proof that they are apart.
 */
import type { Placement } from '../../../contract/campaigns.js';
import { gazetteerFor } from './geo/gazetteer.js';
import type { Lemmatizer } from './lemmatizer.js';
import { parseWords } from './phrase.js';
import type { PreparedKeyword } from './prepare.js';

/** Two placements share traffic unless one is search only and the other networks only. */
export const placementsMeet = (a: Placement, b: Placement): boolean => a === b || a === 'both' || b === 'both';

const normalisedRegion = (region: string | undefined) => (region ?? '').trim().toLowerCase().replace(/ё/g, 'е');

/**
 * Answers whether two region texts overlap, memoised per pair (an account has a handful of distinct
 * region texts, whatever its size).
 */
export class RegionOverlap {
  private readonly places = new Map<string, Set<string> | null>();
  private readonly answers = new Map<string, boolean>();

  constructor(private readonly lemmatizer: Lemmatizer) {}

  /** The places a targeting text covers (with the city/region around them); null when some part of it is not a known place. */
  private placesOf(region: string): Set<string> | null {
    let known = this.places.get(region);
    if (known !== undefined) return known;
    const gazetteer = gazetteerFor(this.lemmatizer);
    const parts = region.split(/[,;|\n]+/).map((part) => part.trim()).filter(Boolean);
    const keys: string[] = [];
    known = parts.length > 0 ? new Set<string>() : null;
    for (const part of parts) {
      const found = part.startsWith('-') ? [] : gazetteer.find(parseWords(part, this.lemmatizer));
      if (found.length === 0) {
        known = null;
        break;
      }
      for (const match of found) keys.push(match.place.key);
    }
    if (known) known = gazetteer.expand(keys);
    this.places.set(region, known);
    return known;
  }

  meet(a: string | undefined, b: string | undefined): boolean {
    const left = normalisedRegion(a);
    const right = normalisedRegion(b);
    if (!left || !right || left === right) return true;
    const key = left < right ? `${left}\u0000${right}` : `${right}\u0000${left}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      const leftPlaces = this.placesOf(left);
      const rightPlaces = this.placesOf(right);
      answer = !leftPlaces || !rightPlaces || [...leftPlaces].some((place) => rightPlaces.has(place));
      this.answers.set(key, answer);
    }
    return answer;
  }
}

/** What decides whether keywords meet: the same values always meet, so keywords are bucketed by it. */
export function auctionKey(keyword: PreparedKeyword): string {
  return `${keyword.campaign.campaign.platform ?? ''}|${keyword.campaign.placement}|${normalisedRegion(keyword.group.group.region)}`;
}

/**
 * Splits keywords (of one meaning) into the sets that can meet in an auction: keywords of buckets that
 * meet are joined, transitively (A meets B and B meets C: one set, as the merge has to keep one of them).
 * Order kept: each set in the order of its first keyword, keywords in the account's order.
 */
export function auctionSets(keywords: readonly PreparedKeyword[], regions: RegionOverlap): PreparedKeyword[][] {
  const buckets = new Map<string, PreparedKeyword[]>();
  for (const keyword of keywords) {
    const key = auctionKey(keyword);
    const list = buckets.get(key);
    if (list) list.push(keyword);
    else buckets.set(key, [keyword]);
  }
  if (buckets.size === 1) return [keywords.slice()];
  const lists = [...buckets.values()];
  const parent = lists.map((_, index) => index);
  const root = (index: number): number => (parent[index] === index ? index : (parent[index] = root(parent[index])));
  for (let i = 0; i < lists.length; i++) {
    for (let j = i + 1; j < lists.length; j++) {
      if (root(i) === root(j)) continue;
      const a = lists[i][0];
      const b = lists[j][0];
      const samePlatform = (a.campaign.campaign.platform ?? '') === (b.campaign.campaign.platform ?? '');
      if (samePlatform && placementsMeet(a.campaign.placement, b.campaign.placement) && regions.meet(a.group.group.region, b.group.group.region)) parent[root(j)] = root(i);
    }
  }
  // One pass over the keywords in their order: every set comes out in the account's order.
  const setOfBucket = new Map<PreparedKeyword[], PreparedKeyword[]>();
  const byRoot = new Map<number, PreparedKeyword[]>();
  lists.forEach((list, index) => {
    let set = byRoot.get(root(index));
    if (!set) byRoot.set(root(index), (set = []));
    setOfBucket.set(list, set);
  });
  const sets: PreparedKeyword[][] = [];
  for (const keyword of keywords) {
    const set = setOfBucket.get(buckets.get(auctionKey(keyword))!)!;
    if (set.length === 0) sets.push(set);
    set.push(keyword);
  }
  return sets;
}
