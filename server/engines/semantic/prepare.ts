/**
 * The imported account turned once into what both engines read: every keyword, negative, ad text and
 * query parsed into words with lemmas, with a stable reference to its place in `CampaignData`.
 *
 * Negative keywords are never active keywords: a keyword row whose phrase starts with `-` (some exports
 * put negatives among keywords) joins the group's negatives, and autotargeting rows are left out.
 */
import type { EntityRef } from '../../../contract/analysis-results.js';
import type { Ad, AdGroup, AdPlatform, Campaign, CampaignData, Keyword, Placement, SearchQuery } from '../../../contract/campaigns.js';
import { campaignPlacement, type PlacementSource } from '../placement.js';
import type { Lemmatizer } from './lemmatizer.js';
import { lemmaKeyOf, parsePhrase, parseWords, settleHomonyms, type ParsedPhrase, type PhraseWord } from './phrase.js';

export interface PreparedKeyword {
  ref: EntityRef;
  keyword: Keyword;
  parsed: ParsedPhrase;
  campaign: PreparedCampaign;
  group: PreparedGroup;
}

export interface PreparedAd {
  ref: EntityRef;
  ad: Ad;
  /** Lemmas of all headlines and texts, each once (a list: a few dozen, and a Set per ad costs twice the memory). */
  lemmas: readonly string[];
  /** Lemmas of the first headline (Заголовок 1 / Headline 1), each once. */
  headlineLemmas: readonly string[];
}

export interface PreparedGroup {
  ref: EntityRef;
  group: AdGroup;
  keywords: PreparedKeyword[];
  ads: PreparedAd[];
  negatives: ParsedPhrase[];
  negativeTexts: string[];
}

export interface PreparedCampaign {
  ref: EntityRef;
  campaign: Campaign;
  groups: PreparedGroup[];
  negatives: ParsedPhrase[];
  /** Where the ads are shown (search, networks or both) and what said so (../placement.ts). */
  placement: Placement;
  placementSource: PlacementSource;
}

export interface PreparedQuery {
  query: SearchQuery;
  words: PhraseWord[];
  campaign?: PreparedCampaign;
  group?: PreparedGroup;
}

export interface PreparedAccount {
  /** The analysed part of the data (the chosen campaigns and their queries). */
  data: CampaignData;
  platform: AdPlatform;
  campaigns: PreparedCampaign[];
  keywords: PreparedKeyword[];
  ads: PreparedAd[];
  groups: PreparedGroup[];
  queries: PreparedQuery[];
  negativeKeywordCount: number;
  lemmatizer: Lemmatizer;
}

/** A «-слово» row among the keywords; the autotargeting row (`---autotargeting`) starts with dashes too but is none. */
export const isNegativeKeywordRow = (keyword: Keyword) => !keyword.isAutotargeting && keyword.phrase.trim().startsWith('-');

function placementFields(campaign: Campaign): Pick<PreparedCampaign, 'placement' | 'placementSource'> {
  const { placement, source } = campaignPlacement(campaign);
  return { placement, placementSource: source };
}

export type ProgressFn = (done: number, total: number) => void;

/**
 * `campaignIndexes` limits the analysis to some campaigns; references keep their index in the full
 * `data`, so suggestions point at the same objects the export later rewrites.
 */
