/**
 * Group/ad/keyword relevance: the share of a group's keyword lemmas (stop words aside) that its ads'
 * headlines and texts contain. A group whose ads never name what people searched for is shown less and
 * clicked less.
 */
import type { GroupRelevance } from '../../../contract/analysis-results.js';
import type { PreparedAccount, PreparedGroup } from './prepare.js';

const round3 = (value: number) => Math.round(value * 1000) / 1000;

function keywordLemmas(group: PreparedGroup): Set<string> {
  const lemmas = new Set<string>();
  for (const keyword of group.keywords) for (const word of keyword.parsed.significant) if (!word.stop) lemmas.add(word.lemma);
  return lemmas;
}

/** A keyword lemma counts as present when any reading of an ad word has it. */
function share(lemmas: Set<string>, adLemmas: ReadonlySet<string>): { share: number; missing: string[] } {
  if (lemmas.size === 0) return { share: 1, missing: [] };
  const missing: string[] = [];
  for (const lemma of lemmas) if (!adLemmas.has(lemma)) missing.push(lemma);
  return { share: round3((lemmas.size - missing.length) / lemmas.size), missing };
}

/** `share(lemmas, new Set(adLemmas)).share` from the ad's own list (a few dozen lemmas: no set per ad). */
function adShare(lemmas: Set<string>, adLemmas: readonly string[]): number {
  if (lemmas.size === 0) return 1;
  let present = 0;
  for (const lemma of lemmas) if (adLemmas.includes(lemma)) present++;
  return round3(present / lemmas.size);
}

export function groupRelevance(account: PreparedAccount): GroupRelevance[] {
  const result: GroupRelevance[] = [];
  for (const group of account.groups) {
    if (group.keywords.length === 0 || group.ads.length === 0) continue;
    const lemmas = keywordLemmas(group);
    const allAdLemmas = new Set<string>();
    for (const ad of group.ads) for (const lemma of ad.lemmas) allAdLemmas.add(lemma);
    const overall = share(lemmas, allAdLemmas);
    result.push({
      target: group.ref,
      relevance: overall.share,
      keywordLemmas: lemmas.size,
      missingLemmas: overall.missing.slice(0, 20),
      ads: group.ads.map((ad) => ({ target: ad.ref, relevance: adShare(lemmas, ad.lemmas) })),
    });
  }
  return result;
}
