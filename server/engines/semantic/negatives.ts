/**
 * Negative-keyword suggestions from the search-query report and the curated non-commercial intents.
 *
 * - Category words (бесплатно, скачать, вакансии, б/у, competitors) go in at campaign level, one word
 *   per entry, whatever the volume: the intent is plain from the word. The list is the query's
 *   language's (language.ts): an English query gets «free», never «бесплатно».
 * - Ambiguous intents (отзывы, форум…) are "check by hand" and never added automatically.
 * - Other places come from the geography dictionary (geo/): a place is "foreign" only when it is outside
 *   the project's region and the campaign's targeting (its groups' regions and the places its own
 *   keywords name), with each place's city/region pair and every spelling (спб, питер, петербурге).
 *   Without any idea of the home region, or for a place name that is also an ordinary word, geography
 *   is "check by hand".
 * - Other queries with no conversions go in as group-level minus-phrases, only with enough clicks
 *   (`minClicksForNegative`); below it they are "collect data". They need conversion data at all.
 * - A query an existing negative already blocks (the keyword's minus-words, the group's, the
 *   campaign's, by the platform's operator rules) gets nothing new; the result says which negative
 *   covers it (`covered`).
 * - No suggestion may block a query that converted, or a keyword of the campaign itself: such a
 *   negative is dropped and listed with the reason, and each of its queries gets the narrowest safe
 *   alternative instead — another word of the query that blocks no own keyword and no converting query
 *   (the one blocking the fewest report rows), else the query itself as a minus-phrase on its group.
 */
import type { AnalysisSettings, CoveredQuery, DroppedNegative, EntityRef, NegativeCategory, NegativeKeywordSuggestion, SemanticResult } from '../../../contract/analysis-results.js';
import { gazetteerFor } from './geo/gazetteer.js';
import { commercialMarkers, nonCommercialLexicon, type LexiconEntry } from './intent-lexicon.js';
import { languageOfWords, majorityLanguage, type ScriptLanguage } from './language.js';
import { negativeBlocks, sharedNegativeApplies } from './negative-match.js';
import { normalizeText, parsePhrase, type ParsedPhrase, type PhraseWord } from './phrase.js';
import type { SuggestionBlocking } from './non-target-queries.js';
import type { PreparedAccount, PreparedCampaign, PreparedKeyword, PreparedQuery } from './prepare.js';

interface Candidate {
  level: 'campaign' | 'group';
  target: EntityRef;
  campaign: PreparedCampaign;
  text: string;
  parsed: ParsedPhrase;
  category: NegativeCategory;
  source: 'queries' | 'curated';
  queries: PreparedQuery[];
  /** Never added automatically (ambiguous intent, unknown home region, a place name that is also a word). */
  handCheck?: string;
  /** Why this negative rather than the obvious one (an alternative to a dropped negative). */
  reason?: string;
}

