/**
 * Ad quality: platform length limits per field, keyword in the headline, sitelinks, callouts, display
 * URL, UTM tags, the same text in many groups, group relevance. Fields over a limit and links without
 * UTM get a proposed fix the user can accept (and edit) for export.
 */
import { share, type AdField, type AdFieldFixSuggestion, type CheckDescription, type EntityRef } from '../../../../contract/analysis-results.js';
import { flatString } from '../../semantic/flat-string.js';
import type { PreparedAd, PreparedGroup } from '../../semantic/prepare.js';
import { oneEvidence, type ScoringContext } from '../context.js';
import { shortenCopy, shortenSlug } from '../copy-shortening.js';
import { googleLimits, longestWord, yandexCountedLength, yandexLimits } from '../platform-limits.js';
import { checks, makeFinding } from '../registry.js';
import { pluralRu } from '../../../../contract/format.js';

/** The same fields as the object of «Сократите …» / «Перепишите …» (accusative), and the pronoun that stands for each. */
const fieldObjects: Record<AdField, { accusative: string; it: string }> = {
  headline: { accusative: 'заголовок', it: 'его' },
  text: { accusative: 'текст', it: 'его' },
  displayUrl: { accusative: 'отображаемую ссылку', it: 'её' },
  path: { accusative: 'путь', it: 'его' },
  finalUrl: { accusative: 'ссылку', it: 'её' },
  sitelinkTitle: { accusative: 'заголовок быстрой ссылки', it: 'его' },
  sitelinkDescription: { accusative: 'описание быстрой ссылки', it: 'его' },
  callout: { accusative: 'уточнение', it: 'его' },
};

/** «до 81 символа», «до 56 символов»: the genitive after «до». */
const upToChars = (limit: number) => `до ${limit} ${pluralRu(limit, ['символа', 'символов', 'символов'])}`;

interface LimitRule {
  definition: CheckDescription;
  field: AdField;
  index: number;
  value: string;
  limit: number;
  label: string;
  measure?: (value: string) => number;
}

const UTM = /[?&]utm_[a-z]+=/i;

export function utmFor(url: string, platform: ScoringContext['account']['platform']): string {
  const tags = platform === 'google_ads'
    ? 'utm_source=google&utm_medium=cpc&utm_campaign={campaignid}&utm_content={creative}&utm_term={keyword}'
    : 'utm_source=yandex&utm_medium=cpc&utm_campaign={campaign_id}&utm_content={ad_id}&utm_term={keyword}';
  const [base, hash] = url.split('#', 2);
  return `${base}${base.includes('?') ? '&' : '?'}${tags}${hash !== undefined ? `#${hash}` : ''}`;
}

const longestWordLength = (text: string) => longestWord(text).length;
const plainLength = (text: string) => text.length;

function limitRules(ad: PreparedAd, platform: ScoringContext['account']['platform']): LimitRule[] {
  const rules: LimitRule[] = [];
  const { ad: data } = ad;
  if (platform === 'google_ads') {
    data.headlines.forEach((value, index) => rules.push({ definition: checks.adHeadlineTooLong, field: 'headline', index, value, limit: googleLimits.headline, label: `Заголовок ${index + 1}` }));
    data.texts.forEach((value, index) => rules.push({ definition: checks.adTextTooLong, field: 'text', index, value, limit: googleLimits.description, label: `Описание ${index + 1}` }));
    (data.paths ?? []).forEach((value, index) => rules.push({ definition: checks.adDisplayUrlTooLong, field: 'path', index, value, limit: googleLimits.path, label: `Путь ${index + 1}` }));
    data.callouts.forEach((value, index) => rules.push({ definition: checks.adCalloutTooLong, field: 'callout', index, value, limit: googleLimits.callout, label: `Уточнение ${index + 1}` }));
    return rules;
  }
  const combinatorial = data.kind === 'combinatorial';
  data.headlines.forEach((value, index) => {
    if (index === 1 && !combinatorial) {
      rules.push({ definition: checks.adHeadlineTooLong, field: 'headline', index, value, limit: yandexLimits.headline2, label: 'Заголовок 2', measure: yandexCountedLength });
    } else {
      rules.push({ definition: checks.adHeadlineTooLong, field: 'headline', index, value, limit: yandexLimits.headline1, label: `Заголовок ${index + 1}` });
      rules.push({ definition: checks.adWordTooLong, field: 'headline', index, value, limit: yandexLimits.headline1Word, label: `Слово в заголовке ${index + 1}`, measure: longestWordLength });
    }
  });
  data.texts.forEach((value, index) => {
    const label = data.texts.length > 1 ? `Текст ${index + 1}` : 'Текст';
    rules.push({ definition: checks.adTextTooLong, field: 'text', index, value, limit: yandexLimits.text, label, measure: yandexCountedLength });
    rules.push({ definition: checks.adWordTooLong, field: 'text', index, value, limit: yandexLimits.textWord, label: `Слово в поле «${label}»`, measure: longestWordLength });
  });
  if (data.displayUrl) rules.push({ definition: checks.adDisplayUrlTooLong, field: 'displayUrl', index: 0, value: data.displayUrl, limit: yandexLimits.displayUrl, label: 'Отображаемая ссылка' });
  data.sitelinks.forEach((sitelink, index) => {
    rules.push({ definition: checks.adSitelinkTooLong, field: 'sitelinkTitle', index, value: sitelink.title, limit: yandexLimits.sitelinkTitle, label: `Быстрая ссылка ${index + 1}` });
    if (sitelink.description) rules.push({ definition: checks.adSitelinkTooLong, field: 'sitelinkDescription', index, value: sitelink.description, limit: yandexLimits.sitelinkDescription, label: `Описание быстрой ссылки ${index + 1}` });
  });
  data.callouts.forEach((value, index) => rules.push({ definition: checks.adCalloutTooLong, field: 'callout', index, value, limit: yandexLimits.callout, label: `Уточнение ${index + 1}` }));
  return rules;
}

