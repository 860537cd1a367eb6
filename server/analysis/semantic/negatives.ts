/**
 * Negative-keyword suggestions from the search-query report and the curated non-commercial intents.
 *
 * - Category words (бесплатно, скачать, вакансии, б/у, other cities, competitors) go in at campaign level,
 *   one word per entry, whatever the volume: the intent is plain from the word.
 * - Ambiguous intents (отзывы, форум…) are "check by hand" and never added automatically.
 * - Other queries with no conversions go in as group-level minus-phrases, only with enough clicks
 *   (`minClicksForNegative`); below it they are "collect data". They need conversion data at all.
 * - No suggestion may block a query that converted, or a keyword of the campaign itself: such a
 *   negative is dropped and listed with the reason.
 * - Other cities are "foreign" only when the account does not target them: a city written in the
 *   account's keywords, group regions or `homeRegionWords` is home. With no idea of the home region,
 *   geography is "check by hand".
 */
import type { AnalysisSettings, DroppedNegative, EntityRef, NegativeCategory, NegativeKeywordSuggestion, SemanticResult } from '../../../src/contract/analysis-results.js';
import { nonCommercialLexicon } from './intent-lexicon.js';
import { negativeBlocks } from './negative-match.js';
import { normalizeText, parsePhrase, type ParsedPhrase } from './phrase.js';
import type { SuggestionBlocking } from './non-target-queries.js';
import type { PreparedAccount, PreparedCampaign, PreparedQuery } from './prepare.js';

