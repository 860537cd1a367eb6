import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CampaignData, Sitelink } from '../../../contract/campaigns.js';
import { directApiMessages } from '../../../contract/messages.js';
import { createDirectClient } from '../../../server/direct/api/client.js';
import { DirectApiError } from '../../../server/direct/api/errors.js';
import { fetchAccount, strategyOf } from '../../../server/direct/api/fetch-account.js';
import { importFromDirectApi, lastFullDays } from '../../../server/direct/api/index.js';
import { splitKeyword } from '../../../server/direct/api/keyword-text.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';

const period = { from: '2024-05-01', to: '2024-05-31' };
const noWait = async () => undefined;

let fake: FakeDirect;
beforeAll(async () => {
  fake = await startFakeDirect(teplodomAccount(), { token: 'good-token', pageSize: 2, reportProgress: { SEARCH_QUERY_PERFORMANCE_REPORT: [201, 202] } });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
});

const client = (token = 'good-token') => createDirectClient({ token, baseUrl: fake.url, sleep: noWait });

const sitelinks: Sitelink[] = [
  { title: 'Цены', description: 'Прайс на монтаж и материалы', url: 'https://teplodom.example/ceny' },
  { title: 'Гарантия', url: 'https://teplodom.example/garantiya' },
  { title: 'Контакты' },
];

/** The fake's schedule of «Тёплый пол — Поиск»: weekdays 8–18 at 100 %, 18–20 at 50 %, off all weekend. */
const weekday = Array.from({ length: 24 }, (_, hour) => (hour < 8 ? 0 : hour < 18 ? 100 : hour < 20 ? 50 : 0));
const weekend = Array<number>(24).fill(0);