function fixSuggestion(ref: EntityRef, field: AdField, index: number, before: string, after: string, reason: string): AdFieldFixSuggestion {
  return { id: flatString(`ad:${ref.key}:${field}:${index}`), kind: 'ad_field', target: ref, field, index, before, after, reason: flatString(reason) };
}

/**
 * Shortened field values by how they were cut (link or copy, the measure, the limit) and the value:
 * ads repeat their texts across groups, and each cut tries every clause and word boundary.
 */
type ShortenedValues = Map<string, string | null>;

/** Links are cut between words, copy between clauses or words (copy-shortening.ts); null: rewrite by hand. */
function shortened(rule: LimitRule, measure: (value: string) => number, memo: ShortenedValues): string | null {
  const slug = rule.field === 'displayUrl' || rule.field === 'path';
  const how = slug ? 'slug' : measure === plainLength ? 'plain' : measure === yandexCountedLength ? 'yandex' : null;
  if (how === null) return shortenCopy(rule.value, rule.limit, measure);
  const key = `${how}\u0001${rule.limit}\u0001${rule.value}`;
  let after = memo.get(key);
  if (after === undefined) {
    after = slug ? shortenSlug(rule.value, rule.limit) : shortenCopy(rule.value, rule.limit, measure);
    memo.set(key, after);
  }
  return after;
}

/** The fix of a field over its limit: the shortened value, or «переписать вручную» with the numbers. */
function lengthFix(ref: EntityRef, rule: LimitRule, length: number, measure: (value: string) => number, memo: ShortenedValues): AdFieldFixSuggestion {
  const reason = `${rule.label}: ${length} ${pluralRu(length, ['символ', 'символа', 'символов'])} при лимите ${rule.limit}.`;
  const after = shortened(rule, measure, memo);
  if (after !== null) return fixSuggestion(ref, rule.field, rule.index, rule.value, after, reason);
  return {
    ...fixSuggestion(ref, rule.field, rule.index, rule.value, '', `${reason} Сократить без потери смысла не получается: перепишите вручную.`),
    manual: { limit: rule.limit, length },
  };
}

