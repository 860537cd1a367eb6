/// <reference lib="dom" />
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSession, type AdminSession } from './helpers/admin-session.js';
import { createProjectFromFiles, exactNumber, headerBalance, ruNumberPattern } from './helpers/flows.js';

/** The landing pages of the test site, each the target of one ad group. */
const PAGES = {
  /** Answers every keyword and headline word of its group, in the title, the H1 and the text. */
  relevant: { path: '/plastikovye-okna', group: 'Пластиковые окна' },
  /** A short «about us» page the balcony group's ads lead to: none of their words on it. */
  weak: { path: '/o-kompanii', group: 'Остекление балконов' },
  /** Gone: answers 404. It is also held until the test has seen the progress screen mid-run. */
  missing: { path: '/dveri', group: 'Межкомнатные двери' },
  /** The ads' address (with UTM tags) redirects to the page itself, dropping the tags. */
  redirected: { path: '/setki', finalPath: '/moskitnye-setki', group: 'Москитные сетки' },
} as const;
const AD_UTM = '?utm_source=yandex&utm_medium=cpc';

const RELEVANT_HTML = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8">
<title>Пластиковые окна на заказ — купить окна ПВХ в Москве</title>
<meta name="description" content="Пластиковые окна ПВХ на заказ с установкой за 1 день. Цены от производителя.">
</head><body>
<nav><a href="/">Главная</a> <a href="/o-kompanii">О компании</a></nav>
<h1>Пластиковые окна на заказ с установкой за 1 день</h1>
<p>Купить пластиковые окна в Москве у производителя просто: замерщик приедет в удобное время, рассчитает стоимость
окна ПВХ на заказ и подберёт профиль под ваш дом. Мы изготавливаем окна на собственном заводе, поэтому цена ниже
рыночной, а срок изготовления — от трёх дней.</p>
<h2>Установка пластиковых окон</h2>
<p>Установка пластиковых окон занимает один день: бригада демонтирует старую раму, установит новое окно, утеплит
откосы и уберёт за собой мусор. На монтаж даём гарантию пять лет, на профиль и фурнитуру — десять лет. Работаем
по договору, оплата после установки.</p>
<h2>Окна ПВХ на заказ: что входит в цену</h2>
<p>В стоимость входят замер, доставка, профиль с тремя камерами, двухкамерный стеклопакет, фурнитура, подоконник,
отлив и москитная сетка. Пластиковые окна делаем любых размеров и форм: поворотно-откидные створки, арочные окна,
балконные блоки и панорамное остекление для квартиры и частного дома.</p>
<h2>Почему выбирают нас</h2>
<p>За пятнадцать лет мы установили больше двадцати тысяч окон в Москве и области. Каждое окно проверяем на заводе,
замерщик и монтажники работают в штате, а менеджер отвечает на вопросы каждый день с девяти до девяти. Оставьте
заявку на бесплатный замер, и мы перезвоним в течение пятнадцати минут, чтобы назначить удобное время визита
специалиста и рассказать о действующих скидках на пластиковые окна и установку.</p>
<h2>Как мы работаем</h2>
<p>Сначала вы звоните или оставляете заявку на сайте. Затем замерщик приезжает с образцами профилей и стеклопакетов,
снимает размеры проёмов и сразу называет окончательную стоимость заказа. После подписания договора окна изготавливают
на заводе, привозят в согласованный день и устанавливают, а мастер показывает, как ухаживать за фурнитурой и
уплотнителями, чтобы окна служили долго и не продувались зимой.</p>
</body></html>`;

const WEAK_HTML = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>О компании</title></head>
<body><h1>О нас</h1><p>Мы работаем с 2009 года. Наши контакты: телефон и адрес офиса.</p></body></html>`;

const SCREENS_HTML = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Москитные сетки на окна — купить в Москве</title></head>
<body><h1>Москитные сетки на окна</h1><p>Купить москитную сетку на пластиковое окно: рамочные и вставные сетки,
изготовление за день, установка мастером.</p></body></html>`;

const NOT_FOUND_HTML = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Страница не найдена</title></head>
<body><h1>404</h1><p>Такой страницы нет.</p></body></html>`;