interface LexiconItem {
  text: string;
  category: NegativeCategory;
  /** Null: any language (competitors' brand names). */
  language: ScriptLanguage | null;
  preventive?: boolean;
  unlessWith?: string[];
  parsed: ParsedPhrase;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export interface NegativeSuggestionsResult {
  negatives: NegativeKeywordSuggestion[];
  dropped: DroppedNegative[];
  covered: CoveredQuery[];
  collectData: SemanticResult['collectData'];
  /** Every query row each automatic (`ready`) suggestion would block; `queries` of a suggestion lists only the first 20. */
  blocking: SuggestionBlocking[];
}

const phraseText = (parsed: ParsedPhrase) => parsed.words.map((word) => `${word.fixed ? '!' : word.forced ? '+' : ''}${word.form}`).join(' ');

export function suggestNegatives(account: PreparedAccount, settings: AnalysisSettings, hasConversions: boolean, monthFactor: number): NegativeSuggestionsResult {
  const ctx = negativeContext(account, settings);
  const { candidates, collectData, covered } = collectCandidates(ctx, account, settings, hasConversions);
  const own = ownDemandIndex(account);
  const { kept, droppedCandidates } = splitByOwnDemand(candidates, own.blockedBy);
  const alternativeKeys = addAlternatives(account, ctx, own, kept, droppedCandidates);
  const { negatives, blocking } = toSuggestions(kept, settings, monthFactor);
  const dropped = droppedCandidates.map(({ dropped }) => {
    const ids = [...(alternativeKeys.get(dropped) ?? [])].map((key) => `neg:${key}`);
    return ids.length ? { ...dropped, alternativeIds: ids } : dropped;
  });
  return { negatives, dropped, covered, collectData, blocking };
}

/** What every phase of the suggestions looks things up in, made once per account. */
type NegativeContext = ReturnType<typeof negativeContext>;

function negativeContext(account: PreparedAccount, settings: AnalysisSettings) {
  const { lemmatizer, platform } = account;
  const lexicon: LexiconItem[] = [
    ...nonCommercialLexicon.map((entry: LexiconEntry) => ({ ...entry, parsed: parsePhrase(entry.text, lemmatizer) })),
    ...settings.competitors.map((text) => ({ text: normalizeText(text), category: 'competitors' as const, language: null, parsed: parsePhrase(normalizeText(text), lemmatizer) })),
  ];

  // Entries by the forms and lemmas of their first word, so a query only tries the entries it can match.
  const lexiconByWord = new Map<string, LexiconItem[]>();
  for (const entry of lexicon) {
    const first = entry.parsed.significant[0];
    if (!first) continue;
    for (const key of new Set([first.form, ...first.lemmas])) {
      const list = lexiconByWord.get(key) ?? [];
      list.push(entry);
      lexiconByWord.set(key, list);
    }
  }

  // Home geography: the project's region, and per campaign what the campaign itself targets.
  const gazetteer = gazetteerFor(lemmatizer);
  const projectHome = gazetteer.homeOf([settings.homeRegionWords.join(' ')]);
  const homeOfCampaign = new Map<PreparedCampaign, { places: Set<string>; known: boolean }>();
  const campaignHome = (campaign: PreparedCampaign) => {
    let home = homeOfCampaign.get(campaign);
    if (!home) {
      const regions = campaign.groups.map((group) => group.group.region).filter((region): region is string => Boolean(region?.trim()));
      const keys = [...projectHome, ...gazetteer.homeOf(regions)];
      for (const group of campaign.groups) for (const keyword of group.keywords) for (const match of gazetteer.find(keyword.parsed.words)) keys.push(match.place.key);
      home = { places: gazetteer.expand(keys), known: settings.homeRegionWords.length > 0 || regions.length > 0 };
      homeOfCampaign.set(campaign, home);
    }
    return home;
  };
  const languageOfCampaign = new Map<PreparedCampaign, ScriptLanguage>();
  const campaignLanguage = (campaign: PreparedCampaign) => {
    let language = languageOfCampaign.get(campaign);
    if (!language) {
      language = majorityLanguage(campaign.groups.flatMap((group) => group.keywords.map((keyword) => keyword.parsed.words)));
      languageOfCampaign.set(campaign, language);
    }
    return language;
  };

  /** Google negatives do not cover other forms, so a one-word negative is the form people typed, a longer one a phrase. */
  const googleNegative = (text: string, typed: string, wordCount: number) => {
    const chosen = wordCount > 1 ? `"${typed}"` : typed;
    return { text: chosen, parsed: parsePhrase(chosen, lemmatizer) };
  };

  // A query without a group names its keyword among the whole campaign's: the first keyword with that
  // phrase, looked up in a map made once per campaign (a scan of the campaign per query is quadratic).
  const keywordsByPhrase = new Map<PreparedCampaign, Map<string, PreparedKeyword>>();
  const campaignKeyword = (campaign: PreparedCampaign, text: string) => {
    let byPhrase = keywordsByPhrase.get(campaign);
    if (!byPhrase) {
      byPhrase = new Map();
      for (const group of campaign.groups) for (const keyword of group.keywords) if (!byPhrase.has(phraseKey(keyword))) byPhrase.set(phraseKey(keyword), keyword);
      keywordsByPhrase.set(campaign, byPhrase);
    }
    return byPhrase.get(text);
  };

  const alreadyNegative = (campaign: PreparedCampaign, parsed: ParsedPhrase) => campaign.negatives.some((negative) => negativeBlocks(negative, parsed.words, platform));

  return { lemmatizer, platform, lexicon, lexiconByWord, gazetteer, campaignHome, campaignLanguage, googleNegative, campaignKeyword, alreadyNegative };
}

/**
 * The candidates the query report names (category words, foreign places, wasteful queries) or, without a
 * report, the safest curated words; with the queries left to collect data on and those already covered.
 */
function collectCandidates(ctx: NegativeContext, account: PreparedAccount, settings: AnalysisSettings, hasConversions: boolean) {
  const { lemmatizer, platform, lexicon, lexiconByWord, gazetteer, campaignHome, campaignLanguage, googleNegative, campaignKeyword, alreadyNegative } = ctx;
  const candidates = new Map<string, Candidate>();
  const add = (key: string, make: () => Candidate, query?: PreparedQuery) => {
    let candidate = candidates.get(key);
    if (!candidate) {
      candidate = make();
      candidates.set(key, candidate);
    }
    // Queries are added one query at a time (the loop below), so a query the candidate already has is its last one.
    if (query && candidate.queries[candidate.queries.length - 1] !== query) candidate.queries.push(query);
  };
  const collectData: SemanticResult['collectData'] = [];
  const covered: CoveredQuery[] = [];
  for (const query of account.queries) {
    const campaign = query.campaign;
    if (!campaign) continue;
    // A query the current negatives already block (added after the report) needs nothing more.
    const existing = existingNegativeFor(query, platform, campaignKeyword);
    if (existing) {
      covered.push({ query: query.query.query, clicks: query.query.stats.clicks, cost: query.query.stats.cost, negative: existing.text, level: existing.level, target: existing.target });
      continue;
    }
    const language = languageOfWords(query.words) ?? campaignLanguage(campaign);
    let matchedCategory = false;
    // The entries the query's words name, each once, in the order they are found (a few at most: a list).
    const possible: LexiconItem[] = [];
    const collect = (key: string) => {
      const entries = lexiconByWord.get(key);
      if (entries) for (const entry of entries) if (!possible.includes(entry)) possible.push(entry);
    };
    for (const word of query.words) {
      collect(word.form);
      for (const lemma of word.lemmas) collect(lemma);
    }
    for (const entry of possible) {
      if (entry.language !== null && entry.language !== language) continue;
      // Intent is recognised by lemma on every platform (the words mean the same on Google).
      if (!negativeBlocks(entry.parsed, query.words, 'yandex_direct')) continue;
      if (entry.unlessWith && query.words.some((word) => hasAny(word, entry.unlessWith!))) continue;
      matchedCategory = true;
      const typed = query.words.filter((word) => entry.parsed.significant.some((want) => sharesLemma(want, word))).map((word) => word.form).join(' ') || entry.text;
      const { text, parsed } = platform === 'google_ads' ? googleNegative(entry.text, entry.parsed.words.length > 1 ? entry.text : typed, entry.parsed.words.length) : entry;
      // The campaign has this negative already and the query still came: its keyword contains the word,
      // so the negative does not act on it (negative-match.ts). Adding it again changes nothing; the
      // keyword's own finding (keyword.non_commercial) says to stop it.
      if (alreadyNegative(campaign, parsed)) continue;
      add(`${campaign.ref.key}|${text}`, () => ({
        level: 'campaign', target: campaign.ref, campaign, text, parsed, category: entry.category, source: 'queries', queries: [],
        handCheck: entry.category === 'ambiguous' ? 'ambiguous' : undefined,
      }), query);
    }
    const home = campaignHome(campaign);
    for (const match of gazetteer.find(query.words)) {
      if (home.places.has(match.place.key)) continue;
      matchedCategory = true;
      const wordCount = match.name.split(/[\s-]+/).length;
      const { text, parsed } = platform === 'google_ads' ? googleNegative(match.name, match.typed, wordCount) : { text: match.name, parsed: parsePhrase(match.name, lemmatizer) };
      if (alreadyNegative(campaign, parsed)) continue;
      add(`${campaign.ref.key}|${text}`, () => ({
        level: 'campaign', target: campaign.ref, campaign, text, parsed, category: 'foreign_geo', source: 'queries', queries: [],
        handCheck: !home.known ? 'geo_unknown' : match.place.ambiguous ? 'geo_ambiguous' : undefined,
      }), query);
    }
    if (matchedCategory || !hasConversions) continue;
    const { clicks, conversions, cost } = query.query.stats;
    if (conversions > 0 || clicks === 0) continue;
    const target = query.group?.ref ?? campaign.ref;
    if (clicks < settings.minClicksForNegative) {
      collectData.push({ query: query.query.query, clicks, cost, target });
      continue;
    }
    const phrase = queryPhrase(query, platform);
    if (!phrase) continue;
    add(`${target.key}|${phrase}`, () => ({
      level: query.group ? 'group' : 'campaign', target, campaign, text: phrase, parsed: parsePhrase(phrase, lemmatizer), category: 'query', source: 'queries', queries: [],
    }), query);
  }

  // Without a query report, the safest curated words of the campaign's language are proposed up front.
  if (account.queries.length === 0) {
    for (const campaign of account.campaigns) {
      const language = campaignLanguage(campaign);
      for (const entry of lexicon) {
        if (!entry.preventive || entry.language !== language) continue;
        if (alreadyNegative(campaign, entry.parsed)) continue;
        add(`${campaign.ref.key}|${entry.text}`, () => ({ level: 'campaign', target: campaign.ref, campaign, text: entry.text, parsed: entry.parsed, category: entry.category, source: 'curated', queries: [] }));
      }
    }
  }

  return { candidates, collectData, covered };
}

type CandidateBlockedBy = ReturnType<typeof ownDemandIndex>['blockedBy'];

/** Which of the campaign's own keywords and converting queries a candidate would block, by word indexes. */
function ownDemandIndex(account: PreparedAccount) {
  const { platform } = account;
  const convertingByCampaign = new Map<PreparedCampaign, PreparedQuery[]>();
  for (const query of account.queries) {
    if (!query.campaign || query.query.stats.conversions <= 0) continue;
    const list = convertingByCampaign.get(query.campaign) ?? [];
    list.push(query);
    convertingByCampaign.set(query.campaign, list);
  }
  const groupsByKey = new Map(account.groups.map((group) => [group.ref.key, group]));
  const convertingIndex = new Map<PreparedCampaign, WordIndex<PreparedQuery>>();
  // A campaign-wide negative is matched only against the keywords holding its first word (a scan of
  // the campaign's keywords per candidate was the stage's largest cost on a big account).
  const keywordIndex = new Map<PreparedCampaign, WordIndex<PreparedKeyword>>();
  const keywordWords = (keyword: PreparedKeyword) => keyword.parsed.words;
  const blockedBy = (candidate: Pick<Candidate, 'parsed' | 'level' | 'target' | 'campaign'>) => {
    const { parsed, campaign } = candidate;
    let keywords: PreparedKeyword[];
    if (candidate.level === 'group') {
      const group = groupsByKey.get(candidate.target.key);
      keywords = group && group.ref.campaignIndex === campaign.ref.campaignIndex ? group.keywords.filter((keyword) => negativeBlocks(parsed, keyword.parsed.words, platform)) : [];
    } else {
      let index = keywordIndex.get(campaign);
      if (!index) keywordIndex.set(campaign, (index = new WordIndex(campaign.groups.flatMap((group) => group.keywords), keywordWords)));
      keywords = index.blockedBy(parsed, platform);
    }
    let converting = convertingIndex.get(campaign);
    if (!converting) convertingIndex.set(campaign, (converting = new WordIndex(convertingByCampaign.get(campaign) ?? [], (query) => query.words)));
    return { keywords, queries: converting.blockedBy(parsed, platform) };
  };

  return { blockedBy, convertingByCampaign };
}

/** The candidates that may go in, and those that would cut the account's own demand (with the reason). */
function splitByOwnDemand(candidates: Map<string, Candidate>, blockedBy: CandidateBlockedBy) {
  // Split the candidates into the ones that may go in and the ones that would cut the account's own demand.
  const kept: [string, Candidate][] = [];
  const droppedCandidates: { candidate: Candidate; dropped: DroppedNegative }[] = [];
  for (const [key, candidate] of candidates) {
    const blocked = blockedBy(candidate);
    if (blocked.keywords.length || blocked.queries.length) {
      droppedCandidates.push({
        candidate,
        dropped: {
          text: candidate.text,
          level: candidate.level,
          target: candidate.target,
          category: candidate.category,
          reason: blocked.queries.length
            ? `Минус-слово «${candidate.text}» заблокировало бы запросы с конверсиями: ${blocked.queries.slice(0, 3).map((query) => `«${query.query.query}»`).join(', ')}.`
            : `Минус-слово «${candidate.text}» отключило бы свои ключевые фразы: ${blocked.keywords.slice(0, 3).map((keyword) => `«${keyword.keyword.phrase}»`).join(', ')}.`,
          blockedQueries: blocked.queries.map((query) => query.query.query),
          blockedKeywords: blocked.keywords.map((keyword) => keyword.keyword.phrase),
        },
      });
      continue;
    }
    kept.push([key, candidate]);
  }

  return { kept, droppedCandidates };
}

/**
 * A dropped negative must not leave its queries uncovered: the narrowest safe alternative per query joins
 * `kept` (or a kept candidate with the same text). Answers the alternatives' keys per dropped negative.
 */
function addAlternatives(
  account: PreparedAccount,
  ctx: NegativeContext,
  own: ReturnType<typeof ownDemandIndex>,
  kept: [string, Candidate][],
  droppedCandidates: { candidate: Candidate; dropped: DroppedNegative }[],
): Map<DroppedNegative, Set<string>> {
  const { campaignHome } = ctx;
  const { blockedBy, convertingByCampaign } = own;
  const coveredByKept = new Set<PreparedQuery>();
  for (const [, candidate] of kept) if (!candidate.handCheck) for (const query of candidate.queries) coveredByKept.add(query);
  const keptByKey = new Map(kept);
  const alternatives = new AlternativeFinder(account, blockedBy, convertingByCampaign);
  const alternativeKeys = new Map<DroppedNegative, Set<string>>();
  // The queries of a kept candidate an alternative joins, as a set: a list scan per query is quadratic on a big report.
  const queriesOf = new Map<Candidate, Set<PreparedQuery>>();
  const hasQuery = (candidate: Candidate, query: PreparedQuery) => {
    let set = queriesOf.get(candidate);
    if (!set) queriesOf.set(candidate, (set = new Set(candidate.queries)));
    return set.has(query);
  };
  for (const { candidate, dropped } of droppedCandidates) {
    if (candidate.handCheck || candidate.category === 'query') continue;
    const keys = new Set<string>();
    for (const query of candidate.queries) {
      if (query.query.stats.conversions > 0 || coveredByKept.has(query)) continue;
      const alternative = alternatives.narrowest(query, candidate, campaignHome(candidate.campaign).places);
      if (!alternative) continue;
      const key = `${alternative.target.key}|${alternative.text}`;
      const existing = keptByKey.get(key);
      if (existing) {
        if (!hasQuery(existing, query)) {
          existing.queries.push(query);
          queriesOf.get(existing)!.add(query);
        }
      } else {
        const added: Candidate = { ...alternative, queries: [query], reason: `${dropped.reason} ${alternative.why}` };
        kept.push([key, added]);
        keptByKey.set(key, added);
      }
      coveredByKept.add(query);
      keys.add(key);
    }
    alternativeKeys.set(dropped, keys);
  }

  return alternativeKeys;
}

/** The kept candidates as suggestions, dearest first, with every query row each automatic one blocks. */
function toSuggestions(kept: [string, Candidate][], settings: AnalysisSettings, monthFactor: number) {
  const negatives: NegativeKeywordSuggestion[] = [];
  const blocking: SuggestionBlocking[] = [];
  for (const [key, candidate] of kept) {
    const clicks = candidate.queries.reduce((sum, query) => sum + query.query.stats.clicks, 0);
    const cost = round2(candidate.queries.reduce((sum, query) => sum + query.query.stats.cost, 0));
    const handCheck = Boolean(candidate.handCheck);
    const id = `neg:${key}`;
    if (!handCheck) blocking.push({ suggestionId: id, queries: candidate.queries.map((query) => query.query) });
    negatives.push({
      id,
      kind: 'negative_keyword',
      level: candidate.level,
      target: candidate.target,
      text: candidate.text,
      category: candidate.category,
      status: handCheck ? 'check_by_hand' : 'ready',
      source: candidate.source,
      reason: candidate.reason ?? reasonOf(candidate),
      queries: candidate.queries.slice(0, 20).map((query) => ({ query: query.query.query, clicks: query.query.stats.clicks, cost: query.query.stats.cost, conversions: query.query.stats.conversions })),
      clicks,
      cost,
      costPerMonth: round2(cost * monthFactor),
      evidence: candidate.category === 'query'
        ? [
            { label: 'Клики', value: clicks, threshold: settings.minClicksForNegative, setting: 'minClicksForNegative', unit: 'clicks' },
            { label: 'Конверсии', value: 0, unit: 'conversions' },
            { label: 'Расход', value: cost, unit: 'rub' },
          ]
        : [
            { label: 'Запросов', value: candidate.queries.length, unit: 'count' },
            { label: 'Расход', value: cost, unit: 'rub' },
          ],
    });
  }
  negatives.sort((a, b) => b.cost - a.cost);
  return { negatives, blocking };
}

function sharesLemma(a: PhraseWord, b: PhraseWord): boolean {
  return a.form === b.form || a.lemmas.some((lemma) => b.lemmas.includes(lemma));
}

const hasAny = (word: PhraseWord, lemmas: readonly string[]) => lemmas.includes(word.form) || word.lemmas.some((lemma) => lemmas.includes(lemma));

/** The query as a minus-phrase: its significant words (Google: in quotes, phrase match). */
function queryPhrase(query: PreparedQuery, platform: PreparedAccount['platform']): string {
  const text = query.words.filter((word) => !word.stop).map((word) => word.form).join(' ');
  if (!text) return '';
  return platform === 'google_ads' ? `"${text}"` : text;
}

/** How the report's keyword column names a keyword: its phrase, trimmed, in lower case. */
const phraseKey = (keyword: PreparedKeyword) => keyword.keyword.phrase.trim().toLowerCase();

/** The first existing negative (keyword's own minus-words, then the group's, then the campaign's) that blocks the query. */
function existingNegativeFor(query: PreparedQuery, platform: PreparedAccount['platform'], campaignKeyword: (campaign: PreparedCampaign, text: string) => PreparedKeyword | undefined): { text: string; level: CoveredQuery['level']; target: EntityRef } | null {
  const campaign = query.campaign!;
  const keywordText = query.query.keyword?.trim().toLowerCase();
  const keyword = !keywordText ? undefined : query.group ? query.group.keywords.find((candidate) => phraseKey(candidate) === keywordText) : campaignKeyword(campaign, keywordText);
  for (const minus of keyword?.parsed.minus ?? []) if (negativeBlocks(minus, query.words, platform)) return { text: phraseText(minus), level: 'keyword', target: keyword!.ref };
  // A group or campaign negative the query's own keyword contains does not act on it in Direct (negative-match.ts).
  const acts = (negative: ParsedPhrase) => negativeBlocks(negative, query.words, platform) && sharedNegativeApplies(negative, keyword?.parsed.words, platform);
  if (query.group) {
    const index = query.group.negatives.findIndex(acts);
    if (index >= 0) return { text: query.group.negativeTexts[index], level: 'group', target: query.group.ref };
  }
  const index = campaign.negatives.findIndex(acts);
  if (index >= 0) return { text: campaign.campaign.negativeKeywords[index], level: 'campaign', target: campaign.ref };
  return null;
}

/** A safe negative in place of a dropped one: a candidate of its own, with why it was chosen. */
type Alternative = Omit<Candidate, 'queries' | 'handCheck' | 'reason' | 'source'> & { source: 'queries'; why: string };

interface CampaignWords {
  forms: Set<string>;
  lemmas: Set<string>;
}

type BlockedBy = (candidate: Pick<Candidate, 'parsed' | 'level' | 'target' | 'campaign'>) => { keywords: unknown[]; queries: unknown[] };

/**
 * What can block a query when the obvious negative cannot: another word of the query on the query's
 * group (or campaign) that blocks no own keyword and no converting query — not a buying word (купить,
 * цена) nor a home place, and of those the one blocking the fewest rows of the campaign's report — else
 * the whole query as a minus-phrase on its group, if even that is safe. Memoised per campaign and word:
 * a big report has many queries with the same words.
 */
class AlternativeFinder {
  private readonly safeWord = new Map<string, ParsedPhrase | null>();
  private rowsWithKey: Map<PreparedCampaign, Map<string, number>> | null = null;
  private readonly wordsOfCampaign = new Map<PreparedCampaign, CampaignWords>();

