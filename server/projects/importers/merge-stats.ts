/**
 * Puts report statistics onto the imported tree: by keyword/ad id first, then by campaign + group + phrase
 * (with the platform's operators, then without them), then by campaign + phrase when that is unambiguous;
 * ads by id or by campaign + group + first headline; rows naming only a group or a campaign go to that
 * group's or campaign's own stats. When no structure file came with the reports, the tree is built from
 * the report rows themselves.
 */
import type { Ad, AdGroup, AdPlatform, Campaign, Keyword } from '../../../contract/campaigns.js';
import { addPlacementStats, addSiteStats, addStats, nameKeyOf, type StructureBuilder } from './builder.js';
import { importerMessages } from './messages.js';
import { barePhraseKey, isAutotargeting, matchTypeFromLabel, parseGoogleKeyword, parseYandexPhrase, phraseKey, AUTOTARGETING_PHRASE } from './phrases.js';
import type { ProblemLog } from './problems.js';
import type { StatRecord } from './reports.js';

/** Map whose value turns to null when two different objects claim the same key. */
class UniqueIndex<T> {
  private readonly map = new Map<string, T | null>();
  add(key: string, value: T): void {
    const existing = this.map.get(key);
    if (existing === undefined) this.map.set(key, value);
    else if (existing !== value) this.map.set(key, null);
  }
  get(key: string): T | undefined {
    return this.map.get(key) ?? undefined;
  }
}

interface KeywordKeys {
  full: string | null;
  bare: string;
}

function keywordKeys(platform: AdPlatform, phrase: string, matchType: string | null): KeywordKeys {
  if (isAutotargeting(phrase)) return { full: AUTOTARGETING_PHRASE, bare: AUTOTARGETING_PHRASE };
  if (platform === 'google_ads') {
    const parsed = parseGoogleKeyword(phrase);
    const type = matchType ?? parsed.matchType;
    return { full: type ? `${phraseKey(parsed.text)}|${type}` : null, bare: barePhraseKey(parsed.text) };
  }
  const parsed = parseYandexPhrase(phrase);
  return { full: phraseKey(parsed.phrase), bare: barePhraseKey(parsed.phrase) };
}

/**
 * Puts statistics rows on the campaigns' keywords, ads, groups and campaigns; a row that matches nothing
 * is a warning. Returns the files none of whose rows matched: such a file was not understood (or is about
 * other campaigns), and saying so beats importing it as a pile of warnings.
 */
