/**
 * The page check engine. Pure: pages as the fetcher read them plus the ad groups leading to each
 * page in, a scored report out. Words are compared by lemma (the semantic engine's lemmatiser), never
 * by substring: «окна» on the page covers the keyword «окно», and «авто» never matches «автобус».
 *
 * Score of a readable page (0–100):
 *   45 × keyword coverage (share of the groups' keyword lemmas anywhere on the page)
 * + 20 × heading coverage (share found in the title or an h1: what a visitor sees first)
 * + 15 × ad-promise coverage (share of the headline words the page repeats)
 * + 20 × technical health (1 minus penalties: noindex, no title/h1, thin, slow, foreign redirect, UTM lost)
 * A page no ad group leads to (added by hand) is scored on technical health alone. An unreadable page
 * (network error, 4xx/5xx, not HTML) scores 0: every click on it is lost.
 */
import { wasChecked, type GroupCoverage, type CheckedPage, type PageIssue, type PageIssueCode, type PageCheckResult, type PageCheckSummary, type Severity } from '../../../contract/page-check.js';
import type { Lemmatizer } from '../semantic/lemmatizer.js';
import { isStopWord, parsePhrase, splitMinusWords, tokenize } from '../semantic/phrase.js';
import { extractPage, type PageContent } from './html.js';
import { issueTexts } from './issues.js';
import { formatCountOf } from '../../../contract/format.js';

/** A page as the fetcher read it. */
export interface FetchedPage {
  /** The address the ads use (with their UTM tags). */
  url: string;
  finalUrl: string | null;
  status: number | null;
  contentType: string | null;
  /** Decoded body, '' when none. */
  html: string;
  /** Addresses passed through, in order, before `finalUrl`. */
  redirects: string[];
  timingMs: number | null;
  /** The body was longer than the cap and was cut. */
  truncated: boolean;
  /** Russian reason the page could not be read. */
  error: string | null;
  /** The SSRF guard refused an address on the way (the page itself or a redirect hop); `error` says so. */
  refused?: boolean;
  /** `X-Robots-Tag` header, when sent. */
  xRobotsTag?: string | null;
}

export interface KeywordTarget {
  phrase: string;
  negativeWords?: string[];
  isAutotargeting?: boolean;
}

/** One ad group whose ads lead to a page. */
export interface GroupTarget {
  campaign: string;
  group: string;
  keywords: KeywordTarget[];
  headlines: string[];
  texts: string[];
  ads: number;
  cost: number;
  clicks: number;
}

export interface PageCheckInput {
  pages: FetchedPage[];
  /** Ad groups by the page's `url`. */
  targets: Record<string, GroupTarget[]>;
}

export interface PageCheckThresholds {
  slowMs: number;
  thinWords: number;
  weakScore: number;
  /** Below this keyword coverage a page is a poor match (high severity below half of it). */
  lowCoverage: number;
}

export const defaultPageCheckThresholds: PageCheckThresholds = { slowMs: 3000, thinWords: 150, weakScore: 50, lowCoverage: 0.6 };

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const average = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
const TRACKING_PARAM = /^(utm_[a-z_]+|yclid|gclid|fbclid|_openstat)$/i;

/** Every reading of every word of a text, so homonyms match (стали → стать, сталь). */
function lemmaSetOf(texts: (string | null)[], lemmatizer: Lemmatizer): Set<string> {
  const set = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const { form } of tokenize(text)) for (const lemma of lemmatizer.lemmatize(form).all) set.add(lemma);
  }
  return set;
}

interface LemmaWord {
  lemma: string;
  readings: string[];
  /**
   * The word as the keyword or headline spells it (the first form met), for the screens: a lemma of an
   * unknown word is a stem («трехкамерн»), which no marketer would recognise as the missing word.
   */
  surface: string;
}

/** A bare number («3», «24») means nothing as «a word missing on the page». */
const isBareNumber = (form: string) => /^\d+$/.test(form);

const hasAny = (word: LemmaWord, set: Set<string>) => word.readings.some((reading) => set.has(reading));