const expected: CampaignData = {
  platform: 'yandex_direct',
  currency: 'RUB',
  period,
  campaigns: [
    {
      externalId: '701',
      name: 'Тёплый пол — Поиск',
      type: 'text',
      placement: 'search',
      strategy: { search: { type: 'HIGHEST_POSITION', bidding: 'manual' }, networks: { type: 'SERVING_OFF', bidding: 'off' } },
      currency: 'RUB',
      dailyBudget: 1500,
      dailyBudgetMode: 'standard',
      schedule: { days: [...Array(5).fill(weekday), weekend, weekend], timeZone: 'Europe/Moscow' },
      startDate: '2024-03-01',
      state: 'on',
      status: 'accepted',
      negativeKeywords: ['бесплатно', 'своими руками', 'вакансии'],
      stats: { impressions: 2400, clicks: 112, cost: 3000.75, conversions: 5 },
      groups: [
        {
          externalId: '8001',
          name: 'Электрический тёплый пол',
          region: '213, 2',
          regionIds: [213, 2],
          negativeKeywords: ['ремонт'],
          keywords: [
            { externalId: '10001', phrase: 'тёплый пол электрический', negativeWords: ['водяной', 'отзывы'], matchType: 'broad', bid: 25, networkBid: 5, status: 'accepted', stats: { impressions: 1500, clicks: 70, cost: 1750.75, conversions: 3 }, moderation: { status: 'accepted' } },
            { externalId: '10002', phrase: '"купить тёплый пол"', negativeWords: [], matchType: 'phrase', bid: 30.5, status: 'accepted', stats: { impressions: 800, clicks: 40, cost: 1200, conversions: 2 }, moderation: { status: 'accepted' } },
            { externalId: '10003', phrase: '"!тёплый !пол"', negativeWords: [], matchType: 'exact', bid: 12, status: 'accepted', moderation: { status: 'accepted' } },
            { externalId: '10004', phrase: '---autotargeting', negativeWords: [], matchType: 'broad', bid: 10, status: 'accepted', isAutotargeting: true, moderation: { status: 'accepted' } },
          ],
          ads: [
            {
              externalId: '9001',
              status: 'accepted',
              moderation: { status: 'accepted' },
              kind: 'text',
              headlines: ['Электрический тёплый пол от 990 ₽', 'Монтаж за 1 день'],
              texts: ['Маты и кабель в наличии. Гарантия 15 лет. Доставка по Москве'],
              displayUrl: 'elektro-pol',
              finalUrl: 'https://teplodom.example/elektro',
              sitelinks,
              callouts: ['Монтаж за 1 день', 'Гарантия 15 лет'],
              isMobile: false,
              image: 'elektro-pol_450x450.png',
              stats: { impressions: 2000, clicks: 100, cost: 2700.5, conversions: 5 },
            },
            {
              externalId: '9002',
              status: 'accepted',
              moderation: { status: 'accepted' },
              kind: 'text',
              headlines: ['Тёплый пол в квартиру'],
              texts: ['Рассчитаем комплект за 5 минут'],
              finalUrl: 'https://teplodom.example/elektro?m=1',
              sitelinks: [],
              callouts: [],
              isMobile: true,
              stats: { impressions: 300, clicks: 10, cost: 250.25, conversions: 0 },
            },
          ],
        },
        {
          externalId: '8002',
          name: 'Водяной тёплый пол',
          region: '213',
          regionIds: [213],
          negativeSetIds: ['7001'],
          servingStatus: 'rarely_served',
          negativeKeywords: [],
          keywords: [
            { externalId: '10005', phrase: 'водяной тёплый пол', negativeWords: ['[своими руками]', '!как'], matchType: 'broad', bid: 18, status: 'suspended', stats: { impressions: 100, clicks: 2, cost: 50, conversions: 0 }, moderation: { status: 'accepted' } },
            { externalId: '10006', phrase: 'тёплый пол санкт-петербург', negativeWords: [], matchType: 'broad', bid: 20, status: 'moderation', servingStatus: 'rarely_served', moderation: { status: 'moderation' } },
          ],
          ads: [
            {
              externalId: '9003',
              status: 'suspended',
              moderation: { status: 'rejected', clarification: 'Объявление отклонено. Причина: в тексте не указан товар или услуга с сайта.' },
              kind: 'text',
              headlines: ['Водяной тёплый пол под ключ', 'Проект бесплатно'],
              texts: ['Коллекторы и трубы в наличии'],
              displayUrl: 'voda',
              finalUrl: 'https://teplodom.example/voda',
              sitelinks,
              callouts: ['Гарантия 15 лет'],
              isMobile: false,
              stats: { impressions: 100, clicks: 2, cost: 50, conversions: 0 },
            },
          ],
        },
      ],
    },
    {
      externalId: '702',
      name: 'Тёплый пол — РСЯ',
      type: 'text',
      placement: 'networks',
      strategy: { search: { type: 'SERVING_OFF', bidding: 'off' }, networks: { type: 'WB_MAXIMUM_CLICKS', bidding: 'automatic', weeklyBudget: 7000, bidCeiling: 20 } },
      currency: 'RUB',
      startDate: '2024-04-15',
      endDate: '2024-12-31',
      state: 'suspended',
      status: 'accepted',
      negativeKeywords: [],
      stats: { impressions: 5000, clicks: 25, cost: 300, conversions: 0 },
      groups: [
        {
          externalId: '8003',
          name: 'Тёплый пол под плитку',
          region: '213',
          regionIds: [213],
          servingStatus: 'eligible',
          negativeKeywords: [],
          keywords: [
            { externalId: '10007', phrase: 'тёплый пол под плитку', negativeWords: [], matchType: 'broad', networkBid: 3, status: 'off', stats: { impressions: 5000, clicks: 25, cost: 300, conversions: 0 }, moderation: { status: 'accepted' } },
          ],
          ads: [
            {
              externalId: '9004',
              status: 'accepted',
              moderation: { status: 'accepted' },
              kind: 'image',
              headlines: [],
              texts: [],
              finalUrl: 'https://teplodom.example/plitka',
              sitelinks: [],
              callouts: [],
              image: 'plitka_1080x607.jpg',
              stats: { impressions: 5000, clicks: 25, cost: 300, conversions: 0 },
            },
          ],
        },
      ],
    },
  ],
  negativeSets: [{ externalId: '7001', name: 'Общие минус-слова', negativeKeywords: ['бесплатно', 'своими руками', 'пермь'] }],
  searchQueries: [
    {
      query: 'тёплый пол электрический под ламинат цена',
      campaignName: 'Тёплый пол — Поиск',
      groupName: 'Электрический тёплый пол',
      keyword: 'тёплый пол электрический -водяной -отзывы',
      stats: { impressions: 150, clicks: 9, cost: 220.5, conversions: 1 },
    },
    {
      query: 'купить тёплый пол',
      campaignName: 'Тёплый пол — Поиск',
      groupName: 'Электрический тёплый пол',
      keyword: '"купить тёплый пол"',
      stats: { impressions: 90, clicks: 6, cost: 180, conversions: 2 },
    },
    {
      query: 'тёплый пол своими руками видео',
      campaignName: 'Тёплый пол — Поиск',
      groupName: 'Водяной тёплый пол',
      keyword: '---autotargeting',
      stats: { impressions: 40, clicks: 3, cost: 75, conversions: 0 },
    },
  ],
};

