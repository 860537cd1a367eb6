/**
 * Duplicates and cross-minus, the way Yandex Direct's `Keywordsresearch.deduplicate` does them:
 * - a broader keyword gets the extra word of a narrower one as a minus-word, so each query goes to the
 *   most specific keyword: «шуба» + «шуба норковая» → «шуба -норковая»;
 * - keywords with the same words (in any form and order, stop words aside) are duplicates and merge
 *   into one, keeping every minus-word: «заказ окон -жалюзи» + «окна на заказ -дешево» →
 *   «окна на заказ -дешево -жалюзи» (the phrase with more words is kept);
 * - when a broader keyword of one group swallows a narrower one of another group by two or more words,
 *   the fix is a minus-phrase on the broader keyword's group (a keyword takes only minus-words).
 *
 * Only keywords that can meet in one auction are duplicates (auction.ts: a search and a network campaign,
 * or groups for Moscow and for Saint Petersburg, never compete); the copy with the better results is
 * kept. Merges and cross-minus only within one campaign: campaigns usually differ in region or
 * schedule on purpose.
 */
import type { CrossMinusSuggestion, DuplicateSet, EntityRef, GroupIntersection } from '../../../contract/analysis-results.js';
import { formatCount, formatRub } from '../../../contract/format.js';
import { auctionSets, RegionOverlap } from './auction.js';
import { flatString } from './flat-string.js';
import { negativeBlocks } from './negative-match.js';
import { lemmasOfKey, parsePhrase, splitMinusWords, withMinusWords, type ParsedPhrase } from './phrase.js';
import { type PreparedAccount, type PreparedKeyword } from './prepare.js';

/** Yandex limit on a keyword with its minus-words. */
const MAX_KEYWORD_WITH_MINUS = 4096;
/** Narrower keywords differing by up to this many words are looked for. */
const MAX_EXTRA_WORDS = 3;

const isBroad = (keyword: PreparedKeyword) => !keyword.parsed.quoted;

/** The keyword's minus-words as written (from the phrase text and `negativeWords`). */
function minusTexts(keyword: PreparedKeyword): string[] {
  // `startsWith` and `slice` instead of a regex replace per minus-word: the same text, no regex run.
  return [...splitMinusWords(keyword.keyword.phrase).minus, ...keyword.keyword.negativeWords].map((text) => (text.startsWith('-') ? text.slice(1) : text).trim()).filter(Boolean);
}

const barePhrase = (keyword: PreparedKeyword) => splitMinusWords(keyword.keyword.phrase).phrase;

/** A keyword's texts as a merge quotes them, built once per keyword (a merge's message and fix quote each several times). */
interface KeywordTexts {
  bare: string;
  minus: string[];
  current: string;
}

function keywordTexts(keyword: PreparedKeyword): KeywordTexts {
  const bare = barePhrase(keyword);
  const minus = minusTexts(keyword);
  return { bare, minus, current: withMinusWords(bare, minus) };
}

/** Lower case, «ё» as «е»: `includes` first, most texts have no «ё» (a regex replace per text was most of `uniqueByNormalised`). */
function normalisedKey(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('ё') ? lower.replaceAll('ё', 'е') : lower;
}

