/**
 * Bench of the analysis engines: an account of 100 000 keywords and 20 000 ads (10 campaigns × 500
 * groups × 20 keywords / 4 ads) plus 50 000 search queries, generated deterministically. Prints the
 * time of lemmatisation/preparation, semantics and scoring, the peak memory, and the raw lemmatiser's
 * own words per second measured in the same run (the limit the engines are compared against), beside
 * the Snowball stemmer's on the same words.
 */
import type { Ad, CampaignData, Keyword, SearchQuery } from '../src/contract/campaigns.js';
import { defaultAnalysisSettings } from '../src/contract/analysis-results.js';
import { runScoring } from '../server/analysis/scoring/engine.js';
import { runSemanticAnalysis } from '../server/analysis/semantic/engine.js';
import { createLemmatizer, loadMorphology } from '../server/analysis/semantic/lemmatizer.js';
import { prepareAccount } from '../server/analysis/semantic/prepare.js';
import { tokenize } from '../server/analysis/semantic/phrase.js';
import { snowballRussian } from '../server/analysis/semantic/snowball-russian.js';

const products = ['окна', 'двери', 'шубы', 'кухни', 'диваны', 'потолки', 'ламинат', 'плитка', 'обои', 'матрасы', 'кровати', 'шкафы', 'стулья', 'столы', 'куртки', 'ботинки', 'велосипеды', 'самокаты', 'холодильники', 'телевизоры'];
const adjectives = ['пластиковые', 'деревянные', 'белые', 'черные', 'большие', 'маленькие', 'угловые', 'детские', 'недорогие', 'элитные', 'складные', 'раздвижные', 'металлические', 'стеклянные', 'натуральные', 'зимние', 'летние', 'мужские', 'женские', 'новые', 'итальянские', 'немецкие', 'китайские', 'российские', 'классические'];
const modifiers = ['купить', 'цена', 'заказать', 'недорого', 'в москве', 'с доставкой', 'от производителя', 'интернет магазин', 'со скидкой', 'в рассрочку', 'отзывы', 'фото', 'каталог', 'под заказ', 'распродажа'];
const queryTails = ['бесплатно', 'своими руками', 'вакансии', 'б/у', 'авито', 'казань', 'скачать', 'как выбрать', 'отзывы', 'дешево', 'екатеринбург', 'рейтинг', 'размеры', 'гост', 'схема'];

/** A small deterministic PRNG (mulberry32), so every run measures the same account. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The bench account: 10 campaigns × 500 groups (20 keywords, 4 ads, 10 search queries each) by
 * default; tests take a smaller slice of the same shape.
 */