interface LandingSite {
  url: string;
  /** Paths the site was asked for, in order, with the User-Agent of each request. */
  requests: { path: string; userAgent: string }[];
  /** Lets the held 404 page answer. */
  releaseMissingPage: () => void;
  close: () => Promise<void>;
}

/** A real HTTP site on 127.0.0.1 with the landing pages; the 404 page answers only once released. */
async function startLandingSite(): Promise<LandingSite> {
  const requests: LandingSite['requests'] = [];
  let releaseMissingPage!: () => void;
  const missingPageReleased = new Promise<void>((resolve) => (releaseMissingPage = resolve));
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://site.test').pathname;
    requests.push({ path: pathname, userAgent: String(request.headers['user-agent'] ?? '') });
    const send = (status: number, html: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    if (pathname === PAGES.relevant.path) send(200, RELEVANT_HTML);
    else if (pathname === PAGES.weak.path) send(200, WEAK_HTML);
    else if (pathname === PAGES.redirected.finalPath) send(200, SCREENS_HTML);
    else if (pathname === PAGES.redirected.path) {
      response.writeHead(301, { location: PAGES.redirected.finalPath });
      response.end();
    } else if (pathname === PAGES.missing.path) void missingPageReleased.then(() => send(404, NOT_FOUND_HTML));
    else send(404, NOT_FOUND_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    releaseMissingPage,
    close: () => {
      releaseMissingPage();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const CSV_HEADER = [
  'Доп. объявление группы', 'Тип объявления', 'ID кампании', 'Название кампании', 'Тип кампании', 'Валюта', 'ID группы', 'Название группы',
  'ID фразы', 'Фраза (с минус-словами)', 'ID объявления', 'Заголовок 1', 'Заголовок 2', 'Текст', 'Ссылка', 'Регион', 'Ставка', 'Статус объявления', 'Статус фразы',
];
const CAMPAIGN = 'Окна Мастер — Поиск — Москва';

/** One ad group of the export: its phrases, one ad and where the ad leads. */
interface ExportGroup {
  id: number;
  name: string;
  phrases: string[];
  headlines: [string, string];
  text: string;
  url: string;
}

/** A Yandex Direct campaign export (CSV, «;»-separated, one row per phrase, the group's ad on each row). */
function directExport(groups: ExportGroup[]): string {
  const rows = groups.flatMap((group, groupIndex) =>
    group.phrases.map((phrase, phraseIndex) =>
      [
        phraseIndex === 0 ? '-' : '+', 'Текстово-графическое', '61234567', CAMPAIGN, 'Текстово-графические объявления', 'RUB', String(group.id), group.name,
        String(9100 + groupIndex * 10 + phraseIndex), phrase, String(7100 + groupIndex), ...group.headlines, group.text, group.url, 'Москва', '30', 'Активно', 'Активна',
      ].join(';'),
    ),
  );
  return `${[CSV_HEADER.join(';'), ...rows].join('\n')}\n`;
}

/** The results table's row of a page, and the page's score as a number. */
function pageRow(page: Page, url: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name: url, exact: true }) });
}
async function scoreOf(row: Locator): Promise<number> {
  const badge = row.locator('[aria-label^="Оценка "]');
  const label = (await badge.getAttribute('aria-label'))!;
  expect(label).toMatch(/^Оценка \d+ из 100$/);
  return Number(await badge.innerText());
}