function uniqueByNormalised(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = normalisedKey(text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface CrossMinusResult {
  duplicates: DuplicateSet[];
  intersections: GroupIntersection[];
  suggestions: CrossMinusSuggestion[];
}

const matchClasses = ['broad', 'phrase', 'exact'] as const;
const matchClassIndex = (keyword: PreparedKeyword) => (keyword.parsed.bracketed ? 2 : keyword.parsed.quoted ? 1 : 0);

/**
 * Of copies of one keyword, the one to keep: the one with the better results (more conversions, then
 * the cheaper conversion, then more clicks), so a merge never drops the copy that sells; without
 * statistics the phrase with more words (it says more, e.g. the preposition); the first one on a tie.
 */
export function copyToKeep(copies: readonly PreparedKeyword[]): PreparedKeyword {
  return copies.reduce((best, keyword) => (betterCopy(keyword, best) ? keyword : best));
}

function betterCopy(a: PreparedKeyword, b: PreparedKeyword): boolean {
  const x = a.keyword.stats;
  const y = b.keyword.stats;
  const conversions = (x?.conversions ?? 0) - (y?.conversions ?? 0);
  if (conversions !== 0) return conversions > 0;
  if (x && y && x.conversions > 0 && x.cost / x.conversions !== y.cost / y.conversions) return x.cost / x.conversions < y.cost / y.conversions;
  const clicks = (x?.clicks ?? 0) - (y?.clicks ?? 0);
  if (clicks !== 0) return clicks > 0;
  return a.parsed.words.length > b.parsed.words.length;
}

/**
 * Duplicates: keywords of one match class and the same words that can meet in one auction (same
 * platform, a common placement and region: auction.ts). Each set lists the copy to keep first.
 */
function findDuplicates(account: PreparedAccount, suggestions: CrossMinusSuggestion[]): { sets: DuplicateSet[]; removed: Set<PreparedKeyword> } {
  // Keywords by match class and lemma key, the lists in the order their first keyword comes: the
  // lemma key alone is the map's key (one list per class under it), so no string is built per keyword.
  const byLemmaKey = new Map<string, (PreparedKeyword[] | undefined)[]>();
  const byKey: { classIndex: number; lemmaKey: string; keywords: PreparedKeyword[] }[] = [];
  for (const keyword of account.keywords) {
    const lemmaKey = keyword.parsed.lemmaKey;
    const classIndex = matchClassIndex(keyword);
    let lists = byLemmaKey.get(lemmaKey);
    if (!lists) byLemmaKey.set(lemmaKey, (lists = []));
    const list = lists[classIndex];
    if (list) list.push(keyword);
    else {
      const keywords = [keyword];
      lists[classIndex] = keywords;
      byKey.push({ classIndex, lemmaKey, keywords });
    }
  }
  const sets: DuplicateSet[] = [];
  const removed = new Set<PreparedKeyword>();
  const regions = new RegionOverlap(account.lemmatizer);
  for (const { classIndex, lemmaKey, keywords: sameWords } of byKey) {
    if (sameWords.length < 2) continue;
    const key = `${matchClasses[classIndex]}|${lemmaKey}`;
    auctionSets(sameWords, regions).forEach((keywords, setIndex) => {
      if (keywords.length < 2) return;
      const kept = copyToKeep(keywords);
      const ordered = [kept, ...keywords.filter((keyword) => keyword !== kept)];
      sets.push({ key: setIndex === 0 ? key : `${key}|${setIndex}`, keywords: ordered.map((keyword) => keyword.ref), sameGroup: keywords.every((keyword) => keyword.group === keywords[0].group) });
      if (account.platform !== 'yandex_direct') return;
      const byCampaign = new Map<number, PreparedKeyword[]>();
      for (const keyword of ordered) {
        const list = byCampaign.get(keyword.ref.campaignIndex!) ?? [];
        list.push(keyword);
        byCampaign.set(keyword.ref.campaignIndex!, list);
      }
      for (const inCampaign of byCampaign.values()) {
        if (inCampaign.length < 2) continue;
        const keep = copyToKeep(inCampaign);
        const others = inCampaign.filter((keyword) => keyword !== keep);
        const texts = new Map(inCampaign.map((keyword) => [keyword, keywordTexts(keyword)]));
        const kept = texts.get(keep)!;
        const merged = uniqueByNormalised([...kept.minus, ...others.flatMap((keyword) => texts.get(keyword)!.minus)]);
        const added = merged.slice(kept.minus.length);
        for (const other of others) removed.add(other);
        suggestions.push({
          id: `xm:dup:${keep.ref.key}`,
          kind: 'cross_minus',
          level: 'keyword',
          target: keep.ref,
          before: kept.current,
          after: withMinusWords(kept.bare, merged),
          add: added,
          because: [],
          remove: others.map((keyword) => keyword.ref),
          reason: `Дубли: ${inCampaign.map((keyword) => `«${texts.get(keyword)!.current}»`).join(', ')} — одни и те же слова на одних и тех же показах. Остаётся «${kept.bare}»${keptBecause(keep, others)}, с минус-словами всех копий.`,
        });
      }
    });
  }
  return { sets, removed };
}

/**
 * Why this copy stays, when its results decided it: « (у неё больше конверсий: 32)»; empty when the
 * copies have the same results (then it is the longer or the first phrase, nothing worth saying).
 */
export function keptBecause(keep: PreparedKeyword, others: readonly PreparedKeyword[]): string {
  const stats = keep.keyword.stats;
  if (!stats) return '';
  const conversionsOf = (keyword: PreparedKeyword) => keyword.keyword.stats?.conversions ?? 0;
  const clicksOf = (keyword: PreparedKeyword) => keyword.keyword.stats?.clicks ?? 0;
  if (others.some((other) => conversionsOf(other) < stats.conversions)) return ` (у неё больше конверсий: ${formatCount(stats.conversions)})`;
  if (stats.conversions > 0 && others.some((other) => betterCopy(keep, other) && conversionsOf(other) === stats.conversions)) {
    return ` (конверсия у неё дешевле: ${formatRub(stats.cost / stats.conversions)})`;
  }
  if (others.some((other) => clicksOf(other) < stats.clicks)) return ` (у неё больше кликов: ${formatCount(stats.clicks)})`;
  return '';
}

/**
 * Lemma keys as numbers, to rule out most subsets without building their key: a lemma's number is a
 * mixed serial number, a set's the XOR of its lemmas' with its size mixed in. Equal keys give equal
 * numbers, so a subset whose number no broader keyword has cannot be a broader keyword; when the
 * numbers match, the key itself is looked up (a rare false match costs one lookup, never a result).
 */
class LemmaSetHashes {
  private readonly ofLemma = new Map<string, number>();

  lemma(lemma: string): number {
    let hash = this.ofLemma.get(lemma);
    if (hash === undefined) {
      // murmur3's finaliser of the serial number: well spread bits, the same for the same order of lemmas.
      hash = this.ofLemma.size + 1;
      hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
      hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
      hash ^= hash >>> 16;
      this.ofLemma.set(lemma, hash);
    }
    return hash;
  }

  /** The number of a set of lemmas from the XOR of theirs (small integers: the set's lookups stay cheap). */
  static of(xor: number, size: number): number {
    return (xor ^ Math.imul(size, 0x9e3779b1)) & 0x3fffffff;
  }

  key(lemmaKey: string): number {
    let xor = 0;
    const lemmas = lemmasOfKey(lemmaKey);
    for (const lemma of lemmas) xor ^= this.lemma(lemma);
    return LemmaSetHashes.of(xor, lemmas.length);
  }
}

/**
 * Every way to drop 1…MAX_EXTRA_WORDS elements from a sorted list that may leave a broader keyword's
 * key (`possible`: the numbers of those keys, see `LemmaSetHashes`), as the mask of the dropped ones and
 * the key of the kept ones (joined by spaces, as a `lemmaKey`). The dropped elements are made only for
 * the masks the caller asks about (`droppedBy`): a million keywords try several million subsets, and
 * almost none of them names a broader keyword, so most are ruled out by number, without a string.
 */
function forEachSubset(elements: string[], hashes: LemmaSetHashes, possible: ReadonlySet<number>, visit: (keptKey: string, mask: number) => void): void {
  const n = elements.length;
  const maxDrop = Math.min(MAX_EXTRA_WORDS, n - 1);
  // Bit masks are fine: a keyword has at most 7 words in Yandex (a few more tolerated here).
  if (n > 12) return;
  const elementHashes: number[] = [];
  let all = 0;
  for (const element of elements) {
    const hash = hashes.lemma(element);
    elementHashes.push(hash);
    all ^= hash;
  }
  const kept: string[] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    let dropped = 0;
    let droppedXor = 0;
    for (let bits = mask; bits; bits &= bits - 1) {
      dropped++;
      droppedXor ^= elementHashes[31 - Math.clz32(bits & -bits)];
    }
    if (dropped > maxDrop || !possible.has(LemmaSetHashes.of(all ^ droppedXor, n - dropped))) continue;
    kept.length = 0;
    for (let i = 0; i < n; i++) if (!(mask & (1 << i))) kept.push(elements[i]);
    visit(kept.join(' '), mask);
  }
}

const droppedBy = (elements: string[], mask: number) => elements.filter((_, i) => mask & (1 << i));

/** A negative of the broader keyword, its group or campaign already blocks the narrower one (without building the list of them per pair). */
function keptApart(broader: PreparedKeyword, narrower: PreparedKeyword, platform: PreparedAccount['platform']): boolean {
  for (const list of [broader.parsed.minus, broader.group.negatives, broader.campaign.negatives]) {
    for (const negative of list) if (negativeBlocks(negative, narrower.parsed.words, platform)) return true;
  }
  return false;
}

export function findCrossMinus(account: PreparedAccount): CrossMinusResult {
  const suggestions: CrossMinusSuggestion[] = [];
  const { sets: duplicates, removed } = findDuplicates(account, suggestions);
  const { intersections, keywordAdds, groupAdds } = findIntersections(account, removed);
  suggestions.push(...keywordSuggestions(keywordAdds), ...groupSuggestions(account, groupAdds));
  return { duplicates, intersections, suggestions };
}

/** `id`: the suggestion's id, made once per entry (not per intersection it collects). */
/** A narrower keyword as a minus-phrase on another group: its exact words (Google), its significant words (Direct). */
function minusPhraseOf(narrower: PreparedKeyword, platform: PreparedAccount['platform']): string {
  return platform === 'google_ads' ? `[${narrower.parsed.words.map((word) => word.form).join(' ')}]` : narrower.parsed.significant.map((word) => word.form).join(' ');
}

type KeywordAdds = Map<PreparedKeyword, { id: string; add: string[]; because: EntityRef[] }>;
/** `phrases`: the texts in `add`, so a phrase another keyword of the group already brought is not listed again (`uniqueByNormalised` would drop it). */
type GroupAdds = Map<string, { id: string; group: PreparedKeyword['group']; add: string[]; phrases: Set<string>; because: EntityRef[]; broader: PreparedKeyword[] }>;

/**
 * Within each campaign, the broader keywords whose queries a narrower one (the same words and more) should
 * get: the minus-words for the broader keyword (one word apart, Direct) or for its group (another group).
 */
function findIntersections(account: PreparedAccount, removed: ReadonlySet<PreparedKeyword>): { intersections: GroupIntersection[]; keywordAdds: KeywordAdds; groupAdds: GroupAdds } {
  const intersections: GroupIntersection[] = [];
  const keywordAdds: KeywordAdds = new Map();
  const groupAdds: GroupAdds = new Map();

  const hashes = new LemmaSetHashes();
  for (const campaign of account.campaigns) {
    const broaderByKey = new Map<string, PreparedKeyword[]>();
    const keywords = campaign.groups.flatMap((group) => group.keywords).filter((keyword) => !removed.has(keyword));
    for (const keyword of keywords) {
      if (!isBroad(keyword)) continue;
      const list = broaderByKey.get(keyword.parsed.lemmaKey);
      if (list) list.push(keyword);
      else broaderByKey.set(keyword.parsed.lemmaKey, [keyword]);
    }
    const broaderHashes = new Set<number>();
    for (const key of broaderByKey.keys()) broaderHashes.add(hashes.key(key));
    for (const narrower of keywords) {
      const elements = lemmasOfKey(narrower.parsed.lemmaKey);
      if (elements.length < 2) continue;
      // The narrower keyword's minus-phrase for another group: the same text for every broader keyword it meets.
      let phrase: string | undefined;
      forEachSubset(elements, hashes, broaderHashes, (keptKey, mask) => {
        const broaderList = broaderByKey.get(keptKey);
        if (!broaderList) return;
        const gone = droppedBy(elements, mask);
        // The narrower keyword's extra words depend on the dropped lemmas only: made once for every broader keyword of the key.
        let extraForms: string[] | undefined;
        for (const broader of broaderList) {
          if (broader === narrower) continue;
          // Already kept apart by a minus-word of the broader keyword, its group or campaign.
          if (keptApart(broader, narrower, account.platform)) continue;
          extraForms ??= narrower.parsed.significant.filter((word) => gone.includes(word.fixed ? `!${word.form}` : word.lemma)).map((word) => word.form);
          const crossGroup = broader.group !== narrower.group;
          let suggestionId: string | undefined;
          if (gone.length === 1 && account.platform === 'yandex_direct') {
            let entry = keywordAdds.get(broader);
            if (!entry) keywordAdds.set(broader, (entry = { id: flatString(`xm:kw:${broader.ref.key}`), add: [], because: [] }));
            entry.add.push(extraForms[0]);
            entry.because.push(narrower.ref);
            suggestionId = entry.id;
          } else if (crossGroup) {
            phrase ??= minusPhraseOf(narrower, account.platform);
            let entry = groupAdds.get(broader.group.ref.key);
            if (!entry) groupAdds.set(broader.group.ref.key, (entry = { id: flatString(`xm:grp:${broader.group.ref.key}`), group: broader.group, add: [], phrases: new Set(), because: [], broader: [] }));
            if (!entry.phrases.has(phrase)) {
              entry.phrases.add(phrase);
              entry.add.push(phrase);
            }
            entry.because.push(narrower.ref);
            entry.broader.push(broader);
            suggestionId = entry.id;
          }
          // The intersections of one dropped set share its `extraForms` (read-only from here on: the result is only serialised).
          if (crossGroup) intersections.push({ broader: broader.ref, narrower: narrower.ref, extraWords: extraForms, suggestionId });
        }
      });
    }
  }
  return { intersections, keywordAdds, groupAdds };
}

/** Minus-words on the broader keywords, as many as fit its length limit. */
function keywordSuggestions(keywordAdds: KeywordAdds): CrossMinusSuggestion[] {
  const suggestions: CrossMinusSuggestion[] = [];
  for (const [broader, entry] of keywordAdds) {
    const texts = keywordTexts(broader);
    const add: string[] = [];
    let after = texts.current;
    for (const word of uniqueByNormalised(entry.add)) {
      const next = `${after} -${word}`;
      if (next.length > MAX_KEYWORD_WITH_MINUS) break;
      after = next;
      add.push(word);
    }
    if (add.length === 0) continue;
    suggestions.push({
      id: entry.id,
      kind: 'cross_minus',
      level: 'keyword',
      target: broader.ref,
      before: texts.current,
      after,
      add,
      because: entry.because,
      remove: [],
      reason: `Фраза «${texts.bare}» перехватывает запросы более точных фраз (${entry.because.slice(0, 3).map((ref) => `«${ref.label}»`).join(', ')}${entry.because.length > 3 ? '…' : ''}). Кросс-минусовка отдаёт каждый запрос самой точной фразе.`,
    });
  }
  return suggestions;
}

/** Minus-phrases on the broader keywords' groups, those that switch off none of the group's own keywords. */
function groupSuggestions(account: PreparedAccount, groupAdds: GroupAdds): CrossMinusSuggestion[] {
  const suggestions: CrossMinusSuggestion[] = [];
  // A narrower keyword's phrase goes to every group it intersects: parsed once (parsing is pure).
  const parsedPhrases = new Map<string, ParsedPhrase>();
  const parsedOnce = (phrase: string) => {
    let parsed = parsedPhrases.get(phrase);
    if (!parsed) parsedPhrases.set(phrase, (parsed = parsePhrase(phrase, account.lemmatizer)));
    return parsed;
  };
  for (const [, entry] of groupAdds) {
    const phrases = uniqueByNormalised(entry.add);
    // A minus-phrase must not switch off a keyword of the same group.
    const safe = phrases.filter((phrase) => {
      const parsed = parsedOnce(phrase);
      return !entry.group.keywords.some((keyword) => negativeBlocks(parsed, keyword.parsed.words, account.platform));
    });
    if (safe.length === 0) continue;
    suggestions.push({
      id: entry.id,
      kind: 'cross_minus',
      level: 'group',
      target: entry.group.ref,
      before: entry.group.negativeTexts.join(', '),
      after: [...entry.group.negativeTexts, ...safe].join(', '),
      add: safe,
      because: entry.because,
      remove: [],
      reason: `Широкие фразы группы «${entry.group.group.name}» пересекаются с фразами других групп; минус-фразы на группу отдают эти запросы более точным группам.`,
    });
  }
  return suggestions;
}
