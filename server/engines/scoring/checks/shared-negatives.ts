/**
 * Shared negative sets (issue 22): a set's negative that is a word of a keyword of a group using the set
 * («Общие минус-слова»: «пермь», the group's keyword «окна пвх пермь»). The set and the keyword say the
 * opposite: either the queries are wanted (then the set keeps the group's other keywords away from them)
 * or they are not (then the keyword spends on them). In Yandex Direct a negative wholly contained in a
 * keyword is not applied to that keyword (negative-match.ts `containedNegativeBlocksKeyword`), so the
 * keyword keeps showing on those queries; in Google Ads it switches the keyword off.
 *
 * Matching is the engine's one (negative-match.ts `negativeBlocks`: lemmas for Yandex, `!` and stop
 * words by form). Needs the keywords' parsed phrases: runs with the campaign checks, before they are let go.
 * (A group that uses a set has its negatives there: `campaign.no_negatives` does not count it as bare.)
 */
import type { NegativeKeywordSet } from '../../../../contract/campaigns.js';
import { containedNegativeBlocksKeyword, negativeBlocks } from '../../semantic/negative-match.js';
import { parsePhrase, type ParsedPhrase } from '../../semantic/phrase.js';
import type { PreparedKeyword } from '../../semantic/prepare.js';
import { oneEvidence, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';
import { keywordServes } from './serving-state.js';

interface SetNegative {
  text: string;
  parsed: ParsedPhrase;
}

/**
 * A set's negatives by the forms and lemmas of their first word: a negative can only act on a keyword
 * that has a word matching its first one, so a keyword looks up its own words' forms and lemmas instead
 * of trying every negative of the set (a set holds up to thousands; an account, 100 000s of keywords).
 */
interface ParsedSet {
  set: NegativeKeywordSet;
  byWord: Map<string, SetNegative[]>;
}

function indexSet(set: NegativeKeywordSet, context: ScoringContext): ParsedSet {
  const byWord = new Map<string, SetNegative[]>();
  for (const text of set.negativeKeywords) {
    const negative = { text, parsed: parsePhrase(text, context.account.lemmatizer) };
    const keys = new Set<string>();
    for (const first of [negative.parsed.words[0], negative.parsed.significant[0]]) {
      if (!first) continue;
      keys.add(first.form);
      for (const lemma of first.lemmas) keys.add(lemma);
    }
    for (const key of keys) {
      const list = byWord.get(key);
      if (list) list.push(negative);
      else byWord.set(key, [negative]);
    }
  }
  return { set, byWord };
}

export function runSharedNegativeChecks(context: ScoringContext): void {
  const { account } = context;
  const sets = account.data.negativeSets ?? [];
  if (sets.length === 0) return;
  const byId = new Map(sets.map((set) => [set.externalId, set]));
  const parsed = new Map<string, ParsedSet>();
  const parsedSet = (id: string): ParsedSet | undefined => {
    const set = byId.get(id);
    if (!set) return undefined;
    let entry = parsed.get(id);
    if (!entry) {
      entry = indexSet(set, context);
      parsed.set(id, entry);
    }
    return entry;
  };
  for (const group of account.groups) {
    const groupSets = (group.group.negativeSetIds ?? []).map(parsedSet).filter((entry): entry is ParsedSet => entry !== undefined);
    if (groupSets.length === 0) continue;
    for (const keyword of group.keywords) {
      if (keyword.keyword.isAutotargeting || !keywordServes(keyword.keyword)) continue;
      const conflict = firstConflict(keyword, groupSets, context);
      if (conflict) conflictFinding(keyword, conflict.set, conflict.text, context);
    }
  }
}

function firstConflict(keyword: PreparedKeyword, sets: ParsedSet[], context: ScoringContext): { set: NegativeKeywordSet; text: string } | null {
  const words = keyword.parsed.words;
  for (const { set, byWord } of sets) {
    for (const word of words) {
      for (const key of [word.form, ...word.lemmas]) {
        for (const negative of byWord.get(key) ?? []) if (negativeBlocks(negative.parsed, words, context.account.platform)) return { set, text: negative.text };
      }
    }
  }
  return null;
}

function conflictFinding(keyword: PreparedKeyword, set: NegativeKeywordSet, negative: string, context: ScoringContext): void {
  const phrase = keyword.keyword.phrase;
  const where = `Минус-фраза «${negative}» из набора «${set.name || set.externalId}» входит в саму фразу «${phrase}» (группа «${keyword.group.group.name}»)`;
  const blocks = containedNegativeBlocksKeyword(context.account.platform);
  context.findings.push(makeFinding(checks.sharedSetConflict, keyword.ref, {
    explanation: blocks
      ? `${where}: набор отключает эту фразу, и она не показывается.`
      : `${where}. Директ не применяет к фразе минус-фразу, которая целиком в неё входит: фраза показывается по запросам с «${negative}», а остальные фразы группы по таким запросам не показываются — набор и фраза говорят противоположное.`,
    fix: `Решите, нужны ли запросы с «${negative}»: если нет — остановите фразу «${phrase}»; если нужны — уберите «${negative}» из набора «${set.name || set.externalId}» или отключите набор у этой группы.`,
    evidence: oneEvidence({ label: 'Минус-фраз набора в самой фразе', value: 1, threshold: 1, unit: 'count' }),
  }));
}