describe('fetchAccount', () => {
  it('reads the whole account, with sitelinks, callouts, statistics and search queries, into CampaignData', async () => {
    const data = await fetchAccount(client(), { statsPeriod: period });
    expect(data).toEqual(expected);
  });

  it('asks only for documented fields and for each service the way it requires', async () => {
    // Another period: Yandex (and the fake) remember a report by name, and this one must be built afresh.
    await fetchAccount(client(), { statsPeriod: { from: '2024-04-01', to: '2024-04-30' } });
    const services = new Set(fake.requests.map((r) => r.service));
    expect(services).toEqual(new Set(['campaigns', 'adgroups', 'ads', 'keywords', 'sitelinks', 'adextensions', 'adimages', 'negativekeywordsharedsets', 'bidmodifiers', 'reports']));
    // The shared sets the groups use, by id (the unused one is not asked for).
    const setRequests = fake.requests.filter((r) => r.service === 'negativekeywordsharedsets');
    expect(setRequests.map((r) => r.body.params)).toEqual([{ SelectionCriteria: { Ids: [7001] }, FieldNames: ['Id', 'Name', 'NegativeKeywords'], Page: { Limit: expect.any(Number), Offset: 0 } }]);
    const campaignsRequest = fake.requests.find((r) => r.service === 'campaigns')!;
    expect(campaignsRequest.body.params.FieldNames).toEqual(expect.arrayContaining(['DailyBudget', 'StartDate', 'EndDate', 'TimeTargeting', 'State', 'Status']));
    expect(campaignsRequest.body.params.TextCampaignFieldNames).toEqual(['BiddingStrategy']);
    expect(fake.requests.find((r) => r.service === 'adgroups')!.body.params.FieldNames).toEqual(expect.arrayContaining(['ServingStatus', 'NegativeKeywordSharedSetIds']));
    expect(fake.requests.find((r) => r.service === 'ads')!.body.params.FieldNames).toContain('StatusClarification');
    expect(fake.requests.find((r) => r.service === 'keywords')!.body.params.FieldNames).toContain('ServingStatus');
    const adsRequest = fake.requests.find((r) => r.service === 'ads')!;
    expect(adsRequest.body.params.TextAdFieldNames).toContain('AdImageHash');
    expect(adsRequest.body.params.TextImageAdFieldNames).toContain('AdImageHash');
    const imageRequests = fake.requests.filter((r) => r.service === 'adimages');
    expect(imageRequests).toHaveLength(1);
    expect(imageRequests[0]!.body.params.SelectionCriteria.AdImageHashes.sort()).toEqual(['fakeHash01', 'fakeHash02']);
    expect(imageRequests[0]!.body.params.FieldNames).toEqual(['AdImageHash', 'Name']);
    const sitelinkRequest = fake.requests.find((r) => r.service === 'sitelinks')!;
    expect(sitelinkRequest.body.params.SelectionCriteria).toEqual({ Ids: [5001] });
    const calloutRequest = fake.requests.find((r) => r.service === 'adextensions')!;
    expect(calloutRequest.body.params.SelectionCriteria.Ids.sort()).toEqual([6001, 6002]);
    const reports = fake.requests.filter((r) => r.service === 'reports').map((r) => r.body.params);
    expect(new Set(reports.map((r) => r.ReportType))).toEqual(new Set(['CUSTOM_REPORT', 'SEARCH_QUERY_PERFORMANCE_REPORT', 'CAMPAIGN_PERFORMANCE_REPORT']));
    expect(reports.every((r) => r.SelectionCriteria.DateFrom === '2024-04-01' && r.SelectionCriteria.DateTo === '2024-04-30' && r.Format === 'TSV')).toBe(true);
    // The search-query report answered 201, 202, then 200: three identical requests.
    expect(reports.filter((r) => r.ReportType === 'SEARCH_QUERY_PERFORMANCE_REPORT')).toHaveLength(3);
    expect(fake.maxInFlight).toBeLessThanOrEqual(5);
  });

  it('keeps the image of an image ad and of a text ad with one (by the image name), and gives none to an ad without', async () => {
    const data = await fetchAccount(client());
    const ads = data.campaigns.flatMap((c) => c.groups).flatMap((g) => g.ads);
    const byId = (id: string) => ads.find((ad) => ad.externalId === id)!;

    expect(byId('9004')).toMatchObject({ kind: 'image', image: 'plitka_1080x607.jpg' });
    expect(byId('9001')).toMatchObject({ kind: 'text', image: 'elektro-pol_450x450.png' });
    expect(byId('9002')).not.toHaveProperty('image');
    expect(byId('9003')).not.toHaveProperty('image');
  });

  it('keeps the image hash when Yandex refuses the image lookup, and fails on anything worse', async () => {
    fake.failNext('adimages', { error_code: 8000, error_string: 'Неверный запрос' });
    const data = await fetchAccount(client());
    const ads = data.campaigns.flatMap((c) => c.groups).flatMap((g) => g.ads);
    expect(ads.find((ad) => ad.externalId === '9004')!.image).toBe('fakeHash01');

    fake.failNext('adimages', { error_code: 152, error_string: 'Недостаточно баллов' });
    await expect(fetchAccount(client())).rejects.toMatchObject({ code: 152 });
  });

  it('reads only the named campaigns, archived ones included, and filters the reports to them', async () => {
    const data = await fetchAccount(client(), { campaignIds: ['702', 703], statsPeriod: period });

    expect(data.campaigns.map((c) => c.name)).toEqual(['Тёплый пол — РСЯ', 'Архив 2022']);
    expect(data.campaigns[1]!.groups[0]!.keywords.map((k) => k.phrase)).toEqual(['старая фраза']);
    expect(data.searchQueries).toEqual([]);
    const report = fake.requests.find((r) => r.service === 'reports')!.body.params;
    expect(report.SelectionCriteria.Filter).toEqual([{ Field: 'CampaignId', Operator: 'IN', Values: ['702', '703'] }]);
  });

  it('without a period reads the structure only', async () => {
    const data = await fetchAccount(client());

    expect(fake.requests.some((r) => r.service === 'reports')).toBe(false);
    expect(data.period).toBeUndefined();
    expect(data.searchQueries).toEqual([]);
    expect(data.campaigns[0]!.stats).toBeUndefined();
    expect(data.campaigns[0]!.groups[0]!.keywords[0]!.stats).toBeUndefined();
  });

  it('a failed report becomes a Russian warning when warnings are collected, and an error otherwise', async () => {
    // All four reports fail (statistics, search queries, network sites, statistics by day): which request reaches the fake first is not fixed.
    fake.failNext('reports', { error_code: 4000, error_string: 'Неверные параметры отчета', times: 4 });
    const warnings: string[] = [];
    const data = await fetchAccount(client(), { statsPeriod: period, warnings });

    const reason = directApiMessages.invalidRequest.replace('{code}', '4000');
    expect(warnings.sort()).toEqual(
      [directApiMessages.statsSkipped, directApiMessages.searchQueriesSkipped, directApiMessages.placementsSkipped, directApiMessages.dailyStatsSkipped].map((template) => template.replace('{reason}', reason)).sort(),
    );
    expect(data.period).toBeUndefined();
    expect(data.campaigns).toHaveLength(2);
    expect(data.campaigns[0]!.stats).toBeUndefined();

    fake.failNext('reports', { error_code: 4000, error_string: 'Неверные параметры отчета' });
    await expect(fetchAccount(client(), { statsPeriod: period })).rejects.toBeInstanceOf(DirectApiError);
  });

  it('stops the whole import on an auth error, warnings or not', async () => {
    const error = await fetchAccount(client('revoked'), { statsPeriod: period, warnings: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirectApiError);
    expect((error as DirectApiError).message).toBe(directApiMessages.invalidToken);
  });
});

describe('fetchAccount when the structure fails while reports are building', () => {
  let slow: FakeDirect;
  beforeAll(async () => {
    slow = await startFakeDirect(teplodomAccount(), {
      token: 'good-token',
      reportProgress: { CUSTOM_REPORT: Array(20).fill(202), SEARCH_QUERY_PERFORMANCE_REPORT: Array(20).fill(202) },
    });
  });
  afterAll(() => slow.close());

  it('stops polling the reports', async () => {
    const waiting: (() => void)[] = [];
    let reportCalls = 0;
    const direct = createDirectClient({
      token: 'good-token',
      baseUrl: slow.url,
      sleep: () => new Promise<void>((resolve) => waiting.push(resolve)),
      fetch: (input, init) => {
        if (String(input).endsWith('/reports')) reportCalls++;
        return fetch(input, init);
      },
    });
    slow.failNext('campaigns', { error_code: 152, error_string: 'Недостаточно баллов' });

    await expect(fetchAccount(direct, { statsPeriod: period, warnings: [] })).rejects.toMatchObject({ code: 152 });
    await vi.waitFor(() => expect(waiting).toHaveLength(3)); // the custom and query reports (statistics, sites, queries) answered 202 and wait to poll again
    const callsBefore = reportCalls;
    waiting.splice(0).forEach((wake) => wake());
    await new Promise((resolve) => setImmediate(resolve));
    expect(reportCalls).toBe(callsBefore);
    expect(waiting).toHaveLength(0);
  });
});

describe('fetchAccount on a large account', () => {
  let big: FakeDirect;
  beforeAll(async () => {
    const account = teplodomAccount();
    for (let i = 1; i <= 23; i++) {
      account.campaigns.push({ Id: i, Name: `Кампания ${i}`, Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', NegativeKeywords: null });
      account.adGroups.push({ Id: 100 + i, Name: `Группа ${i}`, CampaignId: i, RegionIds: [1], NegativeKeywords: { Items: ['-дешево'] } });
      account.keywords.push({ Id: 1000 + i, Keyword: `фраза ${i}`, AdGroupId: 100 + i, CampaignId: i, Bid: 1_000_000, State: 'ON', Status: 'ACCEPTED' });
    }
    big = await startFakeDirect(account, { token: 'good-token', pageSize: 3 });
  });
  afterAll(() => big.close());

  it('cuts the campaign ids into chunks of 10, runs at most 5 requests at once and still gets everything', async () => {
    const data = await fetchAccount(createDirectClient({ token: 'good-token', baseUrl: big.url, sleep: noWait }));

    expect(data.campaigns).toHaveLength(25);
    expect(data.campaigns.flatMap((c) => c.groups)).toHaveLength(26);
    expect(data.campaigns.find((c) => c.name === 'Кампания 7')!.groups[0]!.negativeKeywords).toEqual(['дешево']);
    const chunks = big.requests.filter((r) => r.service === 'adgroups' && r.body.params.Page.Offset === 0).map((r) => r.body.params.SelectionCriteria.CampaignIds.length);
    expect(chunks.sort((a, b) => a - b)).toEqual([5, 10, 10]);
    expect(big.maxInFlight).toBeLessThanOrEqual(5);
  });
});

describe('fetchAccount with many ad images', () => {
  let images: FakeDirect;
  beforeAll(async () => {
    const account = teplodomAccount();
    // 1 001 distinct images on 1 002 ads (two ads share the first), one of them unknown to adimages.
    for (let i = 0; i <= 1001; i++) {
      const hash = `hash${Math.max(i, 1)}`;
      account.ads.push({ Id: 20_000 + i, AdGroupId: 8003, CampaignId: 702, State: 'ON', Status: 'ACCEPTED', Type: 'IMAGE_AD', Subtype: 'TEXT_IMAGE_AD', TextImageAd: { AdImageHash: hash, Href: 'https://teplodom.example/plitka' } });
      if (i !== 1001) account.adImages.push({ AdImageHash: hash, Name: `banner-${i}_1080x607.jpg`, Associated: 'YES' });
    }
    images = await startFakeDirect(account, { token: 'good-token', pageSize: 10_000 });
  });
  afterAll(() => images.close());

  it('asks adimages for each hash once, in batches, and maps every image ad to its name', async () => {
    const data = await fetchAccount(createDirectClient({ token: 'good-token', baseUrl: images.url, sleep: noWait }), { campaignIds: [702] });

    const batches = images.requests.filter((r) => r.service === 'adimages').map((r) => r.body.params.SelectionCriteria.AdImageHashes as string[]);
    expect(batches.map((hashes) => hashes.length).sort((a, b) => a - b)).toEqual([2, 1000]);
    const asked = batches.flat();
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toHaveLength(1002); // fakeHash01 of ad 9004 and hash1…hash1001

    const ads = data.campaigns[0]!.groups[0]!.ads;
    const imageOf = (id: number) => ads.find((ad) => ad.externalId === String(id))!.image;
    expect(imageOf(20_000)).toBe('banner-1_1080x607.jpg');
    expect(imageOf(20_001)).toBe('banner-1_1080x607.jpg');
    expect(imageOf(20_500)).toBe('banner-500_1080x607.jpg');
    expect(imageOf(21_001)).toBe('hash1001'); // no name known: the hash stands in
    expect(images.maxInFlight).toBeLessThanOrEqual(5);
  });
});

describe('importFromDirectApi', () => {
  it('returns the data, the points spent and no warnings, with the last 30 days as the default period', async () => {
    const result = await importFromDirectApi({ token: 'good-token', baseUrl: fake.url, client: { sleep: noWait }, now: new Date('2024-06-15T10:00:00Z') });

    expect(result.data.campaigns.map((c) => c.name)).toEqual(['Тёплый пол — Поиск', 'Тёплый пол — РСЯ']);
    expect(result.data.period).toEqual({ from: '2024-05-16', to: '2024-06-14' });
    expect(result.warnings).toEqual([]);
    expect(result.units.requests).toBeGreaterThan(0);
    expect(result.units.spent).toBe(result.units.requests * 10);
    expect(result.units.available).toBe(fake.unitsLeft());
  });

  it('skips statistics when asked to, and passes Client-Login on', async () => {
    const result = await importFromDirectApi({ token: 'good-token', clientLogin: 'teplodom-client', baseUrl: fake.url, statsPeriod: null });
    expect(result.data.period).toBeUndefined();
    expect(fake.requests.every((r) => r.headers['client-login'] === 'teplodom-client')).toBe(true);
    expect(result.units.usedLogin).toBe('teplodom-client');
  });

  it('computes "the last N full days" in Moscow time', () => {
    // 22:30 UTC on 14 June is already 15 June in Moscow.
    expect(lastFullDays(7, new Date('2024-06-14T22:30:00Z'))).toEqual({ from: '2024-06-08', to: '2024-06-14' });
  });
});

describe('splitKeyword', () => {
  it('separates minus-words from the phrase, keeping operators and hyphenated words', () => {
    expect(splitKeyword('купить шубу -норковая -!дешево')).toEqual({ phrase: 'купить шубу', negativeWords: ['норковая', '!дешево'], matchType: 'broad', isAutotargeting: false });
    expect(splitKeyword('"купить шубу" -[в кредит]')).toMatchObject({ phrase: '"купить шубу"', negativeWords: ['[в кредит]'], matchType: 'phrase' });
    expect(splitKeyword('ремонт квартир санкт-петербург')).toMatchObject({ phrase: 'ремонт квартир санкт-петербург', negativeWords: [] });
    expect(splitKeyword('"[!купить !шубу]"')).toMatchObject({ matchType: 'exact' });
    expect(splitKeyword('(шуба|пуховик) +на меху')).toMatchObject({ phrase: '(шуба|пуховик) +на меху', negativeWords: [], matchType: 'broad' });
    expect(splitKeyword('---autotargeting')).toMatchObject({ isAutotargeting: true, negativeWords: [] });
  });
});

describe('progress while the account loads', () => {
  it('reports each stage as it moves, with the points spent, and ends with every stage over', async () => {
    const seen: { stages: { stage: string; status: string; done: number; total: number | null; items: number }[]; units: { spent: number } }[] = [];
    await fetchAccount(client(), { statsPeriod: period, warnings: [], onProgress: (progress) => seen.push(progress) });
    const last = seen.at(-1)!;
    expect(last.stages).toEqual([
      { stage: 'campaigns', status: 'done', done: 2, total: 2, items: 2 },
      { stage: 'groups', status: 'done', done: 2, total: 2, items: 3 },
      { stage: 'ads', status: 'done', done: 2, total: 2, items: 5 },
      { stage: 'keywords', status: 'done', done: 2, total: 2, items: 7 },
      // One sitelinks, one callouts and one images lookup: 1 set, 2 callouts, 2 images.
      { stage: 'extensions', status: 'done', done: 3, total: 3, items: 5 },
      { stage: 'statistics', status: 'done', done: 1, total: 1, items: 5 },
      { stage: 'search_queries', status: 'done', done: 1, total: 1, items: 3 },
    ]);
    expect(last.units.spent).toBe(fake.requests.filter((request) => request.service !== 'reports').length * 10);
    // Points only grow, and a stage's counters never go back.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.units.spent).toBeGreaterThanOrEqual(seen[i - 1]!.units.spent);
      for (const [index, stage] of seen[i]!.stages.entries()) expect(stage.done).toBeGreaterThanOrEqual(seen[i - 1]!.stages[index]!.done);
    }
    // Keywords were seen loading before they were done.
    expect(seen.some((progress) => progress.stages[3]!.status === 'running')).toBe(true);
  });

  it('marks the reports skipped when there is no period or a report fails', async () => {
    const seen: { stages: { stage: string; status: string }[] }[] = [];
    await fetchAccount(client(), { onProgress: (progress) => seen.push(progress) });
    expect(seen.at(-1)!.stages.filter((stage) => stage.status === 'skipped').map((stage) => stage.stage)).toEqual(['statistics', 'search_queries']);

    seen.length = 0;
    fake.failNext('reports', { error_code: 9000, error_string: 'Очередь отчётов заполнена', httpStatus: 400, times: 10 });
    const warnings: string[] = [];
    await fetchAccount(createDirectClient({ token: 'good-token', baseUrl: fake.url, sleep: noWait, maxRetries: 0 }), { statsPeriod: period, warnings, onProgress: (progress) => seen.push(progress) });
    expect(warnings.length).toBeGreaterThan(0);
    expect(seen.at(-1)!.stages.filter((stage) => stage.status === 'skipped').length).toBeGreaterThan(0);
  });
});

describe('strategyOf', () => {
  it('reads each placement\'s strategy with its parameters in roubles: pay-for-conversion, target CPA, networks with the search strategy', () => {
    expect(
      strategyOf({
        Id: 1,
        Name: 'Оплата за конверсии',
        TextCampaign: {
          BiddingStrategy: {
            Search: { BiddingStrategyType: 'PAY_FOR_CONVERSION', PayForConversion: { Cpa: 1_200_000_000, GoalId: 987654, WeeklySpendLimit: 30_000_000_000 } },
            Network: { BiddingStrategyType: 'NETWORK_DEFAULT', NetworkDefault: { LimitPercent: 100 } },
          },
        },
      }),
    ).toEqual({
      search: { type: 'PAY_FOR_CONVERSION', bidding: 'automatic', payForConversion: true, targetCpa: 1200, goalId: '987654', weeklyBudget: 30000 },
      networks: { type: 'NETWORK_DEFAULT', bidding: 'automatic', payForConversion: true },
    });
    expect(
      strategyOf({ Id: 2, Name: 'Ручные ставки', TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION' }, Network: { BiddingStrategyType: 'NETWORK_DEFAULT' } } } }),
    ).toEqual({ search: { type: 'HIGHEST_POSITION', bidding: 'manual' }, networks: { type: 'NETWORK_DEFAULT', bidding: 'manual' } });
    expect(
      strategyOf({ Id: 3, Name: 'Цель', TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'AVERAGE_CPA', AverageCpa: { AverageCpa: 850_500_000, GoalId: 42, WeeklySpendLimit: null } } } } }),
    ).toEqual({ search: { type: 'AVERAGE_CPA', bidding: 'automatic', targetCpa: 850.5, goalId: '42' } });
    // A file-like campaign without a strategy: unknown, not «manual».
    expect(strategyOf({ Id: 4, Name: 'Без стратегии' })).toBeUndefined();
  });
});

describe('where the money comes from (campaigns.get Funds, v4 Live AccountManagement)', () => {
  it('reads a campaign’s own balance from micro-units and the shared account’s Amount once for its campaigns', async () => {
    const account = teplodomAccount();
    account.campaigns[0]!.Funds = { Mode: 'CAMPAIGN_FUNDS', CampaignFunds: { Sum: 20_000_000_000, Balance: 4_250_500_000, BalanceBonus: 0, SumAvailableForTransfer: 0 } };
    account.campaigns[1]!.Funds = { Mode: 'SHARED_ACCOUNT_FUNDS', SharedAccountFunds: { Refund: 0, Spend: 900_000_000 } };
    account.sharedAccounts = [{ AccountID: 31, Login: 'teplodom', Amount: 1840.5, Currency: 'RUB' }];
    const funded = await startFakeDirect(account, { token: 'good-token', pageSize: 100 });
    try {
      const warnings: string[] = [];
      const data = await fetchAccount(createDirectClient({ token: 'good-token', clientLogin: 'teplodom', baseUrl: funded.url, sleep: noWait }), { clientLogin: 'teplodom', warnings });
      expect(data.campaigns.map((campaign) => campaign.funds)).toEqual([
        { mode: 'campaign', balance: 4250.5 },
        { mode: 'shared_account', balance: 1840.5, accountId: '31' },
      ]);
      expect(warnings).toEqual([]);
      expect(funded.requests.filter((request) => request.service === 'live4').map((request) => request.body)).toEqual([
        { method: 'AccountManagement', param: { Action: 'Get', SelectionCriteria: { Logins: ['teplodom'] } }, locale: 'ru', token: 'good-token' },
      ]);

      // The v4 call refused: the account is still read, the balance is missing and a Russian warning says what that costs.
      funded.failNext('live4', { error_code: 54, error_string: 'Нет прав' });
      const refused: string[] = [];
      const again = await fetchAccount(createDirectClient({ token: 'good-token', baseUrl: funded.url, sleep: noWait }), { warnings: refused });
      expect(again.campaigns[1]!.funds).toEqual({ mode: 'shared_account' });
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(/^Баланс общего счёта не загружен \(предупреждение о том, что деньги заканчиваются, не сработает\): \S/);
    } finally {
      await funded.close();
    }
  });
});