/** `headlineMissesKeywords`: no word of the group's keywords in the ad's first headline (`headlinesWithoutKeywords`). */
function checkAd(ad: PreparedAd, group: PreparedGroup, headlineMissesKeywords: boolean, context: ScoringContext, memo: ShortenedValues): void {
  const { findings, suggestions, account } = context;
  const platform = account.platform;
  const ref = ad.ref;
  const data = ad.ad;

  for (const rule of limitRules(ad, platform)) {
    // Every measure counts at most the value's characters: a value that short is within the limit.
    if (rule.value.length <= rule.limit) continue;
    const measure = rule.measure ?? plainLength;
    const length = measure(rule.value);
    if (length <= rule.limit) continue;
    const isWordRule = rule.definition === checks.adWordTooLong;
    let suggestionIds: string[] | undefined;
    let manual = false;
    if (!isWordRule) {
      const suggestion = lengthFix(ref, rule, length, measure, memo);
      suggestions.push(suggestion);
      suggestionIds = [suggestion.id];
      manual = suggestion.manual !== undefined;
    }
    findings.push(makeFinding(rule.definition, ref, {
      suffix: `${rule.field}:${rule.index}`,
      explanation: isWordRule
        ? `${rule.label}: «${longestWord(rule.value)}» — ${length} ${pluralRu(length, ['символ', 'символа', 'символов'])}, лимит ${rule.limit}.`
        : `${rule.label} «${rule.value}» — ${length} ${pluralRu(length, ['символ', 'символа', 'символов'])}, лимит ${rule.limit}${rule.measure === yandexCountedLength ? ' (до 15 знаков препинания не считаются)' : ''}.`,
      fix: isWordRule
        ? 'Замените слово более коротким или разбейте его.'
        : manual
          ? `Перепишите ${fieldObjects[rule.field].accusative} вручную: сейчас ${length} ${pluralRu(length, ['символ', 'символа', 'символов'])}, лимит ${rule.limit}. Обрезать ${fieldObjects[rule.field].it} без потери смысла не получается.`
          : `Сократите ${fieldObjects[rule.field].accusative} ${upToChars(rule.limit)}.`,
      evidence: oneEvidence({ label: rule.label, value: length, threshold: rule.limit, unit: 'chars' }),
      suggestionIds,
    }));
  }

  if (platform === 'google_ads' && data.kind === 'responsive_search') {
    const headlines = data.headlines.filter((text) => text.trim()).length;
    const descriptions = data.texts.filter((text) => text.trim()).length;
    const problems: string[] = [];
    if (headlines < googleLimits.minHeadlines || headlines > googleLimits.maxHeadlines) problems.push(`заголовков ${headlines} (нужно 3–15)`);
    if (descriptions < googleLimits.minDescriptions || descriptions > googleLimits.maxDescriptions) problems.push(`описаний ${descriptions} (нужно 2–4)`);
    if (problems.length) {
      findings.push(makeFinding(checks.adAssetCount, ref, {
        explanation: `В адаптивном объявлении ${problems.join(', ')}.`,
        fix: 'Добавьте или уберите заголовки и описания, чтобы уложиться в 3–15 заголовков и 2–4 описания.',
        evidence: [
          { label: 'Заголовков', value: headlines, threshold: '3–15', unit: 'count' },
          { label: 'Описаний', value: descriptions, threshold: '2–4', unit: 'count' },
        ],
      }));
    }
  }

  const textual = data.kind === 'text' || data.kind === 'responsive_search' || data.kind === 'combinatorial';
  if (!textual) return;

  if (headlineMissesKeywords) {
    findings.push(makeFinding(checks.adKeywordNotInHeadline, ref, {
      explanation: `В заголовке «${data.headlines[0]}» нет ни одного слова из ключевых фраз группы «${group.group.name}».`,
      fix: `Впишите в заголовок основную фразу группы, например «${group.keywords[0].keyword.phrase.replace(/["[\]!+]/g, '')}».`,
      evidence: oneEvidence({ label: 'Слов из фраз в заголовке', value: 0, threshold: 1, unit: 'count' }),
    }));
  }
  if (data.sitelinks.length === 0) {
    findings.push(makeFinding(checks.adNoSitelinks, ref, {
      explanation: 'У объявления нет быстрых ссылок.',
      fix: 'Добавьте 4–8 быстрых ссылок на ключевые разделы сайта с описаниями.',
      evidence: oneEvidence({ label: 'Быстрых ссылок', value: 0, threshold: 1, unit: 'count' }),
    }));
  }
  if (data.callouts.length === 0) {
    findings.push(makeFinding(checks.adNoCallouts, ref, {
      explanation: 'У объявления нет уточнений.',
      fix: 'Добавьте 3–4 уточнения с преимуществами (доставка, гарантия, сроки).',
      evidence: oneEvidence({ label: 'Уточнений', value: 0, threshold: 1, unit: 'count' }),
    }));
  }
  const hasDisplay = platform === 'google_ads' ? (data.paths ?? []).some((path) => path.trim()) : Boolean(data.displayUrl?.trim());
  if (!hasDisplay) {
    findings.push(makeFinding(checks.adNoDisplayUrl, ref, {
      explanation: platform === 'google_ads' ? 'У объявления не заполнены пути отображаемого URL.' : 'У объявления нет отображаемой ссылки.',
      fix: platform === 'google_ads' ? 'Заполните Путь 1 и Путь 2 (до 15 символов) словами из фразы.' : 'Добавьте отображаемую ссылку (до 20 символов) со словом из фразы.',
      evidence: oneEvidence({ label: platform === 'google_ads' ? 'Путей' : 'Отображаемая ссылка', value: 0, threshold: 1, unit: 'count' }),
    }));
  }
  if (data.finalUrl && !UTM.test(data.finalUrl)) {
    const suggestion = fixSuggestion(ref, 'finalUrl', 0, data.finalUrl, utmFor(data.finalUrl, platform), 'В ссылке нет UTM-меток.');
    suggestions.push(suggestion);
    findings.push(makeFinding(checks.adNoUtm, ref, {
      explanation: `В ссылке ${data.finalUrl} нет UTM-меток.`,
      fix: `Добавьте метки: ${suggestion.after}`,
      evidence: oneEvidence({ label: 'UTM-меток в ссылке', value: 0, unit: 'count' }),
      suggestionIds: [suggestion.id],
    }));
  }
}