  constructor(
    private readonly account: PreparedAccount,
    private readonly blockedBy: BlockedBy,
    private readonly convertingByCampaign: ReadonlyMap<PreparedCampaign, readonly PreparedQuery[]>,
  ) {}

  /** How many of the campaign's report rows hold the word (by lemma on Yandex, by form on Google). */
  private rows(campaign: PreparedCampaign, word: PhraseWord): number {
    // Counted for every campaign in one pass over the report (one pass per campaign is quadratic on a big account).
    if (!this.rowsWithKey) {
      this.rowsWithKey = new Map();
      const keys = new Set<string>();
      for (const query of this.account.queries) {
        if (!query.campaign) continue;
        let counts = this.rowsWithKey.get(query.campaign);
        if (!counts) this.rowsWithKey.set(query.campaign, (counts = new Map()));
        keys.clear();
        for (const queryWord of query.words) {
          if (this.account.platform === 'google_ads') keys.add(queryWord.form);
          else for (const lemma of queryWord.lemmas) keys.add(lemma);
        }
        for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    const counts = this.rowsWithKey.get(campaign);
    if (!counts) return 0;
    const keys = this.account.platform === 'google_ads' ? [word.form] : word.lemmas;
    return Math.max(0, ...keys.map((key) => counts.get(key) ?? 0));
  }

  /** Every form and lemma of the campaign's keywords and converting queries: what a one-word negative would hit. */
  private campaignWords(campaign: PreparedCampaign): CampaignWords {
    let words = this.wordsOfCampaign.get(campaign);
    if (!words) {
      words = { forms: new Set(), lemmas: new Set() };
      const addWords = (list: readonly PhraseWord[]) => {
        for (const word of list) {
          words!.forms.add(word.form);
          for (const lemma of word.lemmas) words!.lemmas.add(lemma);
        }
      };
      for (const group of campaign.groups) for (const keyword of group.keywords) addWords(keyword.parsed.words);
      for (const query of this.convertingByCampaign.get(campaign) ?? []) addWords(query.words);
      this.wordsOfCampaign.set(campaign, words);
    }
    return words;
  }

  /**
   * Whether a one-word broad negative blocks any keyword or converting query of the campaign: the same
   * answer as `blockedBy` (negative-match.ts: Yandex by a shared lemma, or by form for a stop or `!` word;
   * Google by form), from the campaign's word sets instead of a scan of its keywords per word.
   */
  private blocksAny(campaign: PreparedCampaign, parsed: ParsedPhrase): boolean | null {
    if (parsed.words.length !== 1 || parsed.quoted || parsed.bracketed) return null;
    const word = parsed.words[0]!;
    const words = this.campaignWords(campaign);
    if (this.account.platform === 'google_ads' || word.fixed || word.stop) return words.forms.has(word.form);
    return word.lemmas.some((lemma) => words.lemmas.has(lemma));
  }

  /** The word as a campaign-wide negative, when it blocks none of the campaign's keywords nor a converting query. */
  private safe(campaign: PreparedCampaign, word: PhraseWord): ParsedPhrase | null {
    const key = `${campaign.ref.key}|${word.form}`;
    let parsed = this.safeWord.get(key);
    if (parsed === undefined) {
      const candidate = parsePhrase(word.form, this.account.lemmatizer);
      // Broad: a word must be safe for the whole campaign, even when it goes on one group.
      let blocks = this.blocksAny(campaign, candidate);
      if (blocks === null) {
        const blocked = this.blockedBy({ parsed: candidate, level: 'campaign', target: campaign.ref, campaign });
        blocks = blocked.keywords.length > 0 || blocked.queries.length > 0;
      }
      parsed = blocks ? null : candidate;
      this.safeWord.set(key, parsed);
    }
    return parsed;
  }

  narrowest(query: PreparedQuery, dropped: Candidate, homePlaces: Set<string>): Alternative | null {
    const { lemmatizer, platform } = this.account;
    const campaign = dropped.campaign;
    const level = query.group ? 'group' : 'campaign';
    const target = query.group?.ref ?? campaign.ref;
    const homeWords = new Set(gazetteerFor(lemmatizer).find(query.words).filter((match) => homePlaces.has(match.place.key)).flatMap((match) => match.typed.split(' ')));
    let best: { text: string; parsed: ParsedPhrase; rows: number } | null = null;
    for (const word of query.words) {
      if (word.stop || dropped.parsed.significant.some((want) => sharesLemma(want, word))) continue;
      if (hasAny(word, buyingWords) || homeWords.has(word.form) || /^\d+$/.test(word.form)) continue;
      const parsed = this.safe(campaign, word);
      if (!parsed) continue;
      const rows = this.rows(campaign, word);
      if (!best || rows < best.rows) best = { text: word.form, parsed, rows };
    }
    if (best) {
      return {
        level, target, campaign, text: best.text, parsed: best.parsed, category: dropped.category, source: 'queries',
        why: `Вместо него — «${best.text}» из запроса «${query.query.query}»: это слово не отключает ни одной своей фразы и ни одного запроса с конверсиями.`,
      };
    }
    const phrase = queryPhrase(query, platform);
    if (!phrase) return null;
    const parsed = parsePhrase(phrase, lemmatizer);
    const blocked = this.blockedBy({ parsed, level, target, campaign });
    if (blocked.keywords.length || blocked.queries.length) return null;
    return {
      level, target, campaign, text: phrase, parsed, category: dropped.category, source: 'queries',
      why: `Каждое другое слово запроса тоже задело бы свои фразы или запросы с конверсиями, поэтому минус-фраза — сам запрос «${query.query.query}» на его группу.`,
    };
  }
}

/**
 * Items (a campaign's keywords or converting queries) by the forms and lemmas of their words, so a
 * negative is matched only against the items that hold its first word: a negative blocks nothing
 * without it (negative-match.ts: Yandex by a shared lemma, or the form for a stop or `!` word; Google by
 * form). `blockedBy` answers what filtering every item with `negativeBlocks` does, in the items' order.
 * Each key lists the positions of its items in ascending order (items are indexed in order), so a
 * negative reads only its holders, never the whole list.
 */
class WordIndex<T> {
  private readonly byForm = new Map<string, number[]>();
  private readonly byLemma = new Map<string, number[]>();

  constructor(
    private readonly items: readonly T[],
    private readonly wordsOf: (item: T) => PhraseWord[],
  ) {
    const put = (map: Map<string, number[]>, key: string, position: number) => {
      const list = map.get(key);
      if (!list) map.set(key, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    };
    items.forEach((item, position) => {
      for (const word of wordsOf(item)) {
        put(this.byForm, word.form, position);
        for (const lemma of word.lemmas) put(this.byLemma, lemma, position);
      }
    });
  }

  blockedBy(negative: ParsedPhrase, platform: PreparedAccount['platform']): T[] {
    const first = platform === 'google_ads' ? negative.words[0] : negative.significant[0];
    if (!first) return [];
    let holders: readonly number[] | undefined;
    if (platform === 'google_ads' || first.fixed || first.stop) holders = this.byForm.get(first.form);
    else if (first.lemmas.length === 1) holders = this.byLemma.get(first.lemmas[0]);
    else {
      // Homonyms: the holders of any of the word's lemmas, each once, in the items' order.
      const merged: number[] = [];
      for (const lemma of first.lemmas) for (const position of this.byLemma.get(lemma) ?? []) merged.push(position);
      merged.sort((a, b) => a - b);
      holders = merged.filter((position, i) => i === 0 || merged[i - 1] !== position);
    }
    if (!holders || holders.length === 0) return [];
    const blocked: T[] = [];
    for (const position of holders) {
      const item = this.items[position];
      if (negativeBlocks(negative, this.wordsOf(item), platform)) blocked.push(item);
    }
    return blocked;
  }
}

/** Never an alternative negative: the words of buyers (купить, цена, доставка; buy, cheap, delivery). */
const buyingWords = [...commercialMarkers, 'cheap', 'deliver', 'delivery', 'near', 'cost', 'sale', 'store'];

function reasonOf(candidate: Candidate): string {
  if (candidate.handCheck === 'ambiguous') return `Запросы со словом «${candidate.text}» бывают и у покупателей: проверьте их вручную, автоматически не добавляется.`;
  if (candidate.handCheck === 'geo_unknown') return `«${candidate.text}» — другой город или страна? Регион проекта не указан, проверьте вручную.`;
  if (candidate.handCheck === 'geo_ambiguous') return `«${candidate.text}» — название города, но и обычное слово или имя: проверьте запросы вручную.`;
  if (candidate.category === 'foreign_geo') return `«${candidate.text}» — место вне региона проекта и таргетинга кампании: минус-слово на кампанию.`;
  if (candidate.category === 'query') return `Запрос без конверсий с достаточным числом кликов: минус-фраза на группу.`;
  if (candidate.source === 'curated') return `Нецелевой интент («${candidate.text}»): обычно такие запросы не покупают. Минус-слово на кампанию заранее.`;
  return `Нецелевой интент («${candidate.text}») в запросах: минус-слово на кампанию.`;
}
