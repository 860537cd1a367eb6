/**
 * Import benchmark: a Yandex Direct CSV export of 100 000 keywords and 20 000 ads (100 campaigns × 100
 * groups × 10 phrases; a group's first row carries its first ad, a `+` row its second ad), generated in
 * memory (about 30 MB, under the 50 MB upload limit), then timed twice:
 * 1. the importer alone (`importCampaignFiles`), with its peak memory;
 * 2. the whole request a user makes, over HTTP against the production app (bench-app.ts): upload and parse
 *    into a preview (POST /api/v1/projects/import-preview), then save it as a project (POST /api/v1/projects),
 *    while another user keeps asking for the project list, one request after the other; their waiting
 *    times show whether the import holds up the server's other requests.
 */
import { performance } from 'node:perf_hooks';
import { importCampaignFiles } from '../server/projects/importers/index.js';

const CAMPAIGNS = 100;
const GROUPS_PER_CAMPAIGN = 100;
const KEYWORDS_PER_GROUP = 10;

const HEADER = [
  'Доп. объявление группы', 'Тип объявления', 'ID кампании', 'Название кампании', 'Минус-фразы на кампанию', 'ID группы', 'Название группы',
  'Номер группы', 'ID фразы', 'Фраза (с минус-словами)', 'ID объявления', 'Заголовок 1', 'Заголовок 2', 'Текст', 'Ссылка',
  'Отображаемая ссылка', 'Регион', 'Ставка', 'Статус объявления', 'Статус фразы', 'Заголовки быстрых ссылок', 'Адреса быстрых ссылок',
  'Уточнения', 'Минус-фразы на группу',
];

const PRODUCTS = ['диван', 'угловой диван', 'диван кровать', 'кресло', 'пуф', 'кушетка', 'тахта', 'софа', 'банкетка', 'матрас'];
const INTENTS = ['купить', 'заказать', 'цена', 'недорого', 'в москве', 'с доставкой', 'от производителя', 'распродажа', 'в рассрочку', 'каталог'];

export function generateDirectCsv(): { text: string; keywords: number; ads: number; rows: number } {
  const lines: string[] = [HEADER.join('\t')];
  let keywordId = 1_000_000;
  let adId = 5_000_000;
  let groupId = 300_000;
  let keywords = 0;
  let ads = 0;
  for (let c = 0; c < CAMPAIGNS; c++) {
    const campaignName = `Диваны Комфорт — Поиск — ${c + 1}`;
    for (let g = 0; g < GROUPS_PER_CAMPAIGN; g++) {
      groupId += 1;
      const product = PRODUCTS[g % PRODUCTS.length];
      const groupName = `${product} ${g + 1}`;
      const firstAd = ++adId;
      ads += 1;
      for (let k = 0; k < KEYWORDS_PER_GROUP; k++) {
        keywords += 1;
        const phrase = k % 3 === 0 ? `"${INTENTS[k]} ${product}"` : `${INTENTS[k]} ${product} ${g + 1} -бесплатно -б/у`;
        const ad =
          k === 0
            ? [
                String(firstAd), `${product} от фабрики`, 'Доставка за 1 день', `Купите ${product} со скидкой до 30%. Рассрочка 0%.`,
                `https://divany-komfort.example/${g}`, `katalog-${g}`,
              ]
            : ['', '', '', '', '', ''];
        const extras =
          k === 0
            ? ['Каталог||Акции||Доставка', 'https://divany-komfort.example/c||https://divany-komfort.example/s||https://divany-komfort.example/d', 'Рассрочка 0%||Гарантия 3 года', '-детский -икеа']
            : ['', '', '', ''];
        lines.push([
          '-', 'Текстово-графическое', String(51_000_000 + c), campaignName, k === 0 && g === 0 ? '-бесплатно -своими руками' : '', String(groupId), groupName,
          String(g + 1), String(++keywordId), phrase, ...ad, 'Москва', `${(20 + (k % 7) * 2.5).toFixed(2).replace('.', ',')}`, k === 0 ? 'Активно' : '', 'Активна',
          ...extras,
        ].join('\t'));
      }
      ads += 1;
      lines.push([
        '+', 'Текстово-графическое', '', '', '', '', '', '', '', '', String(++adId), `${product} в наличии`, 'Москва и область',
        `Соберём ${product} бесплатно в день доставки.`, `https://divany-komfort.example/${g}`, `nalichie-${g}`, '', '', 'Активно', '', '', '', '', '',
      ].join('\t'));
    }
  }
  return { text: lines.join('\n') + '\n', keywords, ads, rows: lines.length - 1 };
}

