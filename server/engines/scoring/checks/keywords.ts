/**
 * Keyword hygiene: too broad, duplicates, conflicting operators, intersections between groups, and
 * keywords whose own words mean a non-commercial intent (semantic/keyword-intent.ts).
 * Pattern-based: they need no statistics. (Keywords without any negatives are reported by the campaign
 * check `campaign.no_negatives`, once per campaign, with the keywords as its items.)
 */
import { negativeCategoryLabels } from '../../../../contract/analysis-results.js';
import { nonCommercialIntent } from '../../semantic/keyword-intent.js';
import type { AdPlatform } from '../../../../contract/campaigns.js';
import { containedNegativeBlocksKeyword, negativeBlocks } from '../../semantic/negative-match.js';
import { parseWords, type ParsedPhrase } from '../../semantic/phrase.js';
import type { PreparedKeyword } from '../../semantic/prepare.js';
import { formatCountOf } from '../../../../contract/format.js';
import { keptBecause } from '../../semantic/cross-minus.js';
import { formatRub, oneEvidence, type ScoringContext } from '../context.js';
import { checks, makeFinding } from '../registry.js';

/** Any operator character: a phrase without one has no operator problem to look for. */
const OPERATOR_CHARACTER = /["[\]()!+]/;

const negativeText = (negative: ParsedPhrase) => negative.words.map((word) => word.form).join(' ');

/** A group or campaign negative the keyword itself contains (by the platform's matching), with its level. */
function containedSharedNegative(keyword: PreparedKeyword, platform: AdPlatform): { negative: ParsedPhrase; level: 'группы' | 'кампании' } | null {
  for (const [negatives, level] of [[keyword.group.negatives, 'группы'], [keyword.campaign.negatives, 'кампании']] as const) {
    for (const negative of negatives) if (negativeBlocks(negative, keyword.parsed.words, platform)) return { negative, level };
  }
  return null;
}

interface OperatorProblem {
  problem: string;
  fix?: string;
}

/** `skip`: a contained negative another finding of this keyword already explains (the non-commercial one). */
function operatorProblem(keyword: PreparedKeyword, context: ScoringContext, skip?: ParsedPhrase): OperatorProblem | null {
  const phrase = keyword.keyword.phrase;
  const platform = context.account.platform;
  if (OPERATOR_CHARACTER.test(phrase)) {
    const count = (pattern: RegExp) => (phrase.match(pattern) ?? []).length;
    if (count(/"/g) % 2 === 1) return { problem: 'непарная кавычка' };
    if (count(/\[/g) !== count(/\]/g)) return { problem: 'непарная квадратная скобка' };
    if (count(/\(/g) !== count(/\)/g)) return { problem: 'непарная круглая скобка' };
    if (/[!+]{2,}|[!+]\s/.test(phrase)) return { problem: 'оператор «!» или «+» не перед словом' };
    if (platform === 'google_ads' && /(^|\s)[!+]\S/.test(phrase)) return { problem: 'операторы Яндекс Директа в фразе Google Ads' };
  }
  for (const minus of keyword.parsed.minus) {
    if (negativeBlocks(minus, keyword.parsed.words, platform)) return { problem: `минус-слово «${negativeText(minus)}» совпадает со словом самой фразы` };
  }
  const contained = containedSharedNegative(keyword, platform);
  if (contained && contained.negative !== skip) {
    const text = negativeText(contained.negative);
    if (containedNegativeBlocksKeyword(platform)) return { problem: `минус-слово ${contained.level} «${text}» отключает саму фразу`, fix: `Удалите фразу или уберите «${text}» из минус-слов ${contained.level}.` };
    return {
      problem: `минус-слово ${contained.level} «${text}» входит в саму фразу, а такое минус-слово Директ к фразе не применяет: она показывается и по запросам с «${text}»`,
      fix: `Решите, нужны ли запросы с «${text}»: если нет — остановите фразу, если да — уберите «${text}» из минус-слов ${contained.level}.`,
    };
  }
  return null;
}

const conversionsText = (count: number) => formatCountOf(count, ['конверсия', 'конверсии', 'конверсий']);

/** Where a keyword sits, for a sentence about two copies: the group, and the campaign when they differ. */
function placeOf(keyword: PreparedKeyword, other: PreparedKeyword): string {
  const group = `группа «${keyword.group.group.name}»`;
  return keyword.campaign === other.campaign ? group : `${group}, кампания «${keyword.campaign.campaign.name}»`;
}

/**
 * A copy of another keyword on the same auctions: the card names the copy that stays (the one with
 * the better results, semantic/cross-minus.ts) and why, so it never reads as if the selling copy went.
 */
function duplicateFinding(copy: PreparedKeyword, kept: PreparedKeyword, count: number, suggestionId: string | undefined) {
  const copyStats = copy.keyword.stats;
  const keptStats = kept.keyword.stats;
  const results = copyStats && keptStats ? ` Результаты: у этой копии ${conversionsText(copyStats.conversions)} и ${formatRub(copyStats.cost)} расхода, у «${kept.keyword.phrase}» — ${conversionsText(keptStats.conversions)} и ${formatRub(keptStats.cost)}.` : '';
  return makeFinding(checks.keywordDuplicate, copy.ref, {
    explanation: `Фраза «${copy.keyword.phrase}» (${placeOf(copy, kept)}) состоит из тех же слов, что и «${kept.keyword.phrase}» (${placeOf(kept, copy)}), и показывается на тех же площадках и в тех же регионах: копии спорят за одни и те же запросы.${results}`,
    fix: `Оставьте «${kept.keyword.phrase}»${keptBecause(kept, [copy])}, а эту копию удалите, перенеся её минус-слова в оставленную фразу.`,
    evidence: [
      { label: 'Фраз с теми же словами', value: count, threshold: 2, unit: 'count' as const },
      { label: 'Оставить фразу', value: kept.keyword.phrase },
    ],
    suggestionIds: suggestionId ? [suggestionId] : undefined,
  });
}

export function runKeywordChecks(context: ScoringContext): void {
  const { account, semantic, findings, facts } = context;
  const platform = account.platform;

  // Each duplicate set lists the copy to keep first (semantic/cross-minus.ts); the others get a finding.
  const duplicateOf = new Map<string, { keptKey: string; count: number; suggestionId?: string }>();
  const mergeByKeyword = new Map<string, string>();
  for (const suggestion of semantic.crossMinus) {
    if (suggestion.remove.length) for (const ref of [suggestion.target, ...suggestion.remove]) mergeByKeyword.set(ref.key, suggestion.id);
  }
  const keptCopies = new Map<string, PreparedKeyword | null>();
  for (const set of semantic.duplicates) {
    keptCopies.set(set.keywords[0].key, null);
    set.keywords.slice(1).forEach((ref) => duplicateOf.set(ref.key, { keptKey: set.keywords[0].key, count: set.keywords.length, suggestionId: mergeByKeyword.get(ref.key) }));
  }
  if (keptCopies.size > 0) for (const keyword of account.keywords) if (keptCopies.has(keyword.ref.key)) keptCopies.set(keyword.ref.key, keyword);
  const intersectionsByBroader = new Map<string, { count: number; examples: string[]; suggestionId?: string }>();
  for (const intersection of semantic.intersections) {
    const entry = intersectionsByBroader.get(intersection.broader.key) ?? { count: 0, examples: [], suggestionId: intersection.suggestionId };
    entry.count++;
    if (entry.examples.length < 3) entry.examples.push(`«${intersection.narrower.label}» (группа «${intersection.narrower.groupName}»)`);
    intersectionsByBroader.set(intersection.broader.key, entry);
  }

  for (const keyword of account.keywords) {
    const ref = keyword.ref;
    const broad = !keyword.parsed.quoted;
    if (broad && keyword.parsed.significant.length === 1 && !keyword.parsed.significant[0].fixed) {
      findings.push(makeFinding(checks.keywordTooBroad, ref, {
        explanation: `Фраза «${keyword.keyword.phrase}» из одного слова в широком соответствии: по ней показываются любые запросы с этим словом.`,
        fix: platform === 'google_ads' ? 'Добавьте уточняющие слова или смените тип соответствия на фразовое.' : 'Добавьте уточняющие слова (что именно, для чего) или возьмите слово в кавычки.',
        evidence: oneEvidence({ label: 'Слов во фразе', value: 1, threshold: 1, unit: 'count' }),
      }));
    }
    const intent = nonCommercialIntent(keyword.parsed.words, account.lemmatizer);
    // The intent word may already be a negative of the group or campaign: then advising to add it is
    // wrong, and what happens to the keyword depends on the platform (containedNegativeBlocksKeyword).
    const existing = intent ? containedSharedNegative(keyword, platform) : null;
    const intentNegative = existing && negativeBlocks(existing.negative, parseWords(intent!.word, account.lemmatizer), platform) ? existing : null;
    if (intent) {
      const stats = keyword.keyword.stats;
      const category = negativeCategoryLabels[intent.category];
      const blocked = intentNegative !== null && containedNegativeBlocksKeyword(platform);
      // The money is the keyword's spend when it brought nothing (and it can still spend); a converting one is still flagged, without money.
      const wasted = stats && stats.cost > 0 && stats.conversions === 0 && !blocked ? stats.cost : undefined;
      const negative = intentNegative ? `«${negativeText(intentNegative.negative)}»` : '';
      const already = !intentNegative
        ? ''
        : blocked
          ? ` Минус-слово ${negative} уже есть в минус-словах ${intentNegative.level} и отключает эту фразу: дальше она не тратит, расход в статистике — за время до этого минус-слова.`
          : ` Минус-слово ${negative} уже есть в минус-словах ${intentNegative.level}, но Директ не применяет минус-слово к фразе, в которой оно есть: эта фраза показывается и тратит, как будто его нет.`;
      findings.push(makeFinding(checks.keywordNonCommercial, ref, {
        explanation:
          `Фраза «${keyword.keyword.phrase}»: слово «${intent.word}» — ${category.toLowerCase()}, по таким запросам приходят не покупатели.` +
          (stats && stats.cost > 0 ? ` За период ${formatRub(stats.cost)}, конверсий: ${stats.conversions}.` : '') +
          already,
        fix: !intentNegative
          ? `Остановите фразу и добавьте «${intent.word}» в минус-слова кампании.`
          : blocked
            ? `Удалите фразу: минус-слово ${negative} ${intentNegative.level} её уже отключило.`
            : `Остановите фразу: минус-слово ${negative} в ${intentNegative.level === 'группы' ? 'группе' : 'кампании'} уже есть и отсекает такие запросы у остальных фраз.`,
        evidence: [
          { label: 'Нецелевое слово', value: intent.word },
          { label: 'Категория', value: category },
          ...(stats ? [{ label: 'Расход', value: stats.cost, unit: 'rub' as const }, { label: 'Конверсии', value: stats.conversions, unit: 'conversions' as const }] : []),
          ...(intentNegative ? [{ label: 'Уже в минус-словах', value: intentNegative.level }] : []),
        ],
        money: wasted,
        monthFactor: facts.monthFactor,
        period: wasted !== undefined ? facts.period ?? undefined : undefined,
      }));
    }
    const duplicate = duplicateOf.get(ref.key);
    const kept = duplicate ? keptCopies.get(duplicate.keptKey) : undefined;
    if (duplicate && kept) findings.push(duplicateFinding(keyword, kept, duplicate.count, duplicate.suggestionId));
    const problem = operatorProblem(keyword, context, intentNegative?.negative);
    if (problem) {
      findings.push(makeFinding(checks.keywordConflictingOperators, ref, {
        explanation: `Во фразе «${keyword.keyword.phrase}»: ${problem.problem}.`,
        fix: problem.fix ?? 'Исправьте операторы или удалите минус-слово, которое совпадает со словом фразы.',
        evidence: oneEvidence({ label: 'Проблема', value: problem.problem }),
      }));
    }
    const intersection = intersectionsByBroader.get(ref.key);
    if (intersection) {
      findings.push(makeFinding(checks.keywordGroupIntersection, ref, {
        explanation: `Фраза «${keyword.keyword.phrase}» перехватывает запросы фраз других групп: ${intersection.examples.join(', ')}${intersection.count > 3 ? '…' : ''}.`,
        fix: 'Примените кросс-минусовку: добавьте отличающиеся слова как минус-слова.',
        evidence: oneEvidence({ label: 'Пересечений', value: intersection.count, threshold: 1, unit: 'count' }),
        suggestionIds: intersection.suggestionId ? [intersection.suggestionId] : undefined,
      }));
    }
  }
}
