/**
 * Placement columns of statistics reports and the placement settings of structure files and the Direct
 * API: a row per placement splits the statistics (`placementStats`) and still adds up to the totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCampaignFiles } from '../../../server/projects/importers/index.js';
import { createDirectClient } from '../../../server/direct/api/client.js';
import { fetchAccount } from '../../../server/direct/api/fetch-account.js';
import { startFakeDirect, teplodomAccount, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { campaignNamed, dataOf, fixture, groupNamed, textFile } from './helpers.js';

const CAMPAIGN = 'Диваны Комфорт — Поиск — Москва';

describe('Yandex statistics with «Тип площадки»', () => {
  it('splits a keyword\'s rows into search and networks and keeps the sum as its statistics', async () => {
    const report = [
      'Статистика по фразам',
      'Период: 01.10.2026 - 31.10.2026',
      '',
      'Кампания;Группа;Фраза;№ Условия показа;Тип площадки;Показы;Клики;Расход (руб.);Конверсии',
      `${CAMPAIGN};Угловые диваны;купить угловой диван;9001;Поиск;1 000;50;2 500,00;3`,
      `${CAMPAIGN};Угловые диваны;купить угловой диван;9001;Сети;40 000;120;3 600,00;1`,
      `${CAMPAIGN};Угловые диваны;купить угловой диван;9001;Поиск;200;10;500,00;0`,
      `${CAMPAIGN};;;;Сети;1 000;5;100,00;0`,
    ].join('\n');
    const result = await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('phrases.csv', report)]);
    const campaign = campaignNamed(dataOf(result), CAMPAIGN);
    const keyword = groupNamed(campaign, 'Угловые диваны').keywords.find((item) => item.externalId === '9001')!;
    expect(keyword.stats).toEqual({ impressions: 41200, clicks: 180, cost: 6600, conversions: 4 });
    expect(keyword.placementStats).toEqual({
      search: { impressions: 1200, clicks: 60, cost: 3000, conversions: 3 },
      networks: { impressions: 40000, clicks: 120, cost: 3600, conversions: 1 },
    });
    // A campaign-level row goes to the campaign, split too.
    expect(campaign.stats).toEqual({ impressions: 1000, clicks: 5, cost: 100, conversions: 0 });
    expect(campaign.placementStats).toEqual({ networks: { impressions: 1000, clicks: 5, cost: 100, conversions: 0 } });
  });

  it('reads «Площадка» with a site as the campaign\'s sites, leaving the keyword\'s rows unsplit', async () => {
    const report = [
      'Кампания;Группа;Фраза;№ Условия показа;Площадка;Показы;Клики;Расход;Конверсии',
      `${CAMPAIGN};Угловые диваны;купить угловой диван;9001;avito.ru;1 000;10;300;0`,
      `${CAMPAIGN};Угловые диваны;купить угловой диван;9001;com.puzzle.game;5 000;200;1 000;0`,
    ].join('\n');
    const campaign = campaignNamed(dataOf(await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('sites.csv', report)])), CAMPAIGN);
    const keyword = groupNamed(campaign, 'Угловые диваны').keywords.find((item) => item.externalId === '9001')!;
    expect(keyword.stats).toEqual({ impressions: 6000, clicks: 210, cost: 1300, conversions: 0 });
    expect(keyword.placementStats).toBeUndefined();
    expect(campaign.sites).toEqual([
      { site: 'avito.ru', stats: { impressions: 1000, clicks: 10, cost: 300, conversions: 0 } },
      { site: 'com.puzzle.game', stats: { impressions: 5000, clicks: 200, cost: 1000, conversions: 0 } },
    ]);
  });

  it('keeps a campaign-level placements report as sites, not as further campaign totals', async () => {
    const report = [
      'Кампания;Площадка;Показы;Клики;Расход;Конверсии',
      `${CAMPAIGN};avito.ru;1 000;10;300;0`,
      `${CAMPAIGN};AVITO.RU;1 000;10;300;1`,
      `${CAMPAIGN};Поиск;2 000;100;3 000;5`,
    ].join('\n');
    const campaign = campaignNamed(dataOf(await importCampaignFiles([fixture('direct-export-utf8.tsv'), textFile('sites.csv', report)])), CAMPAIGN);
    expect(campaign.sites).toEqual([{ site: 'avito.ru', stats: { impressions: 2000, clicks: 20, cost: 600, conversions: 1 } }]);
    // «Поиск» in the same column is the placement type, not a site.
    expect(campaign.stats).toEqual({ impressions: 2000, clicks: 100, cost: 3000, conversions: 5 });
    expect(campaign.placementStats).toEqual({ search: { impressions: 2000, clicks: 100, cost: 3000, conversions: 5 } });
  });
});

describe('Google reports with «Network» / «Сеть»', () => {
  it('builds keywords from an English report with their split, rows of one keyword summed', async () => {
    const report = [
      'Campaign,Ad group,Keyword,Match type,Network (with search partners),Impr.,Clicks,Cost,Conversions',
      'Flowers,Roses,buy roses,Exact,Google search,1000,50,100.00,2',
      'Flowers,Roses,buy roses,Exact,Search partners,100,5,10.00,0',
      'Flowers,Roses,buy roses,Exact,Display Network,9000,9,9.00,0',
    ].join('\n');
    const data = dataOf(await importCampaignFiles([textFile('keywords.csv', report)]));
    const keyword = groupNamed(campaignNamed(data, 'Flowers'), 'Roses').keywords[0];
    expect(keyword).toMatchObject({ phrase: 'buy roses', matchType: 'exact' });
    expect(keyword.stats).toEqual({ impressions: 10100, clicks: 64, cost: 119, conversions: 2 });
    expect(keyword.placementStats).toEqual({
      search: { impressions: 1100, clicks: 55, cost: 110, conversions: 2 },
      networks: { impressions: 9000, clicks: 9, cost: 9, conversions: 0 },
    });
  });

  it('reads the Russian interface\'s «Сеть» column', async () => {
    const report = [
      'Кампания;Группа объявлений;Ключевое слово;Сеть;Показы;Клики;Стоимость;Конверсии',
      'Цветы;Розы;купить розы;Контекстно-медийная сеть;5000;10;50,00;0',
    ].join('\n');
    const data = dataOf(await importCampaignFiles([textFile('keywords.csv', report)]));
    expect(groupNamed(campaignNamed(data, 'Цветы'), 'Розы').keywords[0].placementStats).toEqual({ networks: { impressions: 5000, clicks: 10, cost: 50, conversions: 0 } });
  });

  it('takes a Google Ads Editor campaign\'s «Networks» as its placement', async () => {
    const editor = [
      'Campaign\tCampaign Type\tNetworks\tAd Group\tKeyword\tCriterion Type',
      'Flowers Display\tDisplay\tDisplay Network\t\t\t',
      'Flowers Search\tSearch\tGoogle search;Search Partners\t\t\t',
      'Flowers Mixed\tSearch\tGoogle search;Search Partners;Display Network\t\t\t',
      'Flowers Search\t\t\tRoses\tbuy roses\tExact',
    ].join('\n');
    const data = dataOf(await importCampaignFiles([textFile('editor.csv', editor)]));
    expect(campaignNamed(data, 'Flowers Display').placement).toBe('networks');
    expect(campaignNamed(data, 'Flowers Search').placement).toBe('search');
    expect(campaignNamed(data, 'Flowers Mixed').placement).toBe('both');
  });
});

describe('Direct API: AdNetworkType and the strategy', () => {
  let fake: FakeDirect;
  beforeAll(async () => {
    const account = teplodomAccount();
    account.campaigns[0] = { ...account.campaigns[0], TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION' }, Network: { BiddingStrategyType: 'SERVING_OFF' } } } };
    account.campaigns[1] = { ...account.campaigns[1], TextCampaign: { BiddingStrategy: { Search: { BiddingStrategyType: 'SERVING_OFF' }, Network: { BiddingStrategyType: 'MAXIMUM_COVERAGE' } } } };
    account.reportRows.CUSTOM_REPORT = [
      { CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10001, CriterionType: 'KEYWORD', AdNetworkType: 'SEARCH', Impressions: 1200, Clicks: 60, Cost: '1500.50', Conversions: 3 },
      { CampaignId: 701, AdGroupId: 8001, AdId: 9001, CriterionId: 10001, CriterionType: 'KEYWORD', AdNetworkType: 'AD_NETWORK', Impressions: 8000, Clicks: 16, Cost: '320.00', Conversions: 0 },
      { CampaignId: 702, AdGroupId: 8003, AdId: 9004, CriterionId: 10007, CriterionType: 'KEYWORD', AdNetworkType: 'AD_NETWORK', Impressions: 5000, Clicks: 25, Cost: '300.00', Conversions: 0 },
    ];
    fake = await startFakeDirect(account, { token: 'good-token' });
  });
  afterAll(() => fake.close());

  it('asks for AdNetworkType and the strategy, splits the statistics and sets the placement', async () => {
    const client = createDirectClient({ token: 'good-token', baseUrl: fake.url, sleep: async () => undefined });
    const data = await fetchAccount(client, { statsPeriod: { from: '2024-05-01', to: '2024-05-31' } });
    const campaignsRequest = fake.requests.find((request) => request.service === 'campaigns')!;
    expect(campaignsRequest.body.params.TextCampaignFieldNames).toEqual(['BiddingStrategy']);
    const [search, network] = data.campaigns;
    expect(search.placement).toBe('search');
    expect(network.placement).toBe('networks');
    const keyword = search.groups[0].keywords.find((item) => item.externalId === '10001')!;
    expect(keyword.stats).toEqual({ impressions: 9200, clicks: 76, cost: 1820.5, conversions: 3 });
    expect(keyword.placementStats).toEqual({
      search: { impressions: 1200, clicks: 60, cost: 1500.5, conversions: 3 },
      networks: { impressions: 8000, clicks: 16, cost: 320, conversions: 0 },
    });
    expect(search.placementStats).toEqual({
      search: { impressions: 1200, clicks: 60, cost: 1500.5, conversions: 3 },
      networks: { impressions: 8000, clicks: 16, cost: 320, conversions: 0 },
    });
  });
});