/** Distinct significant words of a group's keywords (minus-words, stop words and autotargeting aside). */
function keywordWords(group: GroupTarget, lemmatizer: Lemmatizer): LemmaWord[] {
  const words = new Map<string, LemmaWord>();
  for (const keyword of group.keywords) {
    if (keyword.isAutotargeting || keyword.phrase.includes('---autotargeting')) continue;
    const parsed = parsePhrase(splitMinusWords(keyword.phrase).phrase, lemmatizer);
    for (const word of parsed.significant) {
      if (word.stop || isBareNumber(word.form)) continue;
      if (!words.has(word.lemma)) words.set(word.lemma, { lemma: word.lemma, readings: word.lemmas, surface: word.form });
    }
  }
  return [...words.values()];
}

/** Distinct headline words worth finding on the page: not stop words, not single letters. */
function headlineWords(groups: GroupTarget[], lemmatizer: Lemmatizer): LemmaWord[] {
  const words = new Map<string, LemmaWord>();
  for (const group of groups) {
    for (const headline of group.headlines) {
      for (const { form } of tokenize(headline)) {
        if (isStopWord(form) || form.length < 2 || isBareNumber(form)) continue;
        const info = lemmatizer.lemmatize(form);
        if (!words.has(info.lemma)) words.set(info.lemma, { lemma: info.lemma, readings: info.all, surface: form });
      }
    }
  }
  return [...words.values()];
}

const hostOf = (url: string | null) => {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
};

const trackingParams = (url: string | null) => {
  if (!url) return [];
  try {
    return [...new URL(url).searchParams.keys()].filter((key) => /^utm_/i.test(key));
  } catch {
    return [];
  }
};

export const isHtml = (contentType: string | null) => !contentType || /\b(text\/html|application\/xhtml\+xml)\b/i.test(contentType);

function issue(code: PageIssueCode, severity: Severity, values: Record<string, string | number> = {}): PageIssue {
  const texts = issueTexts[code];
  const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
  return { code, severity, title: fill(texts.title), explanation: fill(texts.explanation), fix: fill(texts.fix) };
}

function emptyPage(page: FetchedPage, groups: GroupTarget[]): CheckedPage {
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    contentType: page.contentType,
    timingMs: page.timingMs,
    redirects: page.redirects,
    error: page.error,
    title: null,
    metaDescription: null,
    h1: [],
    h2: [],
    wordCount: 0,
    noindex: false,
    canonical: null,
    score: 0,
    coverage: 0,
    headingCoverage: 0,
    adPromise: { words: 0, coverage: 0, missing: [] },
    groups: [],
    ads: groups.reduce((sum, group) => sum + group.ads, 0),
    cost: groups.reduce((sum, group) => sum + group.cost, 0),
    clicks: groups.reduce((sum, group) => sum + group.clicks, 0),
    issues: [],
  };
}

/** Checks of one page that need no keywords: reachability, redirects, indexing, speed, structure. */
function technicalIssues(page: FetchedPage, content: PageContent | null, thresholds: PageCheckThresholds): { issues: PageIssue[]; penalty: number } {
  const issues: PageIssue[] = [];
  let penalty = 0;
  const finalHost = hostOf(page.finalUrl);
  const adHost = hostOf(page.url);
  if (finalHost && adHost && finalHost !== adHost) {
    issues.push(issue('redirect_other_host', 'high', { from: adHost, to: finalHost }));
    penalty += 0.3;
  }
  const adUtm = trackingParams(page.url);
  if (adUtm.length > 0 && page.finalUrl && trackingParams(page.finalUrl).length === 0) {
    issues.push(issue('utm_lost', 'medium', { params: adUtm.join(', ') }));
    penalty += 0.2;
  } else if (adUtm.length === 0 && !/[?&](yclid|gclid)=/i.test(page.url)) {
    issues.push(issue('no_utm', 'low'));
  }
  if (page.timingMs !== null && page.timingMs > thresholds.slowMs) {
    issues.push(issue('slow', 'medium', { seconds: (page.timingMs / 1000).toFixed(1), limit: thresholds.slowMs / 1000 }));
    penalty += 0.3;
  }
  if (page.truncated) {
    issues.push(issue('too_heavy', 'medium'));
    penalty += 0.1;
  }
  if (!content) return { issues, penalty };
  if (content.noindex || /\bnoindex\b|\bnone\b/i.test(page.xRobotsTag ?? '')) {
    issues.push(issue('noindex', 'medium'));
    penalty += 0.3;
  }
  if (!content.title) {
    issues.push(issue('no_title', 'medium'));
    penalty += 0.3;
  }
  if (content.h1.length === 0) {
    issues.push(issue('no_h1', 'medium'));
    penalty += 0.2;
  }
  if (content.wordCount < thresholds.thinWords) {
    issues.push(issue('thin_content', 'medium', { words: formatCountOf(content.wordCount, ['слово', 'слова', 'слов']), limit: thresholds.thinWords }));
    penalty += 0.3;
  }
  const canonicalHost = content.canonical ? hostOf(new URL(content.canonical, page.finalUrl ?? page.url).toString()) : null;
  if (canonicalHost && finalHost && canonicalHost !== finalHost) issues.push(issue('canonical_other_host', 'low', { host: canonicalHost }));
  return { issues, penalty };
}

