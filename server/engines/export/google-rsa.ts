/**
 * Responsive search ads Google Ads Editor accepts, built from what an ad of the account already says.
 *
 * Editor refuses an RSA row without 3–15 different headlines of at most 30 characters, 2–4 different
 * descriptions of at most 90, a final URL, and paths of at most 15 characters (Path 2 only with Path 1)
 * (/work/shared/reference/ad-platforms.md; Google Ads API `ResponsiveSearchAdInfo`). A Direct ad has
 * two titles and one text, so for a Direct account the RSA takes, in this order and without repeats:
 * - headlines: title 1 (or, when it is longer than 30 characters, its first clause if that fits), title 2,
 *   the sitelink titles, the callouts, the group's keywords (without operators, capitalised) and the
 *   display path read as words;
 * - descriptions: the text (split into whole sentences when it is longer than 90), the sitelink
 *   descriptions, the callouts joined into one line, and title 1 and 2 as one sentence.
 * Headlines lose their `!` (Google's editorial rules allow none in a headline); Direct's keyword template
 * `#розы#` becomes Google's keyword insertion `{KeyWord:розы}`, whose length is that of its default text.
 * A Google account's RSA is written from its own headlines and descriptions only.
 *
 * An ad that still cannot make a valid RSA is not written; the export notes say how many and why.
 */
import type { Ad } from '../../../contract/campaigns.js';

export const rsaLimits = { minHeadlines: 3, maxHeadlines: 15, headlineChars: 30, minDescriptions: 2, maxDescriptions: 4, descriptionChars: 90, pathChars: 15 } as const;

export interface ResponsiveSearchAd {
  headlines: string[];
  descriptions: string[];
  /** Path 1 and Path 2; empty when the ad has none that fits. */
  paths: string[];
  finalUrl: string;
}

/** Why an ad is left out: an image ad (no text at all), no link to a site, too little text for 3 + 2. */
export type RsaSkipReason = 'image' | 'no_url' | 'too_little_text';

export type RsaOutcome = { ok: true; ad: ResponsiveSearchAd } | { ok: false; reason: RsaSkipReason };

/** The length Google counts: keyword insertion `{KeyWord:розы}` is as long as its default text. */
export const googleTextLength = (text: string) => text.replace(/\{keyword:([^}]*)\}/gi, '$1').length;

const sameText = (text: string) => text.toLowerCase().replace(/ё/g, 'е').replace(/[.!?…]+$/, '');

/** Texts of one kind (headlines or descriptions) of one RSA: each within the limit, none repeated, at most `max`. */
class TextList {
  readonly items: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly max: number,
    private readonly chars: number,
  ) {}

  /** Adds `text` when it fits and is new; answers whether it did. */
  add(text: string | undefined): boolean {
    const cleaned = (text ?? '').replace(/\s+/g, ' ').trim();
    if (!cleaned || googleTextLength(cleaned) > this.chars || this.items.length >= this.max || this.seen.has(sameText(cleaned))) return false;
    this.seen.add(sameText(cleaned));
    this.items.push(cleaned);
    return true;
  }
}