interface Candidate {
  level: 'campaign' | 'group';
  target: EntityRef;
  campaign: PreparedCampaign;
  text: string;
  parsed: ParsedPhrase;
  category: NegativeCategory;
  source: 'queries' | 'curated';
  queries: PreparedQuery[];
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export interface NegativeSuggestionsResult {
  negatives: NegativeKeywordSuggestion[];
  dropped: DroppedNegative[];
  collectData: SemanticResult['collectData'];
  /** Every query row each automatic (`ready`) suggestion would block; `queries` of a suggestion lists only the first 20. */
  blocking: SuggestionBlocking[];
}

export function suggestNegatives(account: PreparedAccount, settings: AnalysisSettings, hasConversions: boolean, monthFactor: number): NegativeSuggestionsResult {
  const { lemmatizer, platform } = account;
  const lexicon = [
    ...nonCommercialLexicon,
    ...settings.competitors.map((text) => ({ text: normalizeText(text), category: 'competitors' as const })),
  ].map((entry) => ({ ...entry, parsed: parsePhrase(entry.text, lemmatizer) }));

  // Entries by the forms and lemmas of their first word, so a query only tries the entries it can match.
  const lexiconByWord = new Map<string, (typeof lexicon)[number][]>();
  for (const entry of lexicon) {
    const first = entry.parsed.significant[0];
    if (!first) continue;
    for (const key of new Set([first.form, ...first.lemmas])) {
      const list = lexiconByWord.get(key) ?? [];
      list.push(entry);
      lexiconByWord.set(key, list);
    }
  }

  // Home geography: what the account itself targets.
  const homeLemmas = new Set<string>();
  for (const word of settings.homeRegionWords) for (const lemma of lemmatizer.lemmatize(normalizeText(word)).all) homeLemmas.add(lemma);
  for (const keyword of account.keywords) for (const word of keyword.parsed.words) for (const lemma of word.lemmas) homeLemmas.add(lemma);
  for (const group of account.groups) {
    for (const word of parsePhrase(group.group.region ?? '', lemmatizer).words) for (const lemma of word.lemmas) homeLemmas.add(lemma);
  }
  const homeRegionKnown = settings.homeRegionWords.length > 0 || account.groups.some((group) => Boolean(group.group.region));

  const candidates = new Map<string, Candidate>();
  const add = (key: string, make: () => Candidate, query?: PreparedQuery) => {
    let candidate = candidates.get(key);
    if (!candidate) {
      candidate = make();
      candidates.set(key, candidate);
    }
    // Two lexicon entries of one text (a competitor that is also a curated word) meet the same query in a row.
    if (query && candidate.queries[candidate.queries.length - 1] !== query) candidate.queries.push(query);
  };
  const collectData: SemanticResult['collectData'] = [];
  /** Google negatives do not cover other forms, so the negative is the form people typed. */
  const googleNegativeFor = (entry: (typeof lexicon)[number], query: PreparedQuery) => {
    if (entry.parsed.significant.length > 1) {
      const text = `"${entry.text}"`;
      return { text, parsed: parsePhrase(text, lemmatizer) };
    }
    const lemmas = entry.parsed.significant[0].lemmas;
    const typed = query.words.find((word) => word.lemmas.some((lemma) => lemmas.includes(lemma)))?.form ?? entry.text;
    return { text: typed, parsed: parsePhrase(typed, lemmatizer) };
  };

  for (const query of account.queries) {
    const campaign = query.campaign;
    if (!campaign) continue;
    // A query the current negatives already block (added after the report) needs nothing more.
    if (campaign.negatives.some((negative) => negativeBlocks(negative, query.words, platform))) continue;
    if (query.group?.negatives.some((negative) => negativeBlocks(negative, query.words, platform))) continue;
    let matchedCategory = false;
    const possible = new Set<(typeof lexicon)[number]>();
    for (const word of query.words) {
      for (const entry of lexiconByWord.get(word.form) ?? []) possible.add(entry);
      for (const lemma of word.lemmas) for (const entry of lexiconByWord.get(lemma) ?? []) possible.add(entry);
    }
    for (const entry of possible) {
      // Intent is recognised by lemma on every platform (the words mean the same on Google).
      if (!negativeBlocks(entry.parsed, query.words, 'yandex_direct')) continue;
      if (entry.category === 'foreign_geo' && entry.parsed.significant.some((word) => word.lemmas.some((lemma) => homeLemmas.has(lemma)))) continue;
      matchedCategory = true;
      const { text, parsed } = platform === 'google_ads' ? googleNegativeFor(entry, query) : entry;
      add(`${campaign.ref.key}|${text}`, () => ({ level: 'campaign', target: campaign.ref, campaign, text, parsed, category: entry.category, source: 'queries', queries: [] }), query);
    }
    if (matchedCategory || !hasConversions) continue;
    const { clicks, conversions, cost } = query.query.stats;
    if (conversions > 0 || clicks === 0) continue;
    const target = query.group?.ref ?? campaign.ref;
    if (clicks < settings.minClicksForNegative) {
      collectData.push({ query: query.query.query, clicks, cost, target });
      continue;
    }
    const text = query.words.filter((word) => !word.stop).map((word) => word.form).join(' ');
    if (!text) continue;
    const phrase = platform === 'google_ads' ? `"${text}"` : text;
    add(`${target.key}|${phrase}`, () => ({
      level: query.group ? 'group' : 'campaign',
      target,
      campaign,
      text: phrase,
      parsed: parsePhrase(phrase, lemmatizer),
      category: 'query',
      source: 'queries',
      queries: [],
    }), query);
  }

  // Without a query report, the safest curated words are proposed up front.
  if (account.queries.length === 0) {
    for (const campaign of account.campaigns) {
      for (const entry of lexicon) {
        if (!('preventive' in entry) || !entry.preventive) continue;
        if (campaign.negatives.some((negative) => negativeBlocks(negative, entry.parsed.words, platform))) continue;
        add(`${campaign.ref.key}|${entry.text}`, () => ({ level: 'campaign', target: campaign.ref, campaign, text: entry.text, parsed: entry.parsed, category: entry.category, source: 'curated', queries: [] }));
      }
    }
  }

  const convertingByCampaign = new Map<PreparedCampaign, PreparedQuery[]>();
  for (const query of account.queries) {
    if (!query.campaign || query.query.stats.conversions <= 0) continue;
    const list = convertingByCampaign.get(query.campaign) ?? [];
    list.push(query);
    convertingByCampaign.set(query.campaign, list);
  }

  const negatives: NegativeKeywordSuggestion[] = [];
  const dropped: DroppedNegative[] = [];
  const blocking: SuggestionBlocking[] = [];
  for (const [key, candidate] of candidates) {
    const { parsed, campaign } = candidate;
    const scopeGroups = candidate.level === 'group' ? campaign.groups.filter((group) => group.ref.key === candidate.target.key) : campaign.groups;
    const blockedKeywords = scopeGroups.flatMap((group) => group.keywords).filter((keyword) => negativeBlocks(parsed, keyword.parsed.words, platform));
    const blockedQueries = (convertingByCampaign.get(campaign) ?? []).filter((query) => negativeBlocks(parsed, query.words, platform));
    if (blockedKeywords.length || blockedQueries.length) {
      dropped.push({
        text: candidate.text,
        level: candidate.level,
        target: candidate.target,
        category: candidate.category,
        reason: blockedQueries.length
          ? `Минус-слово «${candidate.text}» заблокировало бы запросы с конверсиями: ${blockedQueries.slice(0, 3).map((query) => `«${query.query.query}»`).join(', ')}.`
          : `Минус-слово «${candidate.text}» отключило бы свои ключевые фразы: ${blockedKeywords.slice(0, 3).map((keyword) => `«${keyword.keyword.phrase}»`).join(', ')}.`,
        blockedQueries: blockedQueries.map((query) => query.query.query),
        blockedKeywords: blockedKeywords.map((keyword) => keyword.keyword.phrase),
      });
      continue;
    }
    const clicks = candidate.queries.reduce((sum, query) => sum + query.query.stats.clicks, 0);
    const cost = round2(candidate.queries.reduce((sum, query) => sum + query.query.stats.cost, 0));
    const handCheck = candidate.category === 'ambiguous' || (candidate.category === 'foreign_geo' && !homeRegionKnown);
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
      reason: reasonOf(candidate, handCheck),
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
  return { negatives, dropped, collectData, blocking };
}

function reasonOf(candidate: Candidate, handCheck: boolean): string {
  if (candidate.category === 'ambiguous') return `Запросы со словом «${candidate.text}» бывают и у покупателей: проверьте их вручную, автоматически не добавляется.`;
  if (candidate.category === 'foreign_geo' && handCheck) return `«${candidate.text}» — другой город или страна? Регион проекта не указан, проверьте вручную.`;
  if (candidate.category === 'query') return `Запрос без конверсий с достаточным числом кликов: минус-фраза на группу.`;
  if (candidate.source === 'curated') return `Нецелевой интент («${candidate.text}»): обычно такие запросы не покупают. Минус-слово на кампанию заранее.`;
  return `Нецелевой интент («${candidate.text}») в запросах: минус-слово на кампанию.`;
}
