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
import type { PreparedCampaign, PreparedGroup } from '../../semantic/prepare.js';
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
/** Groups sharing one keyword beyond which the pairs are not compared (a keyword in every group of a huge campaign says nothing about regions). */
const MAX_GROUPS_PER_KEYWORD = 50;

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

function competingGroups(context: ScoringContext, campaign: PreparedCampaign): void {
  const regional = campaign.groups.filter((group) => group.group.regionIds?.length && group.keywords.length > 0);
  if (regional.length < 2) return;
  const regionsOf = new Map(regional.map((group) => [group, regionsOfIds(group.group)]));
  const groupsOfKeyword = new Map<string, PreparedGroup[]>();
  for (const group of regional) {
    if (regionsOf.get(group)!.length === 0) continue;
    for (const keyword of group.keywords) {
      const list = groupsOfKeyword.get(keyword.parsed.lemmaKey) ?? [];
      if (list[list.length - 1] !== group) list.push(group);
      groupsOfKeyword.set(keyword.parsed.lemmaKey, list);
    }
  }
  const shared = new Map<string, { broad: PreparedGroup; narrow: PreparedGroup; keywords: string[] }>();
  for (const [lemmaKey, groups] of groupsOfKeyword) {
    if (groups.length < 2 || groups.length > MAX_GROUPS_PER_KEYWORD) continue;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const order = nesting(regionsOf.get(groups[i]!)!, regionsOf.get(groups[j]!)!);
        if (!order) continue;
        const [broad, narrow] = order === 'a' ? [groups[i]!, groups[j]!] : [groups[j]!, groups[i]!];
        const key = `${broad.ref.key}|${narrow.ref.key}`;
        const entry = shared.get(key) ?? { broad, narrow, keywords: [] };
        entry.keywords.push(narrow.keywords.find((keyword) => keyword.parsed.lemmaKey === lemmaKey)!.keyword.phrase);
        shared.set(key, entry);
      }
    }
  }
  for (const { broad, narrow, keywords } of shared.values()) {
    const narrowNames = regionsOf.get(narrow)!.map((region) => region.name);
    const broadNames = regionsOf.get(broad)!.map((region) => region.name);
    const quoted = (names: string[]) => names.map((name) => `«${name}»`).join(', ');
    context.findings.push(makeFinding(checks.settingsGeoCompetingGroups, broad.ref, {
      suffix: narrow.ref.key,
      explanation: `Группы «${broad.group.name}» (${quoted(broadNames)}) и «${narrow.group.name}» (${quoted(narrowNames)}) кампании «${campaign.campaign.name}» показываются по одним и тем же фразам (${keywords.length}: ${keywords.slice(0, 3).map((phrase) => `«${phrase}»`).join(', ')}${keywords.length > 3 ? '…' : ''}), а регион ${quoted(narrowNames)} есть у обеих: там показы достаются то одной группе, то другой.`,
      fix: `Исключите ${quoted(narrowNames)} из регионов группы «${broad.group.name}» (в Директе — минус-регион), чтобы запросы оттуда получала группа «${narrow.group.name}» со своими объявлениями.`,
      evidence: [
        { label: 'Общих фраз', value: keywords.length, threshold: 1, unit: 'count' },
        { label: 'Общий регион', value: narrowNames.join(', ') },
      ],
    }));
  }
}