describe('a page check of a real site in Chromium', () => {
  let site: LandingSite;
  let exportDir: string;
  let session: AdminSession;
  let page: Page;

  beforeAll(async () => {
    site = await startLandingSite();
    exportDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-e2e-page-check-'));
    // The site is on 127.0.0.1: the fetcher's SSRF guard would refuse it on a shared server.
    session = await startAdminSession({ env: { ALLOW_PRIVATE_PAGE_HOSTS: 'true' } });
    page = session.page;
  });
  afterAll(async () => {
    await session?.close();
    await site?.close();
    if (exportDir) await rm(exportDir, { recursive: true, force: true });
  });

  it('lists the ads’ pages with their price, fetches them over HTTP, and scores the relevant page above the weak one and the 404 as not opening', async () => {
    const urls = {
      relevant: `${site.url}${PAGES.relevant.path}`,
      weak: `${site.url}${PAGES.weak.path}`,
      missing: `${site.url}${PAGES.missing.path}`,
      redirected: `${site.url}${PAGES.redirected.path}${AD_UTM}`,
    };
    const exportFile = path.join(exportDir, 'direct-okna.csv');
    await writeFile(
      exportFile,
      directExport([
        {
          id: 5101,
          name: PAGES.relevant.group,
          phrases: ['купить пластиковые окна', 'окна пвх на заказ', 'установка пластиковых окон'],
          headlines: ['Пластиковые окна на заказ', 'Установка за 1 день'],
          text: 'Окна ПВХ от производителя. Бесплатный замер. Гарантия 5 лет.',
          url: urls.relevant,
        },
        {
          id: 5102,
          name: PAGES.weak.group,
          phrases: ['остекление балконов', 'утепление лоджии под ключ', 'отделка балкона вагонкой'],
          headlines: ['Остекление балконов под ключ', 'Утепление лоджии'],
          text: 'Тёплое и холодное остекление балконов. Отделка вагонкой.',
          url: urls.weak,
        },
        {
          id: 5103,
          name: PAGES.missing.group,
          phrases: ['межкомнатные двери купить', 'двери из массива'],
          headlines: ['Межкомнатные двери', 'Двери из массива сосны'],
          text: 'Более 300 моделей дверей в наличии. Установка под ключ.',
          url: urls.missing,
        },
        {
          id: 5104,
          name: PAGES.redirected.group,
          phrases: ['москитные сетки на окна', 'купить москитную сетку'],
          headlines: ['Москитные сетки на окна', 'Изготовление за день'],
          text: 'Рамочные и вставные сетки. Установка мастером.',
          url: urls.redirected,
        },
      ]),
    );
    const projectId = await createProjectFromFiles(page, { name: 'Окна Мастер — посадочные', site: site.url, platform: 'Яндекс Директ', files: [exportFile] });
    const balanceBefore = await headerBalance(page);

    // From the project: the pages the ads lead to, each with its group, phrases and ads, and the price.
    await page.getByRole('link', { name: 'Проверка страниц' }).click();
    await page.waitForURL(`**/projects/${projectId}/page-check/new`);
    const pages = page.getByRole('group', { name: 'Посадочные страницы' });
    for (const [url, phrases] of [[urls.relevant, 3], [urls.weak, 3], [urls.missing, 2], [urls.redirected, 2]] as const) {
      const choice = pages.getByRole('checkbox', { name: new RegExp(`^${url.replace(/[.?]/g, '\\$&')}\\s*1 группа · ${phrases} фраз[ыа]? · 1 объявление$`) });
      await choice.waitFor();
      expect(await choice.isChecked()).toBe(true);
    }
    expect(await pages.getByRole('checkbox', { name: 'Все страницы (4)' }).isChecked()).toBe(true);
    expect(site.requests).toEqual([]);
    const costText = await page.getByTestId('page-check-cost').innerText();
    expect(costText).toBe('4 токена');
    await page.getByText('(1 токен за страницу)').waitFor();
    await page.getByText(new RegExp(`^На балансе: ${ruNumberPattern(balanceBefore)} токен`)).waitFor();
    const cost = 4;

    await page.getByRole('button', { name: 'Проверить страницы' }).click();
    await page.waitForURL(/\/page-check\/[0-9a-f-]{36}\/progress$/);
    const analysisId = new URL(page.url()).pathname.split('/').at(-2)!;
    // The header shows the debit at once.
    await page.getByTestId('balance-value').filter({ hasText: exactNumber(balanceBefore - cost) }).waitFor();

    // Mid-run: three pages read, the held one still loading; the screen follows by itself.
    await page.getByRole('heading', { level: 1, name: 'Проверка посадочных страниц' }).waitFor();
    await page.getByText('Проверено страниц: 3 из 4').waitFor();
    await page.getByText('Загружаем страницы').waitFor();
    await page.locator('[role="progressbar"][aria-label="Ход проверки"][aria-valuenow="67"]').waitFor();
    expect(page.url()).toMatch(/\/progress$/);
    site.releaseMissingPage();
    await page.waitForURL(`**/projects/${projectId}/page-check/${analysisId}/results`);

    // The pages were read from the site itself, by our robot, the redirect followed hop by hop.
    expect(site.requests.map((request) => request.path).sort()).toEqual(
      [PAGES.missing.path, PAGES.weak.path, PAGES.relevant.path, PAGES.redirected.path, PAGES.redirected.finalPath].sort(),
    );
    for (const request of site.requests) expect(request.userAgent).toMatch(/ReklamaLabBot/);

    // Results: the relevant page above the weak one, the 404 flagged and scored 0.
    await page.getByRole('heading', { level: 1, name: 'Проверка посадочных страниц' }).waitFor();
    const relevantRow = pageRow(page, urls.relevant);
    const weakRow = pageRow(page, urls.weak);
    const missingRow = pageRow(page, urls.missing);
    await relevantRow.waitFor();
    const relevantScore = await scoreOf(relevantRow);
    const weakScore = await scoreOf(weakRow);
    expect(relevantScore).toBeGreaterThanOrEqual(80);
    expect(weakScore).toBeLessThan(50);
    expect(relevantScore).toBeGreaterThan(weakScore);
    expect(await scoreOf(missingRow)).toBe(0);

    await relevantRow.getByText(/^HTTP 200 · \d+,\d с$/).waitFor();
    await relevantRow.getByText('Главный заголовок (H1): Пластиковые окна на заказ с установкой за 1 день').waitFor();
    await relevantRow.getByText('всё найдено').waitFor();
    // The weak page misses its group's words and says so.
    await weakRow.getByRole('button', { name: /Страница слабо отвечает на ключевые фразы групп «Остекление балконов»/ }).waitFor();
    expect(await weakRow.locator('.page-check-missing').innerText()).toMatch(/балкон/);
    // The 404: its answer, the finding, and what to do on opening it.
    await missingRow.getByText('HTTP 404').waitFor();
    const notFound = missingRow.getByRole('button', { name: /Сервер ответил кодом 404/ });
    await notFound.click();
    await missingRow.getByText('Восстановите страницу или замените ссылку в объявлениях на работающую.').waitFor();

    // The redirect: followed to the page, the answer counts it, and the lost UTM tags are a finding.
    const redirectedRow = pageRow(page, urls.redirected);
    await redirectedRow.getByText(`→ ${site.url}${PAGES.redirected.finalPath}`).waitFor();
    await redirectedRow.getByText(/^HTTP 200 · перенаправлений: 1 · \d+,\d с$/).waitFor();
    await redirectedRow.getByRole('button', { name: /При перенаправлении теряются UTM-метки \(utm_source, utm_medium\)/ }).waitFor();
    expect(await scoreOf(redirectedRow)).toBeGreaterThanOrEqual(50);

    // The summary: four pages checked, three open, the two weak ones counted.
    const summary = page.getByLabel('Сводка');
    const fact = (term: string) => summary.locator('div', { has: page.locator('dt', { hasText: term }) }).locator('dd');
    expect(await fact('Проверено').innerText()).toBe('4 страницы');
    expect(await fact('Открываются').innerText()).toBe('3');
    expect(await fact('Слабые страницы (ниже 50)').innerText()).toBe('2');
    await summary.getByText('Страница отвечает ошибкой: 1 страница').waitFor();

    // The price stayed paid: the header is still the balance minus the check.
    expect(await headerBalance(page)).toBe(balanceBefore - cost);
  });
});