function canonicalUrl(content: PageContent, page: FetchedPage): PageContent {
  if (!content.canonical) return content;
  try {
    return { ...content, canonical: new URL(content.canonical, page.finalUrl ?? page.url).toString() };
  } catch {
    return { ...content, canonical: null };
  }
}

export function analyzePage(page: FetchedPage, groups: GroupTarget[], lemmatizer: Lemmatizer, thresholds: PageCheckThresholds = defaultPageCheckThresholds): CheckedPage {
  const result = emptyPage(page, groups);
  if (page.error || page.status === null) {
    result.issues.push(issue('fetch_failed', 'high', { reason: page.error ?? 'нет ответа' }));
    return result;
  }
  if (page.status < 200 || page.status >= 300) {
    result.issues.push(issue('http_error', 'high', { status: page.status }));
    result.issues.push(...technicalIssues(page, null, thresholds).issues.filter((item) => item.code === 'redirect_other_host'));
    return result;
  }
  if (!isHtml(page.contentType)) {
    result.issues.push(issue('not_html', 'high', { type: page.contentType ?? '' }));
    return result;
  }

  let content: PageContent;
  try {
    content = canonicalUrl(extractPage(page.html), page);
  } catch {
    content = { title: null, metaDescription: null, h1: [], h2: [], text: '', wordCount: 0, noindex: false, canonical: null };
  }
  Object.assign(result, {
    title: content.title,
    metaDescription: content.metaDescription,
    h1: content.h1,
    h2: content.h2.slice(0, 10),
    wordCount: content.wordCount,
    noindex: content.noindex || /\bnoindex\b|\bnone\b/i.test(page.xRobotsTag ?? ''),
    canonical: content.canonical,
  });

  const technical = technicalIssues(page, content, thresholds);
  const health = Math.max(0, 1 - technical.penalty);

  const headingSet = lemmaSetOf([content.title, ...content.h1], lemmatizer);
  const pageSet = lemmaSetOf([content.title, content.metaDescription, ...content.h1, ...content.h2, content.text], lemmatizer);

  const coverages: GroupCoverage[] = [];
  for (const group of groups) {
    const words = keywordWords(group, lemmatizer);
    if (words.length === 0) continue;
    const missing = words.filter((word) => !hasAny(word, pageSet));
    const inHeadings = words.filter((word) => hasAny(word, headingSet)).length;
    coverages.push({
      campaign: group.campaign,
      group: group.group,
      keywords: group.keywords.length,
      lemmas: words.length,
      coverage: round3((words.length - missing.length) / words.length),
      headingCoverage: round3(inHeadings / words.length),
      missing: missing.map((word) => word.surface).slice(0, 30),
    });
  }
  const promise = headlineWords(groups, lemmatizer);
  const promiseMissing = promise.filter((word) => !hasAny(word, pageSet));
  result.groups = coverages;
  result.coverage = round3(average(coverages.map((group) => group.coverage)));
  result.headingCoverage = round3(average(coverages.map((group) => group.headingCoverage)));
  result.adPromise = {
    words: promise.length,
    coverage: promise.length ? round3((promise.length - promiseMissing.length) / promise.length) : 1,
    missing: promiseMissing.map((word) => word.surface).slice(0, 30),
  };

  const pageCheckIssues: PageIssue[] = [];
  if (coverages.length > 0) {
    const weakGroups = coverages.filter((group) => group.coverage < thresholds.lowCoverage);
    if (weakGroups.length > 0) {
      const worst = Math.min(...weakGroups.map((group) => group.coverage));
      const missing = [...new Set(weakGroups.flatMap((group) => group.missing))].slice(0, 12);
      pageCheckIssues.push(
        issue('low_keyword_coverage', worst < thresholds.lowCoverage / 2 ? 'high' : 'medium', {
          groups: weakGroups.map((group) => `«${group.group}»`).slice(0, 5).join(', '),
          share: Math.round(worst * 100),
          missing: missing.join(', '),
        }),
      );
    }
    const noHeading = coverages.filter((group) => group.headingCoverage === 0);
    if (noHeading.length > 0) {
      pageCheckIssues.push(issue('keywords_not_in_headings', 'medium', { groups: noHeading.map((group) => `«${group.group}»`).slice(0, 5).join(', ') }));
    }
  }
  if (promiseMissing.length > 0 && result.adPromise.coverage < 0.7) {
    pageCheckIssues.push(issue('ad_promise_missing', result.adPromise.coverage < 0.4 ? 'high' : 'medium', { words: result.adPromise.missing.slice(0, 10).join(', ') }));
  }

  result.issues = [...pageCheckIssues, ...technical.issues];
  result.score =
    coverages.length > 0
      ? Math.round(100 * (0.45 * result.coverage + 0.2 * result.headingCoverage + 0.15 * result.adPromise.coverage + 0.2 * health))
      : Math.round(100 * health);
  return result;
}