/** The importer alone, in this thread. */
export async function runImportBench(): Promise<void> {
  const generated = generateDirectCsv();
  const bytes = new TextEncoder().encode(generated.text);
  generated.text = '';
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const result = await importCampaignFiles([{ name: 'bench-direct.tsv', bytes }], { platform: 'yandex_direct' });
  const elapsed = performance.now() - started;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const counts = result.counts;
  if (!result.data || counts.keywords !== generated.keywords || counts.ads !== generated.ads) {
    throw new Error(`import bench: expected ${generated.keywords} keywords and ${generated.ads} ads, got ${JSON.stringify(counts)}; problems: ${JSON.stringify(result.problems.slice(0, 3))}`);
  }
  const mb = (value: number): string => `${(value / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    [
      `import: Yandex Direct CSV, ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${generated.rows} rows`,
      `  ${counts.campaigns} campaigns, ${counts.groups} groups, ${counts.keywords} keywords, ${counts.ads} ads`,
      `  ${elapsed.toFixed(0)} ms, ${Math.round(counts.keywords / (elapsed / 1000))} keywords/s`,
      `  RSS before ${mb(rssBefore)}, peak RSS ${mb(peakRss)}`,
    ].join('\n'),
  );
}

/** Waiting times of requests made one after the other until `done()` says to stop. */
async function probe(url: string, token: string, done: () => boolean, atLeast = 0): Promise<number[]> {
  const waits: number[] = [];
  while (!done() || waits.length < atLeast) {
    const asked = performance.now();
    const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`probe ${url}: HTTP ${answer.status}`);
    waits.push(performance.now() - asked);
  }
  return waits;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

/** The user's request over HTTP, with another user's requests answered meanwhile. */
export async function runHttpImportBench(): Promise<void> {
  // Loaded here, not on top: the tests that only generate the file need no server.
  const { startBenchApp } = await import('./bench-app.js');
  const bench = await startBenchApp();
  try {
    const generated = generateDirectCsv();
    const bytes = new TextEncoder().encode(generated.text);
    generated.text = '';
    const auth = { authorization: `Bearer ${bench.accessToken}` };
    const listUrl = `${bench.url}/api/v1/projects`;

    // The same request with the server idle, as the yardstick for the waits during the import.
    const idle = await probe(listUrl, bench.accessToken, () => true, 50);

    let finished = false;
    const started = performance.now();
    const importing = (async () => {
      const form = new FormData();
      form.append('platform', 'yandex_direct');
      form.append('files', new Blob([bytes], { type: 'text/tab-separated-values' }), 'bench-direct.tsv');
      const previewAnswer = await fetch(`${bench.url}/api/v1/projects/import-preview`, { method: 'POST', headers: auth, body: form });
      const preview = (await previewAnswer.json()) as { draft_id: string; counts: { keywords: number; ads: number } };
      if (!previewAnswer.ok) throw new Error(`import-preview: HTTP ${previewAnswer.status} ${JSON.stringify(preview).slice(0, 300)}`);
      const previewMs = performance.now() - started;
      const saveAnswer = await fetch(`${bench.url}/api/v1/projects`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Диваны Комфорт', site_url: 'divany-komfort.example', platform: 'yandex_direct', draft_id: preview.draft_id }),
      });
      const project = (await saveAnswer.json()) as { counts: { keywords: number; ads: number } };
      if (saveAnswer.status !== 201) throw new Error(`create project: HTTP ${saveAnswer.status} ${JSON.stringify(project).slice(0, 300)}`);
      if (project.counts.keywords !== generated.keywords || project.counts.ads !== generated.ads) throw new Error(`import bench: saved ${JSON.stringify(project.counts)}`);
      return { previewMs, totalMs: performance.now() - started };
    })().finally(() => {
      finished = true;
    });
    const busy = await probe(listUrl, bench.accessToken, () => finished);
    const { previewMs, totalMs } = await importing;

    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(
      [
        `import over HTTP (${bench.source}): ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${generated.keywords} keywords, ${generated.ads} ads`,
        `  upload + parse into a preview ${ms(previewMs)}, save as a project ${ms(totalMs - previewMs)}, whole request ${ms(totalMs)}`,
        `  another user's GET /api/v1/projects during the import: ${busy.length} answers, p50 ${ms(percentile(busy, 0.5))}, p99 ${ms(percentile(busy, 0.99))}, max ${ms(Math.max(...busy))}`,
        `  the same request on an idle server: p50 ${ms(percentile(idle, 0.5))}, max ${ms(Math.max(...idle))}`,
      ].join('\n'),
    );
  } finally {
    await bench.close();
  }
}

export async function run(): Promise<void> {
  await runImportBench();
  await runHttpImportBench();
}

// `npx tsx bench/import.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