export function prepareAccount(fullData: CampaignData, lemmatizer: Lemmatizer, onProgress?: ProgressFn, campaignIndexes?: number[]): PreparedAccount {
  const chosen = campaignIndexes ? new Set(campaignIndexes) : null;
  const chosenNames = new Set(fullData.campaigns.filter((_, index) => !chosen || chosen.has(index)).map((campaign) => campaign.name));
  const data: CampaignData = chosen
    ? {
        ...fullData,
        campaigns: fullData.campaigns.filter((_, index) => chosen.has(index)),
        searchQueries: fullData.searchQueries.filter((query) => query.campaignName === undefined || chosenNames.has(query.campaignName)),
      }
    : fullData;
  const platform = data.platform;
  const account: PreparedAccount = { data, platform, campaigns: [], keywords: [], ads: [], groups: [], queries: [], negativeKeywordCount: 0, lemmatizer };
  let total = 0;
  for (const campaign of data.campaigns) for (const group of campaign.groups) total += group.keywords.length + group.ads.length;
  total += data.searchQueries.length;
  let done = 0;
  const tick = () => {
    done++;
    if (onProgress && done % 5000 === 0) onProgress(done, total);
  };

  // Each distinct ad text is parsed once: ads repeat their headlines and texts across groups, and an
  // ad's first headline is read twice (all its lemmas, its headline's). A text's lemmas are kept in
  // the order its words give them, so the sets below come out in the same order as parsed afresh.
  const lemmasOfText = new Map<string, string[]>();
  const textLemmaList = (text: string) => {
    let lemmas = lemmasOfText.get(text);
    if (!lemmas) {
      lemmas = [];
      for (const word of parseWords(text, lemmatizer)) if (!word.stop) lemmas.push(...word.lemmas);
      lemmasOfText.set(text, lemmas);
    }
    return lemmas;
  };
  const textLemmas = (texts: string[]) => {
    const set = new Set<string>();
    for (const text of texts) for (const lemma of textLemmaList(text)) set.add(lemma);
    return [...set];
  };

  fullData.campaigns.forEach((campaign, campaignIndex) => {
    if (chosen && !chosen.has(campaignIndex)) return;
    const campaignRef: EntityRef = { level: 'campaign', key: `c${campaignIndex}`, campaignIndex, campaignName: campaign.name, label: campaign.name, externalId: campaign.externalId };
    const preparedCampaign: PreparedCampaign = {
      ref: campaignRef,
      campaign,
      groups: [],
      negatives: campaign.negativeKeywords.map((text) => parsePhrase(text, lemmatizer)),
      ...placementFields(campaign),
    };
    account.negativeKeywordCount += campaign.negativeKeywords.length;
    account.campaigns.push(preparedCampaign);

    campaign.groups.forEach((group, groupIndex) => {
      const preparedGroup = prepareGroup(account, preparedCampaign, group, groupIndex, tick, textLemmas);
      preparedCampaign.groups.push(preparedGroup);
      account.groups.push(preparedGroup);
    });
  });

  prepareQueries(account, tick);
  // Every text is parsed: homonyms now take the reading the account's own words support.
  const changed = settleHomonyms(lemmatizer);
  if (changed.size > 0) {
    for (const keyword of account.keywords) {
      if (keyword.parsed.significant.some((word) => changed.has(word))) keyword.parsed.lemmaKey = lemmaKeyOf(keyword.parsed.significant);
    }
  }
  onProgress?.(total, total);
  return account;
}

/** A group's keywords (its «-слово» rows are its negatives) and ads, with references into the full data. */
function prepareGroup(account: PreparedAccount, preparedCampaign: PreparedCampaign, group: PreparedGroup['group'], groupIndex: number, tick: () => void, textLemmas: (texts: string[]) => string[]): PreparedGroup {
  const { lemmatizer, platform } = account;
  const { campaign, ref: campaignRef } = preparedCampaign;
  const campaignIndex = campaignRef.campaignIndex!;
  const groupKey = `${campaignRef.key}g${groupIndex}`;
  const groupRef: EntityRef = { level: 'group', key: groupKey, campaignIndex, groupIndex, campaignName: campaign.name, groupName: group.name, label: group.name, externalId: group.externalId };
  const negativeTexts = [...group.negativeKeywords];
  const preparedGroup: PreparedGroup = { ref: groupRef, group, keywords: [], ads: [], negatives: [], negativeTexts };
  account.negativeKeywordCount += group.negativeKeywords.length;

  group.keywords.forEach((keyword, keywordIndex) => {
    tick();
    if (isNegativeKeywordRow(keyword)) {
      negativeTexts.push(keyword.phrase.trim().replace(/^-+/, ''));
      account.negativeKeywordCount++;
      return;
    }
    if (keyword.isAutotargeting) return;
    const ref: EntityRef = { level: 'keyword', key: `${groupKey}k${keywordIndex}`, campaignIndex, groupIndex, keywordIndex, campaignName: campaign.name, groupName: group.name, label: keyword.phrase, externalId: keyword.externalId };
    const parsed = parsePhrase(keyword.phrase, lemmatizer, keyword.negativeWords, platform === 'google_ads' ? keyword.matchType : undefined);
    const prepared: PreparedKeyword = { ref, keyword, parsed, campaign: preparedCampaign, group: preparedGroup };
    preparedGroup.keywords.push(prepared);
    account.keywords.push(prepared);
  });
  preparedGroup.negatives = negativeTexts.map((text) => parsePhrase(text, lemmatizer));

  group.ads.forEach((ad, adIndex) => {
    tick();
    const ref: EntityRef = { level: 'ad', key: `${groupKey}a${adIndex}`, campaignIndex, groupIndex, adIndex, campaignName: campaign.name, groupName: group.name, label: ad.headlines[0] ?? '', externalId: ad.externalId };
    const prepared: PreparedAd = { ref, ad, lemmas: textLemmas([...ad.headlines, ...ad.texts]), headlineLemmas: textLemmas(ad.headlines.slice(0, 1)) };
    preparedGroup.ads.push(prepared);
    account.ads.push(prepared);
  });
  return preparedGroup;
}

