/**
 * Bench of the analysis engines: an account of 100 000 keywords and 20 000 ads (10 campaigns × 500
 * groups × 20 keywords / 4 ads) plus 50 000 search queries (`BENCH_ANALYSIS_KEYWORDS=1000000`: 100
 * campaigns, 200 000 ads, 500 000 queries; run it under `flock /work/wt/heavy.lock`), generated deterministically from the word
 * lists of bench/account-vocabulary.ts (thousands of distinct words, as in a real account). Prints its
 * vocabulary (distinct words, how many az does not know), the time of lemmatisation/preparation,
 * semantics, scoring and the money story, the peak memory, and the raw lemmatiser's own words per
 * second on the account's distinct words in the same run (the limit the engines are compared against),
 * beside the Snowball stemmer's on the same words. Then the findings per check (findings and the entities
 * they cover, so noise is visible) and the money story with its causes.
 *
 * Then the same account as the analysis job runs it (bench/analysis-worker-path.ts, in a process of its
 * own): JSON texts as UTF-8 bytes into `runAuditInWorkerThread`, a thread of the analysis pool with its
 * heap limit, progress and every row batch back over the port; stage times, the first and last batch,
 * the thread's heap and the process's peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ad, CampaignData, Keyword, SearchQuery } from '../contract/campaigns.js';
import { defaultAnalysisSettings, moneyCauseLabels, type ScoringResult } from '../contract/analysis-results.js';
import { runScoring } from '../server/engines/scoring/engine.js';
import { moneyStory } from '../server/engines/scoring/money-story.js';
import { runSemanticEngine } from '../server/engines/semantic/engine.js';
import { createLemmatizer, isDictionaryWord, loadMorphology } from '../server/engines/semantic/lemmatizer.js';
import { prepareAccount } from '../server/engines/semantic/prepare.js';
import { tokenize } from '../server/engines/semantic/phrase.js';
import { snowballRussian } from '../server/engines/semantic/snowball-russian.js';
import { adPhrases, adjectiveForms, categories, cities, commonAdjectives, queryTails, sellingWords, type Category, type Noun } from './account-vocabulary.js';

/** A small deterministic PRNG (mulberry32), so every run measures the same account. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pick = <T>(list: readonly T[]) => T;
const picker = (next: () => number): Pick => (list) => list[Math.floor(next() * list.length)];

/** A category's model codes, the way shops write them: «rx-350», «kgn39vl», «a5012». Each category has its own seeded pool. */
function modelCodes(categoryIndex: number): string[] {
  const next = random(1000 + categoryIndex);
  const pick = picker(next);
  const letters = 'abcdefghklmnprstvwxz'.split('');
  const digits = (count: number) => Array.from({ length: count }, () => Math.floor(next() * 10)).join('');
  const codes = new Set<string>();
  while (codes.size < 150) {
    const shape = next();
    if (shape < 0.35) codes.add(`${pick(letters)}${pick(letters)}-${digits(3)}`);
    else if (shape < 0.7) codes.add(`${pick(letters)}${pick(letters)}${pick(letters)}${digits(2)}${pick(letters)}${pick(letters)}`);
    else codes.add(`${pick(letters)}${digits(4)}`);
  }
  return [...codes];
}