export function mergeStats(campaigns: Campaign[], records: StatRecord[], logs: Map<string, ProblemLog>): string[] {
  const matchedFiles = new Set<string>();
  const unmatched: StatRecord[] = [];
  const campaignById = new UniqueIndex<Campaign>();
  const campaignByName = new UniqueIndex<Campaign>();
  const groupByKey = new UniqueIndex<AdGroup>();
  const keywordById = new UniqueIndex<Keyword>();
  const keywordByKey = new UniqueIndex<Keyword>();
  const adById = new UniqueIndex<Ad>();
  const adByTitle = new UniqueIndex<Ad>();
  const campaignIndex = new Map<Campaign, number>();

  campaigns.forEach((campaign, ci) => {
    campaignIndex.set(campaign, ci);
    if (campaign.externalId) campaignById.add(campaign.externalId, campaign);
    campaignByName.add(nameKeyOf(campaign.name), campaign);
    for (const group of campaign.groups) {
      const g = nameKeyOf(group.name);
      groupByKey.add(`${ci}|name|${g}`, group);
      if (group.externalId) groupByKey.add(`id|${group.externalId}`, group);
      for (const keyword of group.keywords) {
        if (keyword.externalId) keywordById.add(keyword.externalId, keyword);
        const phrase = keyword.isAutotargeting ? AUTOTARGETING_PHRASE : keyword.phrase;
        const keys = keywordKeys(campaign.platform ?? 'yandex_direct', phrase, keyword.matchType);
        keywordByKey.add(`${ci}|${g}|=${keys.full ?? keys.bare}`, keyword);
        keywordByKey.add(`${ci}|${g}|~${keys.bare}`, keyword);
        keywordByKey.add(`${ci}||~${keys.bare}`, keyword);
      }
      for (const ad of group.ads) {
        if (ad.externalId) adById.add(ad.externalId, ad);
        if (ad.headlines[0]) adByTitle.add(`${ci}|${g}|${nameKeyOf(ad.headlines[0])}`, ad);
      }
    }
  });

  for (const record of records) {
    const campaign = (record.campaignId && campaignById.get(record.campaignId)) || (record.campaignName && campaignByName.get(nameKeyOf(record.campaignName))) || undefined;
    const ci = campaign ? campaignIndex.get(campaign)! : -1;
    const g = record.groupName ? nameKeyOf(record.groupName) : '';
    let target: { stats?: Keyword['stats'] } | undefined;
    // Only keywords and campaigns keep a split by placement (what the analysis judges per placement).
    let splitTarget: Keyword | Campaign | undefined;

    if (record.keywordId) target = splitTarget = keywordById.get(record.keywordId);
    if (!target && record.adId) target = adById.get(record.adId);
    if (!target && record.phrase && campaign) {
      const keys = keywordKeys(campaign.platform ?? record.platform, record.phrase, record.matchType ? matchTypeFromLabel(record.matchType) : null);
      target = splitTarget =
        (keys.full ? keywordByKey.get(`${ci}|${g}|=${keys.full}`) : undefined) ??
        keywordByKey.get(`${ci}|${g}|~${keys.bare}`) ??
        keywordByKey.get(`${ci}||~${keys.bare}`);
    }
    if (!target && record.adTitle && campaign) target = adByTitle.get(`${ci}|${g}|${nameKeyOf(record.adTitle)}`);
    if (!target && campaign && !record.phrase && !record.adId && !record.adTitle && !record.keywordId) {
      if (record.groupId || record.groupName) {
        target = (record.groupId && groupByKey.get(`id|${record.groupId}`)) || groupByKey.get(`${ci}|name|${g}`) || undefined;
      } else {
        target = splitTarget = campaign;
      }
    }
    if (record.site && campaign && (target === campaign || !target)) {
      // A site row of a placements report breaks the campaign's network traffic down: it is the site's,
      // not a further total of the campaign.
      addSiteStats(campaign, record.site, record.stats);
      continue;
    }
    if (!target) {
      unmatched.push(record);
      continue;
    }
    matchedFiles.add(record.file);
    target.stats = addStats(target.stats, record.stats);
    if (splitTarget === target) addPlacementStats(splitTarget, record.placement, record.stats);
    if (record.site && campaign) addSiteStats(campaign, record.site, record.stats);
  }
  const notUnderstood = new Set<string>();
  for (const record of unmatched) {
    if (matchedFiles.has(record.file)) logs.get(record.file)?.warn(importerMessages.statsNotMatched, record.row);
    else notUnderstood.add(record.file);
  }
  return [...notUnderstood];
}

/** The tree a statistics report describes, for reports uploaded without the campaign export. */
export function buildFromStats(records: StatRecord[], builderFor: (platform: AdPlatform) => StructureBuilder): void {
  for (const record of records) {
    const builder = builderFor(record.platform);
    if (!record.campaignName && !record.campaignId) continue;
    const campaign = builder.campaign({ name: record.campaignName, id: record.campaignId });
    if (!record.groupName && !record.groupId) {
      if (record.site) addSiteStats(campaign, record.site, record.stats);
      else if (!record.phrase) {
        campaign.stats = addStats(campaign.stats, record.stats);
        addPlacementStats(campaign, record.placement, record.stats);
      }
      continue;
    }
    const group = builder.group(campaign, { id: record.groupId, name: record.groupName });
    if (!record.phrase) {
      group.stats = addStats(group.stats, record.stats);
      continue;
    }
    let keyword: Keyword;
    if (record.platform === 'google_ads') {
      const parsed = parseGoogleKeyword(record.phrase);
      keyword = { phrase: parsed.text, negativeWords: [], matchType: (record.matchType && matchTypeFromLabel(record.matchType)) || parsed.matchType || 'broad' };
    } else {
      const parsed = parseYandexPhrase(record.phrase);
      keyword = { phrase: parsed.phrase, negativeWords: parsed.negativeWords, matchType: parsed.matchType };
      if (parsed.isAutotargeting) keyword.isAutotargeting = true;
    }
    if (record.keywordId) keyword.externalId = record.keywordId;
    keyword.stats = { ...record.stats };
    if (record.placement) keyword.placementStats = { [record.placement]: { ...record.stats } };
    builder.addKeyword(campaign, group, keyword);
  }
}