const severityOrder: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

function summarise(pages: CheckedPage[], thresholds: PageCheckThresholds): PageCheckSummary {
  const reachable = pages.filter((page) => !page.error && page.status !== null && page.status >= 200 && page.status < 300 && isHtml(page.contentType));
  const weak = pages.filter((page) => page.score < thresholds.weakScore);
  // A page without an answer has no score of its own (its 0 says nothing about the site's pages).
  const checked = pages.filter(wasChecked);
  const issuesBySeverity: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  const byCode = new Map<PageIssueCode, { title: string; pages: number }>();
  for (const page of pages) {
    for (const item of page.issues) {
      issuesBySeverity[item.severity] += 1;
      const entry = byCode.get(item.code);
      if (entry) entry.pages += 1;
      else byCode.set(item.code, { title: issueTexts[item.code].short, pages: 1 });
    }
  }
  return {
    pages: pages.length,
    reachable: reachable.length,
    unchecked: pages.length - checked.length,
    averageScore: checked.length ? Math.round(average(checked.map((page) => page.score))) : null,
    weakPages: weak.length,
    issuesBySeverity,
    costOnWeakPages: Math.round(weak.reduce((sum, page) => sum + page.cost, 0) * 100) / 100,
    topIssues: [...byCode.entries()]
      .map(([code, entry]) => ({ code, title: entry.title, pages: entry.pages }))
      .sort((a, b) => b.pages - a.pages)
      .slice(0, 8),
  };
}

/** The whole report: pages worst first (so the table opens on what costs most), and the account summary. */
export function checkPages(input: PageCheckInput, lemmatizer: Lemmatizer, thresholds: PageCheckThresholds = defaultPageCheckThresholds): PageCheckResult {
  const pages = input.pages.map((page) => {
    const analysed = analyzePage(page, input.targets[page.url] ?? [], lemmatizer, thresholds);
    analysed.issues.sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity]);
    return analysed;
  });
  pages.sort((a, b) => a.score - b.score || b.cost - a.cost);
  return { pages, summary: summarise(pages, thresholds) };
}

/** The key under which ad URLs count as one page: tracking parameters and the fragment do not change the page. */
export function pageKey(url: string): string {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    for (const key of [...parsed.searchParams.keys()]) if (TRACKING_PARAM.test(key)) parsed.searchParams.delete(key);
    parsed.hostname = parsed.hostname.toLowerCase();
    return parsed.toString();
  } catch {
    return url.trim();
  }
}