export function generateAccount(size: { campaigns?: number; groupsPerCampaign?: number } = {}): CampaignData {
  const campaignCount = size.campaigns ?? 10;
  const groupCount = size.groupsPerCampaign ?? 500;
  const next = random(42);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const campaigns: CampaignData['campaigns'] = [];
  const searchQueries: SearchQuery[] = [];
  for (let c = 0; c < campaignCount; c++) {
    const campaign: CampaignData['campaigns'][number] = { name: `Кампания ${c + 1}`, negativeKeywords: c % 3 === 0 ? [] : ['бесплатно', 'скачать'], groups: [], type: c === campaignCount - 1 && campaignCount > 1 ? 'network' : 'search' };
    for (let g = 0; g < groupCount; g++) {
      const product = products[(c * groupCount + g) % products.length];
      const adjective = adjectives[g % adjectives.length];
      const keywords: Keyword[] = [];
      for (let k = 0; k < 20; k++) {
        const words = k === 0 ? [product] : k < 5 ? [adjective, product] : [adjective, product, pick(modifiers), ...(k % 4 === 0 ? [pick(adjectives)] : [])];
        const clicks = Math.floor(next() * 60);
        const cost = Math.round(clicks * (10 + next() * 90));
        keywords.push({ phrase: words.join(' '), negativeWords: k % 7 === 0 ? ['дешево'] : [], matchType: 'broad', stats: { impressions: clicks * 20 + Math.floor(next() * 500), clicks, cost, conversions: next() < 0.3 ? Math.floor(next() * 4) : 0 } });
      }
      const ads: Ad[] = [];
      for (let a = 0; a < 4; a++) {
        ads.push({
          kind: 'text',
          headlines: [`${adjective} ${product} ${a === 3 ? 'по лучшей цене от производителя с гарантией' : ''}`.trim(), 'Доставка по всей России'],
          texts: [`Большой выбор: ${adjective} ${product}. Гарантия, рассрочка, доставка за 1 день!`],
          displayUrl: a % 2 ? product.slice(0, 20) : undefined,
          finalUrl: `https://example.ru/${c}/${g}${a % 2 ? '?utm_source=yandex' : ''}`,
          sitelinks: a === 0 ? [] : [{ title: 'Каталог', description: 'Все модели в наличии' }],
          callouts: a === 1 ? [] : ['Гарантия 3 года'],
        });
      }
      campaign.groups.push({ name: `${adjective} ${product} ${g}`, keywords, ads, negativeKeywords: g % 5 === 0 ? ['ремонт'] : [] });
      for (let q = 0; q < 10; q++) {
        const clicks = Math.floor(next() * 12);
        searchQueries.push({ query: `${adjective} ${product} ${pick(queryTails)}`, campaignName: campaign.name, groupName: campaign.groups[g].name, stats: { impressions: clicks * 15, clicks, cost: clicks * 40, conversions: next() < 0.05 ? 1 : 0 } });
      }
    }
    campaigns.push(campaign);
  }
  return { platform: 'yandex_direct', campaigns, searchQueries, period: { from: '2024-03-01', to: '2024-03-31' } };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function runAnalysisBench(): Promise<void> {
  const data = generateAccount();
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed));

  let started = performance.now();
  await loadMorphology();
  const loadMs = performance.now() - started;

  // The raw lemmatiser on the account's own vocabulary, without the memo, repeated to a stable figure.
  const vocabulary = new Set<string>();
  for (const campaign of data.campaigns) for (const group of campaign.groups) for (const keyword of group.keywords) for (const { form } of tokenize(keyword.phrase)) vocabulary.add(form);
  for (const query of data.searchQueries) for (const { form } of tokenize(query.query)) vocabulary.add(form);
  const words = [...vocabulary];
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
  const semantic = runSemanticAnalysis(account, defaultAnalysisSettings, sample);
  const semanticMs = performance.now() - started;
  sample();
  started = performance.now();
  const scoring = runScoring(account, semantic, defaultAnalysisSettings, sample);
  const scoringMs = performance.now() - started;
  sample();

  const rssPeakKb = process.resourceUsage().maxRSS;
  console.log('Analysis engines bench (one core)');
  console.log(`  account: ${scoring.counts.keywords} keywords, ${scoring.counts.ads} ads, ${scoring.counts.groups} groups, ${scoring.counts.searchQueries} search queries`);
  console.log(`  dictionaries load:            ${seconds(loadMs)}`);
  console.log(`  raw lemmatiser (az, no memo): ${Math.round(rawWordsPerSecond).toLocaleString('en-US')} words/s on ${words.length} distinct words`);
  console.log(`  Snowball stemmer, same words: ${Math.round(stemmerWordsPerSecond).toLocaleString('en-US')} words/s`);
  console.log(`  prepare (parse + lemmatise):  ${seconds(prepareMs)} for ${tokens.toLocaleString('en-US')} words = ${Math.round(tokens / (prepareMs / 1000)).toLocaleString('en-US')} words/s with the memo (${lemmatizer.vocabularySize} lemmatised)`);
  console.log(`  semantics:                    ${seconds(semanticMs)} (${semantic.clusters.length} clusters, ${semantic.duplicates.length} duplicate sets, ${semantic.intersections.length} intersections, ${semantic.crossMinus.length} cross-minus, ${semantic.negatives.length} negatives)`);
  console.log(`  scoring:                      ${seconds(scoringMs)} (${scoring.findings.length} findings, account score ${scoring.account.score})`);
  console.log(`  total (prepare + semantics + scoring): ${seconds(prepareMs + semanticMs + scoringMs)}`);
  console.log(`  peak memory: heap ${mb(peakHeap)}, RSS ${mb(rssPeakKb * 1024)}`);
}

// `tsx bench/analysis.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) await runAnalysisBench();

/** Entry for `bench/run.ts`. */
export const run = runAnalysisBench;
