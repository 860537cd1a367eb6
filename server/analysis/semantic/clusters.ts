/**
 * Clustering of keywords by intent: keywords whose lemmas, without intent markers (купить, цена,
 * как…) and place names, are the same set belong to one topic; the markers decide the intent.
 * A cluster spread over several groups is the same demand split between ads.
 */
import type { KeywordCluster, QueryIntent } from '../../../src/contract/analysis-results.js';
import { placeWords } from './geo/gazetteer.js';
import { commercialMarkers, informationalMarkers, navigationalMarkers } from './intent-lexicon.js';
import type { PhraseWord } from './phrase.js';
import type { PreparedAccount, PreparedKeyword } from './prepare.js';


const has = (markers: Set<string>, word: PhraseWord) => markers.has(word.form) || word.lemmas.some((lemma) => markers.has(lemma));

export function intentOf(words: PhraseWord[]): QueryIntent {
  if (words.some((word) => has(commercialMarkers, word))) return 'commercial';
  if (words.some((word) => has(informationalMarkers, word))) return 'informational';
  if (words.some((word) => has(navigationalMarkers, word))) return 'navigational';
  return 'unknown';
}

/** The keyword's topic: its lemmas without intent markers and place names, sorted, space-separated. */
export function topicKey(keyword: PreparedKeyword): string {
  const topic = keyword.parsed.significant.filter(
    (word) => !has(commercialMarkers, word) && !has(informationalMarkers, word) && !has(navigationalMarkers, word) && !has(placeWords as Set<string>, word),
  );
  const lemmas = [...new Set((topic.length ? topic : keyword.parsed.significant).map((word) => word.lemma))].sort();
  return lemmas.join(' ');
}

/** Clusters of two or more keywords, largest first. */
export function clusterKeywords(account: PreparedAccount): { clusters: KeywordCluster[]; total: number } {
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
  return { clusters, total: byTopic.size };
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
  const parent = keywords.map((_, index) => index);
  const root = (index: number): number => (parent[index] === index ? index : (parent[index] = root(parent[index])));
  const ownerOfLemma = new Map<string, number>();
  keywords.forEach((keyword, index) => {
    for (const lemma of topicKey(keyword).split(' ').filter(Boolean)) {
      const owner = ownerOfLemma.get(lemma);
      if (owner === undefined) ownerOfLemma.set(lemma, index);
      else parent[root(index)] = root(owner);
    }
  });
  const components = new Map<number, PreparedKeyword[]>();
  keywords.forEach((keyword, index) => {
    const list = components.get(root(index)) ?? [];
    list.push(keyword);
    components.set(root(index), list);
  });
  const topics = [...components.values()]
    .filter((list) => list.length >= minKeywords || list.length >= minShare * keywords.length)
    .sort((a, b) => b.length - a.length)
    .map((list) => ({ lemmas: [...new Set(list.flatMap((keyword) => topicKey(keyword).split(' ').filter(Boolean)))], keywords: list }));
  return { topics };
}