/** The adjective's form that agrees with the noun in the given number (nominative) or in the genitive plural. */
function agree(adjective: string, noun: Noun, form: 'sg' | 'pl' | 'genPl'): string {
  const forms = adjectiveForms(adjective);
  if (form === 'genPl') return forms.genPl;
  return form === 'pl' || noun.gender === 'pl' ? forms.pl : forms[noun.gender];
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One group's words: its noun, its adjective and brand, and what the templates draw from. */
interface GroupTopic {
  category: Category;
  noun: Noun;
  adjective: string;
  brand: string;
  models: string[];
}

/** Keyword phrases of the kinds real accounts hold: bare product, product with its qualifier, commerce, brand and model, size, service, city. */
function keywordPhrase(topic: GroupTopic, k: number, pick: Pick, next: () => number): string {
  const { category, noun, adjective, brand, models } = topic;
  const anyAdjective = next() < 0.5 ? adjective : pick(commonAdjectives);
  const city = pick(cities);
  const templates: (() => string)[] = [
    () => noun.nomPl,
    () => `${agree(adjective, noun, 'pl')} ${noun.nomPl}`,
    () => `${agree(adjective, noun, 'sg')} ${noun.nomSg}`,
    () => `купить ${agree(adjective, noun, 'pl')} ${noun.nomPl}`,
    () => `${noun.nomPl} ${agree(adjective, noun, 'pl')}`,
    () => `${pick(sellingWords)} ${agree(anyAdjective, noun, 'pl')} ${noun.nomPl}`,
    () => `${agree(anyAdjective, noun, 'pl')} ${noun.nomPl} ${pick(sellingWords)}`,
    () => `${noun.nomSg} ${brand} ${pick(models)}`,
    () => `${brand} ${noun.nomSg} ${pick(models)} ${pick(sellingWords)}`,
    () => `${noun.nomSg} ${pick(category.sizes)}`,
    () => `${agree(anyAdjective, noun, 'sg')} ${noun.nomSg} ${pick(category.sizes)} ${pick(sellingWords)}`,
    () => `${pick(category.services)} ${agree(anyAdjective, noun, 'genPl')} ${noun.genPl}`,
    () => `${pick(category.services)} ${noun.genSg} в ${city.prep}`,
    () => `${noun.nomPl} ${pick(sellingWords)} в ${city.prep}`,
    () => `${agree(anyAdjective, noun, 'pl')} ${noun.nomPl} ${city.nom}`,
    () => `${noun.nomPl} ${pick(category.cyrillicBrands)}`,
    () => `цена ${noun.genSg} ${brand}`,
    () => `${noun.nomPl} с доставкой из ${city.gen}`,
    () => `${noun.nomSg} ${pick(category.brands)} ${pick(category.sizes)}`,
    () => `${agree(pick(commonAdjectives), noun, 'sg')} ${noun.nomSg} ${agree(adjective, noun, 'sg')}`,
  ];
  return k < 5 ? templates[k]() : pick(templates.slice(5))();
}

/**
 * The bench account: 10 campaigns × 500 groups (20 keywords, 4 ads, 10 search queries each) by
 * default; tests take a smaller slice of the same shape. Each campaign sells one category of
 * bench/account-vocabulary.ts; its groups are product × qualifier, so the account has a vocabulary of
 * thousands of words in several forms, as a real one does.
 */
export function generateAccount(size: { campaigns?: number; groupsPerCampaign?: number } = {}): CampaignData {
  const campaignCount = size.campaigns ?? 10;
  const groupCount = size.groupsPerCampaign ?? 500;
  const next = random(42);
  const pick = picker(next);
  const campaigns: CampaignData['campaigns'] = [];
  const searchQueries: SearchQuery[] = [];
  for (let c = 0; c < campaignCount; c++) {
    const category = categories[c % categories.length];
    const models = modelCodes(c % categories.length);
    const adjectives = [...category.adjectives, ...commonAdjectives];
    const campaign: CampaignData['campaigns'][number] = { name: `${category.name} ${c + 1}`, negativeKeywords: c % 3 === 0 ? [] : ['бесплатно', 'скачать', 'своими руками'], groups: [], type: c === campaignCount - 1 && campaignCount > 1 ? 'network' : 'search' };
    for (let g = 0; g < groupCount; g++) {
      const noun = category.nouns[g % category.nouns.length];
      const adjective = adjectives[(g * 7 + Math.floor(g / category.nouns.length)) % adjectives.length];
      const brand = category.brands[(g * 3 + c) % category.brands.length];
      const topic: GroupTopic = { category, noun, adjective, brand, models };
      const keywords: Keyword[] = [];
      for (let k = 0; k < 20; k++) {
        const clicks = Math.floor(next() * 60);
        const cost = Math.round(clicks * (10 + next() * 90));
        keywords.push({ phrase: keywordPhrase(topic, k, pick, next), negativeWords: k % 7 === 0 ? [pick(queryTails).split(' ')[0]] : [], matchType: 'broad', stats: { impressions: clicks * 20 + Math.floor(next() * 500), clicks, cost, conversions: next() < 0.3 ? Math.floor(next() * 4) : 0 } });
      }
      const title = `${capitalise(agree(adjective, noun, 'pl'))} ${noun.nomPl}`;
      const ads: Ad[] = [];
      for (let a = 0; a < 4; a++) {
        const city = pick(cities);
        ads.push({
          kind: 'text',
          headlines: [a === 3 ? `${title} ${brand} по лучшей цене от производителя с гарантией` : a === 2 ? `${title} в ${city.prep}` : `${title} ${brand}`, pick(adPhrases)],
          texts: [`${pick(adPhrases)}. ${capitalise(noun.nomPl)} ${brand} ${pick(models)} от ${Math.round(1 + next() * 90) * 1000} ₽. ${pick(category.services) === 'доставка' ? 'Доставка' : capitalise(pick(category.services))} ${noun.genPl} в ${city.prep}!`],
          displayUrl: a % 2 ? noun.nomPl.slice(0, 20) : undefined,
          finalUrl: `https://example.ru/${c}/${g}${a % 2 ? '?utm_source=yandex' : ''}`,
          sitelinks: a === 0 ? [] : [{ title: 'Каталог', description: 'Все модели в наличии' }, { title: capitalise(pick(category.services)), description: pick(adPhrases) }],
          callouts: a === 1 ? [] : [pick(adPhrases)],
        });
      }
      campaign.groups.push({ name: `${title} ${g}`, keywords, ads, negativeKeywords: g % 5 === 0 ? [pick(queryTails).split(' ')[0]] : [] });
      for (let q = 0; q < 10; q++) {
        const clicks = Math.floor(next() * 12);
        const phrase = keywordPhrase(topic, 5 + q, pick, next);
        searchQueries.push({ query: q % 2 ? `${phrase} ${pick(queryTails)}` : phrase, campaignName: campaign.name, groupName: campaign.groups[g].name, stats: { impressions: clicks * 15, clicks, cost: clicks * 40, conversions: next() < 0.05 ? 1 : 0 } });
      }
    }
    campaigns.push(campaign);
  }
  return { platform: 'yandex_direct', campaigns, searchQueries, period: { from: '2024-03-01', to: '2024-03-31' } };
}

/** Every word of the account's texts, once: keywords, negatives, ads and search queries. */
function accountVocabulary(data: CampaignData): string[] {
  const vocabulary = new Set<string>();
  const add = (text: string) => {
    for (const { form } of tokenize(text)) vocabulary.add(form);
  };
  for (const campaign of data.campaigns) {
    campaign.negativeKeywords.forEach(add);
    for (const group of campaign.groups) {
      group.negativeKeywords.forEach(add);
      for (const keyword of group.keywords) [keyword.phrase, ...keyword.negativeWords].forEach(add);
      for (const ad of group.ads) [...ad.headlines, ...ad.texts, ...ad.callouts, ...ad.sitelinks.flatMap((link) => [link.title, link.description ?? ''])].forEach(add);
    }
  }
  for (const query of data.searchQueries) add(query.query);
  return [...vocabulary];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Keywords of the bench account (`BENCH_ANALYSIS_KEYWORDS`): 10 000 per campaign, 500 groups of 20. */
export function benchAccountSize(keywords: number): { campaigns: number; groupsPerCampaign: number } {
  const campaigns = Math.max(1, Math.round(keywords / 10_000));
  return { campaigns, groupsPerCampaign: Math.max(1, Math.round(keywords / campaigns / 20)) };
}

/** Accounts up to this size also run the engines alone in this process (a bigger one would need the account twice in one heap). */
const ENGINES_ALONE_MAX_KEYWORDS = 200_000;

export async function runAnalysisBench(): Promise<void> {
  const keywords = Number(process.env.BENCH_ANALYSIS_KEYWORDS ?? 100_000);
  if (keywords <= ENGINES_ALONE_MAX_KEYWORDS || process.env.BENCH_ANALYSIS_ENGINES_ALONE === '1') await runEnginesAlone(generateAccount(benchAccountSize(keywords)));
  else console.log(`Analysis engines alone: skipped above ${ENGINES_ALONE_MAX_KEYWORDS.toLocaleString('en-US')} keywords (BENCH_ANALYSIS_ENGINES_ALONE=1 runs them)`);
  await runWorkerPath(keywords);
}

/**
 * The analysis as the job runs it (bench/analysis-worker-path.ts, in a process of its own so its peak
 * RSS is the engines' thread and the worker's side only): stage times as the progress reports arrive,
 * the first row batch, the end, the thread's heap and the process's peak RSS.
 */
async function runWorkerPath(keywords: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-analysis-'));
  let data: CampaignData | null = generateAccount(benchAccountSize(keywords));
  const period = JSON.stringify(data.period);
  let bytes = 0;
  const write = (name: string, value: unknown) => {
    const text = JSON.stringify(value);
    bytes += Buffer.byteLength(text);
    writeFileSync(path.join(dir, name), text);
  };
  data.campaigns.forEach((campaign, index) => write(`campaign-${index}.json`, campaign));
  // The report in chunks, as the project stores a big one.
  const QUERY_CHUNK = 100_000;
  for (let start = 0; start < data.searchQueries.length; start += QUERY_CHUNK) write(`queries-${start / QUERY_CHUNK}.json`, data.searchQueries.slice(start, start + QUERY_CHUNK));
  const counts = { campaigns: data.campaigns.length, queries: data.searchQueries.length };
  data = null;
  try {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./analysis-worker-path.ts', import.meta.url)), dir, period], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) throw new Error(`The worker-path run failed (exit ${child.status}): ${child.stdout.slice(-2000)}`);
    const run = JSON.parse(line) as WorkerPathRun;
    console.log(`\nAnalysis as the job runs it (runAuditInWorkerThread, a thread of the analysis pool, heap limit ${run.heapLimitMb} MB; every row batch serialised and handed to a sink that drops it)`);
    console.log(`  account: ${keywords.toLocaleString('en-US')} keywords in ${counts.campaigns} campaigns, ${counts.queries.toLocaleString('en-US')} search queries; ${mb(bytes)} of JSON handed over`);
    run.stages.forEach((stage, index) => {
      const end = run.stages[index + 1]?.at ?? run.firstBatchAt ?? run.doneAt;
      console.log(`  ${stage.stage.padEnd(16)} ${seconds(end - stage.at).padStart(9)}  (from ${seconds(stage.at)})`);
    });
    console.log(`  first row batch at ${seconds(run.firstBatchAt ?? run.doneAt)}; all ${run.rows.toLocaleString('en-US')} rows in ${run.batches} batches at ${seconds(run.doneAt)} (rows: ${seconds(run.doneAt - (run.firstBatchAt ?? run.doneAt))})`);
    console.log(`  findings ${run.findings}, account score ${run.accountScore}`);
    console.log(`  engine thread's heap: at most ${mb(run.threadHeap?.peakHeapUsed ?? 0)} used at a progress report or batch, ${mb(run.threadHeap?.heapTotal ?? 0)} at the end`);
    console.log(`  process peak RSS (worker side + engine thread): ${mb(run.peakRss)} (idle before the run ${mb(run.idleRss)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface WorkerPathRun {
  heapLimitMb: number;
  stages: { stage: string; at: number }[];
  firstBatchAt: number | null;
  doneAt: number;
  batches: number;
  rows: number;
  findings: number;
  accountScore: number;
  threadHeap?: { peakHeapUsed: number; heapTotal: number };
  idleRss: number;
  peakRss: number;
}

async function runEnginesAlone(data: CampaignData): Promise<void> {
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));

  let started = performance.now();
  await loadMorphology();
  const loadMs = performance.now() - started;

  // The raw lemmatiser on the account's own vocabulary, without the memo, repeated to a stable figure.
  const words = accountVocabulary(data);
  const cyrillic = words.filter((word) => /[а-я]/.test(word));
  const unknownToDictionary = cyrillic.filter((word) => !isDictionaryWord(word)).length;
  const repeated = Array.from({ length: Math.ceil(50_000 / words.length) }, () => words).flat();
  const rawWordsPerSecond = createLemmatizer().measureRawSpeed(repeated);
  // The stemmer az was chosen over (README, «Движок анализа»), on the same words in the same run.
  started = performance.now();
  for (const word of repeated) snowballRussian(word);
  const stemmerWordsPerSecond = repeated.length / ((performance.now() - started) / 1000);

  const lemmatizer = createLemmatizer();
  started = performance.now();
  const account = prepareAccount(data, lemmatizer);
  const prepareMs = performance.now() - started;
  sample();
  let tokens = 0;
  for (const keyword of account.keywords) tokens += keyword.parsed.words.length;
  for (const ad of account.ads) tokens += ad.ad.headlines.join(' ').split(/\s+/).length + ad.ad.texts.join(' ').split(/\s+/).length;
  for (const query of account.queries) tokens += query.words.length;

  started = performance.now();
  const { result: semantic, nonTargetRows } = runSemanticEngine(account, defaultAnalysisSettings, sample);
  const semanticMs = performance.now() - started;
  sample();
  started = performance.now();
  const scoring = runScoring(account, semantic, defaultAnalysisSettings, sample);
  const scoringMs = performance.now() - started;
  sample();
  started = performance.now();
  const money = moneyStory({ account, scoring, nonTargetRows });
  const moneyMs = performance.now() - started;

  const rssPeakKb = process.resourceUsage().maxRSS;
  console.log('Analysis engines bench (one core)');
  console.log(`  account: ${scoring.counts.keywords} keywords, ${scoring.counts.ads} ads, ${scoring.counts.groups} groups, ${scoring.counts.searchQueries} search queries`);
  console.log(`  vocabulary: ${words.length.toLocaleString('en-US')} distinct words, ${cyrillic.length.toLocaleString('en-US')} Cyrillic (${unknownToDictionary.toLocaleString('en-US')} of them unknown to az → Snowball stem), ${(words.length - cyrillic.length).toLocaleString('en-US')} Latin/digit tokens`);
  console.log(`  dictionaries load:            ${seconds(loadMs)}`);
  console.log(`  raw lemmatiser (az, no memo): ${Math.round(rawWordsPerSecond).toLocaleString('en-US')} words/s on ${words.length} distinct words`);
  console.log(`  Snowball stemmer, same words: ${Math.round(stemmerWordsPerSecond).toLocaleString('en-US')} words/s`);
  console.log(`  prepare (parse + lemmatise):  ${seconds(prepareMs)} for ${tokens.toLocaleString('en-US')} words = ${Math.round(tokens / (prepareMs / 1000)).toLocaleString('en-US')} words/s with the memo (${lemmatizer.vocabularySize} lemmatised)`);
  console.log(`  semantics:                    ${seconds(semanticMs)} (${semantic.clusters.length} clusters, ${semantic.duplicates.length} duplicate sets, ${semantic.intersections.length} intersections, ${semantic.crossMinus.length} cross-minus, ${semantic.negatives.length} negatives)`);
  console.log(`  scoring:                      ${seconds(scoringMs)} (${scoring.findings.length} findings, account score ${scoring.account.score})`);
  console.log(`  money story:                  ${seconds(moneyMs)}`);
  console.log(`  total (prepare + semantics + scoring + money): ${seconds(prepareMs + semanticMs + scoringMs + moneyMs)}`);
  console.log(`  peak memory: heap ${mb(peakHeap)}, RSS ${mb(rssPeakKb * 1024)}`);
  printFindingsPerCheck(scoring);
  console.log(`  money story: Теряете ≈ ${rub(money.perMonth)} в месяц (${rub(money.period)} за период)`);
  for (const cause of money.causes) console.log(`    ${moneyCauseLabels[cause.cause].padEnd(32)} ${rub(cause.perMonth).padStart(16)} в месяц, ${cause.count.toLocaleString('en-US')} entities`);
  const causesSum = money.causes.reduce((sum, cause) => sum + cause.perMonth, 0);
  console.log(`    (sum of the causes ${rub(causesSum)} = the headline; the negatives' own figure, with the queries of wasted keywords: ${rub(semantic.nonTargetQueries?.costPerMonth ?? 0)})`);
}

const rub = (value: number) => `${Math.round(value).toLocaleString('en-US')} ₽`;

/**
 * Findings per check: how many findings the user reads and how many keywords, ads or groups they cover.
 * Entities = what one card per entity would have been, so the ratio is the noise the aggregation removes.
 */
function printFindingsPerCheck(scoring: ScoringResult): void {
  const entities = scoring.byCheck.reduce((sum, check) => sum + (check.entities ?? check.count), 0);
  console.log(`  findings per check: ${scoring.findings.length.toLocaleString('en-US')} findings cover ${entities.toLocaleString('en-US')} entities (${(entities / Math.max(1, scoring.findings.length)).toFixed(0)}× fewer cards than one per entity)`);
  console.log(`    ${'check'.padEnd(32)} ${'findings'.padStart(8)} ${'entities'.padStart(9)} ${'₽ per month'.padStart(14)}`);
  for (const check of scoring.byCheck) {
    console.log(`    ${check.checkId.padEnd(32)} ${String(check.count).padStart(8)} ${String(check.entities ?? check.count).padStart(9)} ${Math.round(check.moneyPerMonth).toLocaleString('en-US').padStart(14)}`);
  }
}

// `tsx bench/analysis.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) await runAnalysisBench();

/** Entry for `bench/run.ts`. */
export const run = runAnalysisBench;
