import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePage, checkPages, pageKey, type FetchedPage, type GroupTarget } from '../../../server/engines/page-check/engine.js';
import { extractPage } from '../../../server/engines/page-check/html.js';
import { collectLandingPages, describeLandingPages } from '../../../server/engines/page-check/targets.js';
import { createLemmatizer, loadMorphology, type Lemmatizer } from '../../../server/engines/semantic/lemmatizer.js';
import type { Campaign } from '../../../contract/campaigns.js';

let lemmatizer: Lemmatizer;
beforeAll(async () => {
  await loadMorphology();
  lemmatizer = createLemmatizer();
});

const filler = (n: number) => Array.from({ length: n }, (_, i) => `Монтаж выполняют опытные мастера бригады номер ${i}.`).join(' ');

const goodHtml = `<!doctype html><html><head>
<title>Пластиковые окна на заказ в Москве — Окна Плюс</title>
<meta name="description" content="Окна ПВХ от производителя &laquo;Окна Плюс&raquo;">
<link rel="canonical" href="/okna">
<script>var menu = "жалюзи ролеты кондиционеры";</script><style>.a{color:red}</style>
</head><body>
<nav><a href="/">Главная</a> <a href="/zhalyuzi">Жалюзи</a></nav>
<h1>Пластиковые окна с установкой</h1>
<h2>Цены</h2>
<p>Изготовим и установим окно за 3 дня. Скидка 20% на монтаж. ${filler(30)}</p>
<!-- <p>скрытый комментарий кондиционеры</p> -->
</body></html>`;

const page = (overrides: Partial<FetchedPage> = {}): FetchedPage => ({
  url: 'https://okna-plus.ru/okna?utm_source=yandex',
  finalUrl: 'https://okna-plus.ru/okna?utm_source=yandex',
  status: 200,
  contentType: 'text/html; charset=utf-8',
  html: goodHtml,
  redirects: [],
  timingMs: 400,
  truncated: false,
  error: null,
  ...overrides,
});

const group = (overrides: Partial<GroupTarget> = {}): GroupTarget => ({
  campaign: 'Окна — поиск',
  group: 'Пластиковые окна',
  keywords: [{ phrase: 'пластиковые окна -бесплатно' }, { phrase: '"окно с установкой"' }, { phrase: '---autotargeting', isAutotargeting: true }],
  headlines: ['Пластиковые окна за 3 дня', 'Скидка 20% на монтаж'],
  texts: ['Замер бесплатно'],
  ads: 2,
  cost: 1000,
  clicks: 40,
  ...overrides,
});

describe('HTML reading', () => {
  it('takes title, description, headings, canonical and visible text, without scripts, styles, nav and comments', () => {
    const content = extractPage(goodHtml);
    expect(content.title).toBe('Пластиковые окна на заказ в Москве — Окна Плюс');
    expect(content.metaDescription).toBe('Окна ПВХ от производителя «Окна Плюс»');
    expect(content.h1).toEqual(['Пластиковые окна с установкой']);
    expect(content.h2).toEqual(['Цены']);
    expect(content.canonical).toBe('/okna');
    expect(content.noindex).toBe(false);
    expect(content.text).toContain('Скидка 20% на монтаж');
    for (const hidden of ['жалюзи', 'Жалюзи', 'кондиционеры', 'color:red', 'Главная']) expect(content.text).not.toContain(hidden);
    expect(content.wordCount).toBeGreaterThan(150);
  });

  it('sees robots noindex, decodes numeric entities and survives broken markup', () => {
    const content = extractPage(`<html><head><meta content="noindex, follow" name="ROBOTS"><title>Окна &#8212; &#x41e;к</title></head><body><h1>Окна<br>ПВХ</h1><p>текст <b>без закрытия`);
    expect(content.noindex).toBe(true);
    expect(content.title).toBe('Окна — Ок');
    expect(content.h1).toEqual(['Окна ПВХ']);
    expect(content.text).toContain('текст без закрытия');
  });
});