/** The lemmas of a group's keywords (made once per group, for all its ads). */
function keywordLemmasOf(group: PreparedGroup): Set<string> {
  const lemmas = new Set<string>();
  for (const keyword of group.keywords) for (const word of keyword.parsed.significant) if (!word.stop) lemmas.add(word.lemma);
  return lemmas;
}

/**
 * The one thing the ad checks read of the keywords' parsed phrases: which ads have no word of their
 * group's keywords in the first headline, by the ads' order in `account.groups`. Taken before the
 * engine lets the phrases go (engine.ts), so the ad checks run without them.
 */
export function headlinesWithoutKeywords(context: ScoringContext): Uint8Array {
  const misses = new Uint8Array(context.account.ads.length);
  let adIndex = 0;
  for (const group of context.account.groups) {
    if (group.ads.length === 0) continue;
    const groupLemmas = keywordLemmasOf(group);
    for (const ad of group.ads) {
      if (groupLemmas.size > 0 && ad.ad.headlines.length > 0 && !ad.headlineLemmas.some((lemma) => groupLemmas.has(lemma))) misses[adIndex] = 1;
      adIndex++;
    }
  }
  return misses;
}

/** `headlineMisses`: headlinesWithoutKeywords' answer, taken while the keywords' phrases were there. */
export function runAdChecks(context: ScoringContext, headlineMisses: Uint8Array, onAd?: () => void): void {
  const { account, findings, settings, semantic } = context;
  // Same ad text in many groups: headline 1 + text 1, normalised.
  // Per text, the groups holding it (a group is counted once: the last group added is the only one to compare with).
  const groupsByText = new Map<string, { groups: number; last: PreparedGroup }>();
  const textKey = (ad: PreparedAd) => `${(ad.ad.headlines[0] ?? '').trim().toLowerCase()}|${(ad.ad.texts[0] ?? '').trim().toLowerCase()}`;
  // The entry of each ad, in the order of the second loop: the key is made once per ad.
  const textOfAd: ({ groups: number } | undefined)[] = [];
  for (const group of account.groups) {
    for (const ad of group.ads) {
      if (!ad.ad.headlines[0]) {
        textOfAd.push(undefined);
        continue;
      }
      const key = textKey(ad);
      let entry = groupsByText.get(key);
      if (!entry) groupsByText.set(key, (entry = { groups: 1, last: group }));
      else if (entry.last !== group) {
        entry.groups++;
        entry.last = group;
      }
      textOfAd.push(entry);
    }
  }
  const memo: ShortenedValues = new Map();
  let adIndex = 0;
  for (const group of account.groups) {
    for (const ad of group.ads) {
      checkAd(ad, group, headlineMisses[adIndex] === 1, context, memo);
      const groups = textOfAd[adIndex++]?.groups ?? 0;
      if (groups >= settings.sameAdTextGroups) {
        findings.push(makeFinding(checks.adSameTextManyGroups, ad.ref, {
          explanation: `Объявление «${ad.ad.headlines[0]}» с тем же текстом стоит в ${groups} группах.`,
          fix: 'Напишите для каждой группы своё объявление со словами её фраз.',
          evidence: oneEvidence({ label: 'Групп с тем же текстом', value: groups, threshold: settings.sameAdTextGroups, setting: 'sameAdTextGroups', unit: 'count' }),
        }));
      }
      onAd?.();
    }
  }
  for (const relevance of semantic.relevance) {
    if (relevance.relevance >= settings.minGroupRelevance) continue;
    findings.push(makeFinding(checks.groupLowRelevance, relevance.target, {
      explanation: `В объявлениях группы «${relevance.target.groupName}» есть только ${Math.round(relevance.relevance * 100)} % слов её ключевых фраз; нет: ${relevance.missingLemmas.slice(0, 5).join(', ')}.`,
      fix: 'Добавьте в заголовки и тексты слова ключевых фраз или разделите группу по смыслу.',
      evidence: oneEvidence({ label: 'Релевантность', value: share(relevance.relevance), threshold: share(settings.minGroupRelevance), setting: 'minGroupRelevance', unit: 'share' }),
    }));
  }
}
