/**
 * Geography settings (issue 22).
 * - A group shown outside the project's region: its regions (Direct `RegionIds` named by
 *   geo/direct-regions.ts, or a file's «Регион» text read by the gazetteer) that are not the project's
 *   region, its capital or its surroundings. Priced only when every region of the group is outside:
 *   then all the group's spend went there (a report by region is not read, so a partly outside group
 *   has no money).
 * - Groups of one campaign with the same keywords whose regions nest (Россия and Москва, Москва и
 *   область and Москва): for a person in the narrower region both groups are eligible and the broad
 *   one takes some of the shows meant for the regional one. Identical regions are the duplicate
 *   keywords' finding, not this one. Only regions named by id: a region text says too little.
 */
import type { AdGroup } from '../../../../contract/campaigns.js';
import { directRegions } from '../../semantic/geo/direct-regions.js';
import { gazetteerFor } from '../../semantic/geo/gazetteer.js';
import { places } from '../../semantic/geo/places.js';
import { parseWords } from '../../semantic/phrase.js';
import type { PreparedCampaign, PreparedGroup, PreparedKeyword } from '../../semantic/prepare.js';
import { formatRub, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { periodMoney } from './settings-common.js';

interface GroupRegion {
  name: string;
  places: string[];
  country?: boolean;
}

const placeNames = new Map(places.map((place) => [place.key, place.names[0]!]));
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function runGeoChecks(context: ScoringContext): void {
  const { account, settings } = context;
  const gazetteer = gazetteerFor(account.lemmatizer);
  const homeKeys = settings.homeRegionWords.length > 0 ? gazetteer.homeOf([settings.homeRegionWords.join(' ')]) : new Set<string>();
  const regionsOfText = (text: string): GroupRegion[] =>
    gazetteer.find(parseWords(text, account.lemmatizer)).map((match) => ({ name: capitalized(placeNames.get(match.place.key) ?? match.name), places: [match.place.key] }));
  for (const campaign of account.campaigns) {
    if (homeKeys.size > 0) {
      for (const group of campaign.groups) {
        const regions = group.group.regionIds?.length ? regionsOfIds(group.group) : group.group.region ? regionsOfText(group.group.region) : [];
        outsideHome(context, group, regions, homeKeys);
      }
    }
    competingGroups(context, campaign);
  }
}

function regionsOfIds(group: AdGroup): GroupRegion[] {
  return (group.regionIds ?? []).flatMap((id) => {
    const region = id > 0 ? directRegions.get(id) : undefined;
    return region ? [region] : [];
  });
}

function outsideHome(context: ScoringContext, group: PreparedGroup, regions: GroupRegion[], home: Set<string>): void {
  const outside = regions.filter((region) => region.country || !region.places.some((place) => home.has(place)));
  if (outside.length === 0) return;
  const homeName = [...home].filter((key) => placeNames.has(key)).map((key) => capitalized(placeNames.get(key)!))[0] ?? context.settings.homeRegionWords.join(' ');
  const allOutside = outside.length === regions.length && !outside.some((region) => region.country) && regions.length === (group.group.regionIds?.filter((id) => id > 0).length ?? regions.length);
  const cost = allOutside ? groupCost(group) : 0;
  const names = outside.map((region) => `«${region.name}»`).join(', ');
  context.findings.push(makeFinding(checks.settingsGeoOutsideHome, group.ref, {
    ...(cost > 0 ? periodMoney(context, cost) : {}),
    explanation:
      `Группа «${group.group.name}» показывается в ${outside.length > 1 ? 'регионах' : 'регионе'} ${names}, а регион проекта — «${homeName}»: ` +
      (allOutside ? `все её показы уходят людям, которым вы не продаёте${cost > 0 ? ` (${formatRub(cost)} за период, ${formatRub(cost * context.facts.monthFactor)} в месяц)` : ''}.` : 'часть показов уходит людям, которым вы не продаёте.'),
    fix: outside.some((region) => region.country)
      ? `Оставьте в регионах группы «${homeName}» или, если доставка есть и в другие регионы, заведите для них отдельную группу со своими объявлениями и ценами.`
      : `Уберите ${names} из регионов группы, если туда нет доставки, или укажите этот регион в проекте.`,
    evidence: [{ label: 'Регионы вне региона проекта', value: outside.map((region) => region.name).join(', '), threshold: homeName }],
  }));
}

function groupCost(group: PreparedGroup): number {
  let cost = 0;
  for (const keyword of group.group.keywords) cost += keyword.stats?.cost ?? 0;
  if (cost === 0) for (const ad of group.group.ads) cost += ad.stats?.cost ?? 0;
  return cost;
}

/** Which of two groups' regions holds the other's (the broad one), when one does and they are not the same. */
function nesting(a: GroupRegion[], b: GroupRegion[]): 'a' | 'b' | null {
  const placesOf = (regions: GroupRegion[]) => new Set(regions.flatMap((region) => region.places));
  const aCountry = a.some((region) => region.country);
  const bCountry = b.some((region) => region.country);
  if (aCountry !== bCountry) return aCountry ? 'a' : 'b';
  if (aCountry) return null;
  const aPlaces = placesOf(a);
  const bPlaces = placesOf(b);
  const aHoldsB = [...bPlaces].every((place) => aPlaces.has(place));
  const bHoldsA = [...aPlaces].every((place) => bPlaces.has(place));
  if (aHoldsB && bHoldsA) return null;
  return aHoldsB ? 'a' : bHoldsA ? 'b' : null;
}

/** What a broad group competes with: the first narrower group met, whether there are others (and of other regions), the shared keywords. */
interface Competition {
  broad: PreparedGroup;
  narrow: PreparedGroup;
  moreGroups: boolean;
  otherRegions: boolean;
  keywords: string[];
  keywordCount: number;
  /** The meaning last counted: one keyword of the broad group meets several regional groups, and counts once. */
  lastMeaning: string;
}

/**
 * Per broad group, one finding: the keywords it shares with groups of narrower regions. Compared by
 * region signature (the distinct region lists of the groups sharing a keyword are few), so a campaign
 * of thousands of groups costs a pass over its keywords, not a comparison of every pair of groups.
 */
function competingGroups(context: ScoringContext, campaign: PreparedCampaign): void {
  const signatures = new Map<PreparedGroup, string>();
  const regionsOfSignature = new Map<string, GroupRegion[]>();
  for (const group of campaign.groups) {
    if (!group.group.regionIds?.length || group.keywords.length === 0) continue;
    const regions = regionsOfIds(group.group);
    if (regions.length === 0) continue;
    const signature = regions.map((region) => region.name).sort().join('|');
    signatures.set(group, signature);
    regionsOfSignature.set(signature, regions);
  }
  if (regionsOfSignature.size < 2) return;
  // Region lists as small numbers: the keywords are bucketed by them without a map per keyword.
  const signatureList = [...regionsOfSignature.keys()];
  const signatureIndex = new Map(signatureList.map((signature, index) => [signature, index]));
  const groupSignature = new Map([...signatures].map(([group, signature]) => [group, signatureIndex.get(signature)!]));
  const nested: ('a' | 'b' | null | undefined)[] = [];
  const nestingOf = (a: number, b: number) => {
    const key = a * signatureList.length + b;
    if (nested[key] === undefined) nested[key] = nesting(regionsOfSignature.get(signatureList[a]!)!, regionsOfSignature.get(signatureList[b]!)!);
    return nested[key]!;
  };
  // One keyword per group and meaning (the first), in the campaign's order.
  const keywordsOfMeaning = new Map<string, PreparedKeyword[]>();
  for (const group of signatures.keys()) {
    for (const keyword of group.keywords) {
      const list = keywordsOfMeaning.get(keyword.parsed.lemmaKey);
      if (!list) keywordsOfMeaning.set(keyword.parsed.lemmaKey, [keyword]);
      else if (list[list.length - 1]!.group !== group) list.push(keyword);
    }
  }
  const competitions = new Map<PreparedGroup, Competition>();
  const buckets: PreparedKeyword[][] = signatureList.map(() => []);
  for (const keywords of keywordsOfMeaning.values()) {
    if (keywords.length < 2) continue;
    const used: number[] = [];
    for (const keyword of keywords) {
      const index = groupSignature.get(keyword.group)!;
      if (buckets[index]!.length === 0) used.push(index);
      buckets[index]!.push(keyword);
    }
    for (let i = 0; i < used.length; i++) {
      for (let j = i + 1; j < used.length; j++) {
        const order = nestingOf(used[i]!, used[j]!);
        if (order) recordCompetition(competitions, buckets[order === 'a' ? used[i]! : used[j]!]!, buckets[order === 'a' ? used[j]! : used[i]!]!);
      }
    }
    for (const index of used) buckets[index]!.length = 0;
  }
  for (const competition of competitions.values()) pushCompetition(context, campaign, competition);
}

/** The broad groups' keywords meet the narrow groups' keywords of the same meaning. */
function recordCompetition(competitions: Map<PreparedGroup, Competition>, broadKeywords: PreparedKeyword[], narrowKeywords: PreparedKeyword[]): void {
  const narrow = narrowKeywords[0]!.group;
  for (const { group: broad } of broadKeywords) {
    let competition = competitions.get(broad);
    if (!competition) competitions.set(broad, (competition = { broad, narrow, moreGroups: false, otherRegions: false, keywords: [], keywordCount: 0, lastMeaning: '' }));
    if (narrowKeywords.length > 1 || narrow !== competition.narrow) competition.moreGroups = true;
    if (narrow.group.regionIds?.join() !== competition.narrow.group.regionIds?.join()) competition.otherRegions = true;
    const meaning = narrowKeywords[0]!.parsed.lemmaKey;
    if (competition.lastMeaning === meaning) continue;
    competition.lastMeaning = meaning;
    competition.keywordCount++;
    if (competition.keywords.length < 3) competition.keywords.push(narrowKeywords[0]!.keyword.phrase);
  }
}

function pushCompetition(context: ScoringContext, campaign: PreparedCampaign, { broad, narrow, moreGroups, otherRegions, keywords, keywordCount }: Competition): void {
  const narrowNames = regionsOfIds(narrow.group).map((region) => region.name);
  const broadNames = regionsOfIds(broad.group).map((region) => region.name);
  const quoted = (names: string[]) => names.map((name) => `«${name}»`).join(', ');
  context.findings.push(makeFinding(checks.settingsGeoCompetingGroups, broad.ref, {
    explanation:
      `Группы «${broad.group.name}» (${quoted(broadNames)}) и «${narrow.group.name}» (${quoted(narrowNames)})${moreGroups ? ' и другие группы с более узкими регионами' : ''} кампании «${campaign.campaign.name}» ` +
      `показываются по одним и тем же фразам (${keywordCount}: ${keywords.map((phrase) => `«${phrase}»`).join(', ')}${keywordCount > keywords.length ? '…' : ''}), а регион ${quoted(narrowNames)} есть у обеих: там показы достаются то одной группе, то другой.`,
    fix: `Исключите ${otherRegions ? 'регионы региональных групп' : quoted(narrowNames)} из регионов группы «${broad.group.name}» (в Директе — минус-регион), чтобы запросы оттуда получала группа «${narrow.group.name}»${moreGroups ? ' и другие региональные группы' : ''} со своими объявлениями.`,
    evidence: [
      { label: 'Общих фраз', value: keywordCount, threshold: 1, unit: 'count' },
      { label: 'Общий регион', value: narrowNames.join(', ') },
    ],
  }));
}