/** Direct's keyword template `#текст#` as Google's keyword insertion. */
const withKeywordInsertion = (text: string) => text.replace(/#([^#]+)#/g, (_whole, fallback: string) => `{KeyWord:${fallback.trim()}}`);

/** A Direct title as a Google headline: keyword insertion, no `!`. */
const directHeadline = (text: string) =>
  withKeywordInsertion(text)
    .replace(/!/g, '')
    .replace(/\s+([,.:;?])/g, '$1')
    .trim();

/** The first clause of a long title («Розы с доставкой — от 990 ₽» → «Розы с доставкой»). */
const firstClause = (text: string) => text.split(/\s[—–-]\s|[.,:;]\s/)[0]!.trim();

/** A text longer than a description as whole sentences packed into descriptions (a sentence that alone is too long is lost). */
function sentencePieces(text: string, max: number): string[] {
  const pieces: string[] = [];
  for (const sentence of text.split(/(?<=[.!?…])\s+/)) {
    const last = pieces.at(-1);
    if (last !== undefined && googleTextLength(`${last} ${sentence}`) <= max) pieces[pieces.length - 1] = `${last} ${sentence}`;
    else pieces.push(sentence);
  }
  return pieces;
}

const capitalised = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/**
 * Direct's display path (`rozy-s-dostavkoi`, up to 20 characters) as Path 1 and Path 2 of at most 15
 * each, split at hyphens; none when it cannot be split so.
 */
function directPaths(displayUrl: string | undefined): string[] {
  const parts = (displayUrl ?? '').trim().split('-').filter(Boolean);
  if (parts.length === 0) return [];
  for (let cut = parts.length; cut >= 1; cut--) {
    const first = parts.slice(0, cut).join('-');
    const second = parts.slice(cut).join('-');
    if (first.length <= rsaLimits.pathChars && second.length <= rsaLimits.pathChars) return second ? [first, second] : [first];
  }
  return [];
}

/** A Google ad's own paths when they are valid, else none (an ad is better without a path than refused). */
function googlePaths(paths: string[] | undefined): string[] {
  const [first = '', second = ''] = (paths ?? []).map((path) => path.trim());
  if (!first) return [];
  if (first.length > rsaLimits.pathChars || second.length > rsaLimits.pathChars) return [];
  return second ? [first, second] : [first];
}

/** Headlines and descriptions of a Direct ad, from everything it and its group say (see the file's comment). */
function directTexts(ad: Ad, keywords: readonly string[], headlines: TextList, descriptions: TextList): void {
  for (const title of ad.headlines) {
    const headline = directHeadline(title);
    if (!headlines.add(headline)) headlines.add(firstClause(headline));
  }
  for (const link of ad.sitelinks) headlines.add(directHeadline(link.title));
  for (const callout of ad.callouts) headlines.add(directHeadline(callout));
  for (const keyword of keywords) headlines.add(capitalised(keyword));
  if (ad.displayUrl) headlines.add(capitalised(ad.displayUrl.replace(/-/g, ' ')));

  for (const text of ad.texts) {
    const description = withKeywordInsertion(text);
    if (!descriptions.add(description)) for (const piece of sentencePieces(description, rsaLimits.descriptionChars)) descriptions.add(piece);
  }
  for (const link of ad.sitelinks) descriptions.add(link.description && withKeywordInsertion(link.description));
  if (ad.callouts.length > 1) descriptions.add(`${ad.callouts.map((callout) => callout.trim()).join(', ')}.`);
  const titles = ad.headlines.map((title) => withKeywordInsertion(title).trim().replace(/[.!?]+$/, '')).filter(Boolean);
  if (titles.length > 1) descriptions.add(`${titles.join('. ')}.`);
}

/**
 * The RSA of `ad`, or why there is none. `keywords`: the group's keywords as bare text (Direct operators
 * off, no autotargeting); `finalUrl`: the ad's link as Google takes it (macros translated);
 * `fromDirect`: the ad is a Direct one (its texts are gathered as the file's comment says).
 */
export function responsiveSearchAd(ad: Ad, keywords: readonly string[], finalUrl: string, fromDirect: boolean): RsaOutcome {
  if (ad.kind === 'image') return { ok: false, reason: 'image' };
  if (!finalUrl.trim()) return { ok: false, reason: 'no_url' };
  const headlines = new TextList(rsaLimits.maxHeadlines, rsaLimits.headlineChars);
  const descriptions = new TextList(rsaLimits.maxDescriptions, rsaLimits.descriptionChars);
  if (fromDirect) directTexts(ad, keywords, headlines, descriptions);
  else {
    for (const headline of ad.headlines) headlines.add(headline);
    for (const text of ad.texts) descriptions.add(text);
  }
  if (headlines.items.length < rsaLimits.minHeadlines || descriptions.items.length < rsaLimits.minDescriptions) return { ok: false, reason: 'too_little_text' };
  return { ok: true, ad: { headlines: headlines.items, descriptions: descriptions.items, paths: fromDirect ? directPaths(ad.displayUrl) : googlePaths(ad.paths), finalUrl } };
}

const reasonTexts: Record<RsaSkipReason, string> = {
  too_little_text: `из их текстов, быстрых ссылок, уточнений и фраз группы не набралось ${rsaLimits.minHeadlines} разных заголовков до ${rsaLimits.headlineChars} знаков и ${rsaLimits.minDescriptions} описаний до ${rsaLimits.descriptionChars} знаков, без которых Google Ads Editor не примет адаптивное объявление; допишите их в Google Ads`,
  image: 'это графические объявления: в поисковой кампании Google у них нет аналога',
  no_url: 'у них нет ссылки на сайт, а адаптивному объявлению Google она обязательна',
};

const EXAMPLES_PER_REASON = 3;

/** The ads left out of an Editor file, counted by reason with a few examples: what the export notes say. */
export class SkippedAds {
  private readonly byReason = new Map<RsaSkipReason, { count: number; examples: string[] }>();

  add(reason: RsaSkipReason, where: { campaign: string; group: string; headline: string | undefined }): void {
    const entry = this.byReason.get(reason) ?? { count: 0, examples: [] };
    entry.count += 1;
    if (entry.examples.length < EXAMPLES_PER_REASON) entry.examples.push(`«${where.headline?.trim() || 'без заголовка'}» (кампания «${where.campaign}», группа «${where.group}»)`);
    this.byReason.set(reason, entry);
  }

  /** One Russian note per reason: «Объявлений не выгружено в файл Google Ads Editor: 2 — …. Например: «Розы» (кампания …)». */
  notes(): string[] {
    return [...this.byReason].map(([reason, { count, examples }]) => {
      const more = count > examples.length ? ` и ещё ${count - examples.length}` : '';
      return `Объявлений не выгружено в файл Google Ads Editor: ${count} — ${reasonTexts[reason]}. Например: ${examples.join(', ')}${more}.`;
    });
  }
}