/** Each query row with its words, its campaign (by name) and its group. */
function prepareQueries(account: PreparedAccount, tick: () => void): void {
  const { data, lemmatizer } = account;
  const campaignsByName = new Map(account.campaigns.map((campaign) => [campaign.campaign.name, campaign]));
  // A query's group: by name, else the first group holding its keyword. Looked up in maps built once
  // per campaign (a scan of the campaign's groups per query is quadratic on a big report).
  const groupsByName = new Map<PreparedCampaign, Map<string, PreparedGroup>>();
  const groupsByKeyword = new Map<PreparedCampaign, Map<string, PreparedGroup>>();
  const firstByKey = <K>(groups: readonly PreparedGroup[], keysOf: (group: PreparedGroup) => Iterable<K>) => {
    const map = new Map<K, PreparedGroup>();
    for (const group of groups) for (const key of keysOf(group)) if (!map.has(key)) map.set(key, group);
    return map;
  };
  for (const query of data.searchQueries) {
    tick();
    const campaign = query.campaignName !== undefined ? campaignsByName.get(query.campaignName) : account.campaigns.length === 1 ? account.campaigns[0] : undefined;
    let group: PreparedGroup | undefined;
    if (campaign && query.groupName !== undefined) {
      let byName = groupsByName.get(campaign);
      if (!byName) groupsByName.set(campaign, (byName = firstByKey(campaign.groups, (candidate) => [candidate.group.name])));
      group = byName.get(query.groupName);
    }
    if (campaign && !group && query.keyword) {
      let byKeyword = groupsByKeyword.get(campaign);
      if (!byKeyword) groupsByKeyword.set(campaign, (byKeyword = firstByKey(campaign.groups, (candidate) => candidate.keywords.map((keyword) => keyword.keyword.phrase.trim().toLowerCase()))));
      group = byKeyword.get(query.keyword.trim().toLowerCase());
    }
    account.queries.push({ query, words: parseWords(query.query, lemmatizer), campaign, group });
  }
}

const noWords: PhraseWord[] = [];
const noLemmas: readonly string[] = [];

/**
 * Drops what only the semantic engine reads, once it has run: the queries' words (negatives.ts) and the
 * ads' lemmas of all their texts (relevance.ts). Scoring and the money story read neither, and at
 * 1 000 000 keywords they are ~100 MB of arrays held through scoring, the thread's peak.
 */
export function releaseSemanticInputs(account: PreparedAccount): void {
  for (const query of account.queries) query.words = noWords;
  for (const ad of account.ads) ad.lemmas = noLemmas;
}

/** What a keyword's `parsed` is once released: no words, no minus-words. */
const releasedPhrase: ParsedPhrase = Object.freeze({ words: noWords, significant: noWords, minus: [], quoted: false, bracketed: false, lemmaKey: '' });

/**
 * Drops the keywords' parsed phrases once the last scoring check that reads them has run (engine.ts):
 * the aggregation, the rollup and the money story read the keywords' data and references only. At
 * 1 000 000 keywords the phrases' words, lemma keys and minus-words are ~375 MB, held otherwise until
 * the engines return, through the ad and statistics checks and the aggregation piling up on top: the thread's peak.
 */
export function releaseKeywordPhrases(account: PreparedAccount): void {
  for (const keyword of account.keywords) keyword.parsed = releasedPhrase;
}

/** Whether any negative applies to a keyword: its own minus-words, its group's or its campaign's. */
export function hasNegatives(keyword: PreparedKeyword): boolean {
  return keyword.parsed.minus.length > 0 || keyword.group.negatives.length > 0 || keyword.campaign.negatives.length > 0;
}