describe('page check', () => {
  it('matches keywords by lemma: a good page scores high with no relevance issues', () => {
    const result = analyzePage(page(), [group()], lemmatizer);
    expect(result.groups).toHaveLength(1);
    // пластиковые→пластиковый, окна→окно, окно, установкой→установка: all on the page in other forms.
    expect(result.groups[0]).toMatchObject({ coverage: 1, headingCoverage: 1, missing: [], lemmas: 3 });
    expect(result.adPromise.missing).toEqual([]);
    expect(result.score).toBeGreaterThanOrEqual(90);
    expect(result.canonical).toBe('https://okna-plus.ru/okna');
    const codes = result.issues.map((item) => item.code);
    expect(codes).not.toContain('low_keyword_coverage');
    expect(codes).not.toContain('keywords_not_in_headings');
    expect(codes).not.toContain('thin_content');
  });

  it('never matches by substring: «авто» is not covered by «автобус» on the page', () => {
    const html = `<html><head><title>Аренда автобуса</title></head><body><h1>Автобусы с водителем</h1><p>${filler(30)}</p></body></html>`;
    const result = analyzePage(page({ html }), [group({ group: 'Авто', keywords: [{ phrase: 'аренда авто' }], headlines: ['Аренда авто'] })], lemmatizer);
    expect(result.groups[0].missing).toEqual(['авто']);
    expect(result.groups[0].coverage).toBe(0.5);
    expect(result.adPromise.missing).toEqual(['авто']);
  });

  it('names a missing word as the keyword spells it, never as a stem of an unknown word, and skips bare numbers', () => {
    const html = `<html><head><title>Окна</title></head><body><h1>Окна</h1><p>${filler(30)}</p></body></html>`;
    const result = analyzePage(
      page({ html }),
      [group({ keywords: [{ phrase: 'трехкамерные шумоизоляционные окна 3' }], headlines: ['Трехкамерные окна за 3 дня'] })],
      lemmatizer,
    );
    expect(result.groups[0].missing).toEqual(['трехкамерные', 'шумоизоляционные']);
    expect(result.adPromise.missing).toEqual(['трехкамерные', 'дня']);
  });

  it('counts words with the right Russian form: «1 слово», «3 слова»', () => {
    const one = analyzePage(page({ html: '<html><head><title>Окна</title></head><body><h1>Окна</h1><p>Окна</p></body></html>' }), [group()], lemmatizer);
    expect(one.issues.find((item) => item.code === 'thin_content')?.title).toMatch(/мало текста: \d+ (слово|слова|слов) \(/);
    const words = (one.wordCount);
    const expected = words % 10 === 1 && words % 100 !== 11 ? 'слово' : words % 10 >= 2 && words % 10 <= 4 && (words % 100 < 12 || words % 100 > 14) ? 'слова' : 'слов';
    expect(one.issues.find((item) => item.code === 'thin_content')?.title).toContain(`${words} ${expected} (`);
  });

  it('reports a page about something else: keywords missing from title, h1 and text, and the ad promise unconfirmed', () => {
    const html = `<html><head><title>Кондиционеры</title></head><body><h1>Кондиционеры в Москве</h1><p>Продаём кондиционеры.</p></body></html>`;
    const result = analyzePage(page({ html }), [group()], lemmatizer);
    expect(result.groups[0].coverage).toBe(0);
    // Shown as the keywords spell them (matched by lemma underneath).
    expect(result.groups[0].missing).toEqual(['пластиковые', 'окна', 'установкой']);
    const byCode = Object.fromEntries(result.issues.map((item) => [item.code, item]));
    expect(byCode.low_keyword_coverage.severity).toBe('high');
    expect(byCode.low_keyword_coverage.title).toContain('«Пластиковые окна»');
    expect(byCode.keywords_not_in_headings).toBeDefined();
    expect(byCode.ad_promise_missing.title).toContain('скидка');
    expect(byCode.thin_content.title).toContain('5 слов (');
    expect(byCode.thin_content.fix).toBeTruthy();
    expect(result.score).toBeLessThan(30);
  });

  it('flags technical problems: no title, no h1, noindex, slow, redirect to another host losing UTM tags', () => {
    const html = `<html><head><meta name="robots" content="noindex"></head><body><p>Пластиковые окна с установкой. ${filler(30)}</p></body></html>`;
    const result = analyzePage(page({ html, finalUrl: 'https://partner-shop.com/landing', redirects: ['https://okna-plus.ru/okna?utm_source=yandex'], timingMs: 4200 }), [group()], lemmatizer);
    const codes = result.issues.map((item) => item.code);
    expect(codes).toEqual(expect.arrayContaining(['no_title', 'no_h1', 'noindex', 'slow', 'redirect_other_host', 'utm_lost']));
    const slow = result.issues.find((item) => item.code === 'slow')!;
    expect(slow.title).toBe('Страница загружалась 4.2 с (норма — до 3 с)');
    expect(result.issues.find((item) => item.code === 'redirect_other_host')!.title).toBe('Перенаправление с okna-plus.ru на partner-shop.com');
  });

  it('scores an unreachable or failing page 0 with a high-severity issue', () => {
    const failed = analyzePage(page({ status: null, finalUrl: null, html: '', error: 'Домен не найден (nope.invalid)' }), [group()], lemmatizer);
    expect(failed.score).toBe(0);
    expect(failed.issues[0]).toMatchObject({ code: 'fetch_failed', severity: 'high', title: 'Страница не открылась: Домен не найден (nope.invalid)' });
    const missing = analyzePage(page({ status: 404 }), [group()], lemmatizer);
    expect(missing.score).toBe(0);
    expect(missing.issues[0]).toMatchObject({ code: 'http_error', title: 'Сервер ответил кодом 404' });
    const pdf = analyzePage(page({ contentType: 'application/pdf' }), [group()], lemmatizer);
    expect(pdf.issues[0].code).toBe('not_html');
  });

  it('summarises the account: worst pages first, spend on weak pages, issues by severity', () => {
    const result = checkPages(
      {
        pages: [page(), page({ url: 'https://okna-plus.ru/old', status: 404 })],
        targets: { 'https://okna-plus.ru/okna?utm_source=yandex': [group()], 'https://okna-plus.ru/old': [group({ cost: 2500 })] },
      },
      lemmatizer,
    );
    expect(result.pages.map((item) => item.url)).toEqual(['https://okna-plus.ru/old', 'https://okna-plus.ru/okna?utm_source=yandex']);
    expect(result.summary).toMatchObject({ pages: 2, reachable: 1, weakPages: 1, costOnWeakPages: 2500 });
    expect(result.summary.issuesBySeverity.high).toBeGreaterThanOrEqual(1);
    expect(result.summary.topIssues.map((item) => item.code)).toContain('http_error');
  });
});

describe('landing pages of a project', () => {
  it('groups ad addresses that differ only by tracking tags and counts groups, keywords and ads', () => {
    const campaign: Campaign = {
      name: 'Окна',
      negativeKeywords: [],
      groups: [
        {
          name: 'Пластиковые окна',
          negativeKeywords: [],
          keywords: [{ phrase: 'пластиковые окна', negativeWords: [], matchType: 'broad' }, { phrase: 'окна пвх', negativeWords: [], matchType: 'broad' }],
          ads: [
            { kind: 'text', headlines: ['Окна'], texts: ['т'], sitelinks: [], callouts: [], finalUrl: 'https://okna.ru/p?utm_content=1#top' },
            { kind: 'text', headlines: ['Окна ПВХ'], texts: ['т'], sitelinks: [], callouts: [], finalUrl: 'https://okna.ru/p?utm_content=2' },
            { kind: 'text', headlines: ['Без ссылки'], texts: [], sitelinks: [], callouts: [] },
          ],
        },
        {
          name: 'Окна на дачу',
          negativeKeywords: [],
          keywords: [{ phrase: 'окна на дачу', negativeWords: [], matchType: 'broad' }],
          ads: [{ kind: 'text', headlines: ['Дача'], texts: [], sitelinks: [], callouts: [], finalUrl: 'https://okna.ru/dacha' }],
        },
      ],
    };
    const pages = collectLandingPages([campaign]);
    expect(pageKey('https://OKNA.ru/p?utm_content=1&color=red#x')).toBe('https://okna.ru/p?color=red');
    expect(describeLandingPages(pages)).toEqual([
      { url: 'https://okna.ru/dacha', campaigns: 1, groups: 1, keywords: 1, ads: 1 },
      { url: 'https://okna.ru/p?utm_content=1#top', campaigns: 1, groups: 1, keywords: 2, ads: 2 },
    ]);
    expect(pages[1].groups[0].headlines).toEqual(['Окна', 'Окна ПВХ']);
  });

  it('scores the pages checked only: a page with no answer counts as unchecked, yet its spend stays a finding', () => {
    const dead = (url: string) => page({ url, status: null, finalUrl: null, html: '', error: 'Домен не найден (okna.invalid)' });
    const mixed = checkPages(
      {
        pages: [page(), page({ url: 'https://okna-plus.ru/old', status: 500 }), dead('https://okna.invalid/a')],
        targets: { 'https://okna-plus.ru/okna?utm_source=yandex': [group()], 'https://okna.invalid/a': [group({ cost: 1200 })] },
      },
      lemmatizer,
    );
    const good = mixed.pages.find((item) => item.status === 200)!;
    expect(mixed.summary).toMatchObject({ pages: 3, reachable: 1, unchecked: 1, averageScore: Math.round(good.score / 2), costOnWeakPages: 1200 });

    const nothing = checkPages({ pages: [dead('https://okna.invalid/a'), dead('https://okna.invalid/b')], targets: {} }, lemmatizer);
    expect(nothing.summary).toMatchObject({ pages: 2, reachable: 0, unchecked: 2, averageScore: null });
  });
});
