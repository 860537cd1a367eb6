/**
 * Clustering of keywords by intent: keywords whose lemmas, without intent markers (купить, цена,
 * как…) and place names, are the same set belong to one topic; the markers decide the intent.
 * A cluster spread over several groups is the same demand split between ads.
 */
import type { KeywordCluster, QueryIntent } from '../../../contract/analysis-results.js';
import { placeWords } from './geo/gazetteer.js';
import { commercialMarkers, informationalMarkers, navigationalMarkers } from './intent-lexicon.js';
import { sortedKey, type PhraseWord } from './phrase.js';
import type { PreparedAccount, PreparedKeyword } from './prepare.js';


const has = (markers: ReadonlySet<string>, word: PhraseWord) => markers.has(word.form) || word.lemmas.some((lemma) => markers.has(lemma));

const COMMERCIAL = 1;
const INFORMATIONAL = 2;
const NAVIGATIONAL = 4;
const PLACE = 8;

/**
 * Which marker lists a word is on, as bits, once per word: words are shared objects (phrase.ts), and
 * every keyword asks about each of its words several times (its topic, its intent, its group's topics).
 */
const markerBits = new WeakMap<PhraseWord, number>();

function markersOf(word: PhraseWord): number {
  let bits = markerBits.get(word);
  if (bits === undefined) {
    bits =
      (has(commercialMarkers, word) ? COMMERCIAL : 0) |
      (has(informationalMarkers, word) ? INFORMATIONAL : 0) |
      (has(navigationalMarkers, word) ? NAVIGATIONAL : 0) |
      (has(placeWords, word) ? PLACE : 0);
    markerBits.set(word, bits);
  }
  return bits;
}

const anyWith = (words: readonly PhraseWord[], bit: number) => words.some((word) => (markersOf(word) & bit) !== 0);

export function intentOf(words: PhraseWord[]): QueryIntent {
  if (anyWith(words, COMMERCIAL)) return 'commercial';
  if (anyWith(words, INFORMATIONAL)) return 'informational';
  if (anyWith(words, NAVIGATIONAL)) return 'navigational';
  return 'unknown';
}

/** The keyword's topic: its lemmas without intent markers and place names, sorted, space-separated. */
export function topicKey(keyword: PreparedKeyword): string {
  const significant = keyword.parsed.significant;
  const lemmas: string[] = [];
  for (const word of significant) if (markersOf(word) === 0 && !lemmas.includes(word.lemma)) lemmas.push(word.lemma);
  // A keyword of markers only («купить в москве») is its own topic.
  if (lemmas.length === 0) for (const word of significant) if (!lemmas.includes(word.lemma)) lemmas.push(word.lemma);
  return sortedKey(lemmas);
}

/** Clusters of two or more keywords, largest first. */
export function clusterKeywords(account: PreparedAccount): KeywordCluster[] {
  const byTopic = new Map<string, PreparedKeyword[]>();
  for (const keyword of account.keywords) {
    const key = topicKey(keyword);
    const list = byTopic.get(key);
    if (list) list.push(keyword);
    else byTopic.set(key, [keyword]);
  }
  const clusters: KeywordCluster[] = [];
  for (const [key, keywords] of byTopic) {
    if (keywords.length < 2) continue;
    const votes = new Map<QueryIntent, number>();
    for (const keyword of keywords) {
      const intent = intentOf(keyword.parsed.words);
      votes.set(intent, (votes.get(intent) ?? 0) + 1);
    }
    const intent = [...votes.entries()].sort((a, b) => b[1] - a[1])[0][0];
    clusters.push({
      id: `cl:${key}`,
      lemmas: key.split(' '),
      intent,
      keywords: keywords.map((keyword) => keyword.ref),
      groupKeys: [...new Set(keywords.map((keyword) => keyword.group.ref.key))],
    });
  }
  clusters.sort((a, b) => b.keywords.length - a.keywords.length);
  return clusters;
}

export interface GroupTopics {
  /** Unrelated topics of the group, largest first: keywords whose topics share no lemma, with at least `minKeywords` of them or `minShare` of the group. */
  topics: { lemmas: string[]; keywords: PreparedKeyword[] }[];
}

/**
 * The unrelated topics inside one group. Keywords are joined into one topic when their topics share a
 * lemma (розы красные and розы белые are one topic, роза; розы and тюльпаны are two), transitively. A
 * topic counts when it has at least `minKeywords` keywords or `minShare` of the group's keywords: a
 * single odd keyword in a big group is noise, not a second product.
 */
export function groupTopics(keywords: readonly PreparedKeyword[], minKeywords = 2, minShare = 0.2): GroupTopics {
  const lemmasOf = keywords.map((keyword) => topicKey(keyword).split(' ').filter(Boolean));
  const parent = keywords.map((_, index) => index);
  const root = (index: number): number => (parent[index] === index ? index : (parent[index] = root(parent[index])));
  const ownerOfLemma = new Map<string, number>();
  lemmasOf.forEach((lemmas, index) => {
    for (const lemma of lemmas) {
      const owner = ownerOfLemma.get(lemma);
      if (owner === undefined) ownerOfLemma.set(lemma, index);
      else parent[root(index)] = root(owner);
    }
  });
  const components = new Map<number, number[]>();
  keywords.forEach((_, index) => {
    const list = components.get(root(index));
    if (list) list.push(index);
    else components.set(root(index), [index]);
  });
  const topics = [...components.values()]
    .filter((list) => list.length >= minKeywords || list.length >= minShare * keywords.length)
    .sort((a, b) => b.length - a.length)
    .map((list) => ({ lemmas: [...new Set(list.flatMap((index) => lemmasOf[index]))], keywords: list.map((index) => keywords[index]) }));
  return { topics };
}
