/**
 * Two fictional Direct accounts of «ОкнаПермь» (plastic windows in Perm) for the fake Direct API, in the
 * API's own shapes (money in millionths of a rouble): one with every moderation, serving, shared-set and
 * network-site defect the checks look for, and a clean twin of it that must get none of those findings.
 */
import type { ApiObject, FakeDirectAccount } from './yandex-direct-fake.js';

const rub = (value: number) => value * 1_000_000;
const manualSearch = { BiddingStrategy: { Search: { BiddingStrategyType: 'HIGHEST_POSITION' }, Network: { BiddingStrategyType: 'SERVING_OFF' } } };
const networksMaxClicks = { BiddingStrategy: { Search: { BiddingStrategyType: 'SERVING_OFF' }, Network: { BiddingStrategyType: 'WB_MAXIMUM_CLICKS', WbMaximumClicks: { WeeklySpendLimit: rub(20_000) } } } };

interface TextAdOptions {
  status?: string;
  clarification?: string;
  state?: string;
  image?: string | null;
  sitelinks?: { Status: string; StatusClarification?: string };
  imageModeration?: { Status: string; StatusClarification?: string };
  displayUrl?: { Status: string; StatusClarification?: string };
}

function textAd(id: number, groupId: number, campaignId: number, title: string, options: TextAdOptions = {}): ApiObject {
  return {
    Id: id, AdGroupId: groupId, CampaignId: campaignId, State: options.state ?? 'ON', Status: options.status ?? 'ACCEPTED', Type: 'TEXT_AD', Subtype: 'NONE',
    ...(options.clarification ? { StatusClarification: options.clarification } : {}),
    TextAd: {
      Title: title, Title2: 'Замер бесплатно', Text: `${title} с установкой за 1 день. Гарантия 10 лет`, Href: `https://oknaperm.example/?utm_source=yandex&utm_medium=cpc&ad=${id}`,
      DisplayUrlPath: 'okna', Mobile: 'NO', SitelinkSetId: 5101, AdImageHash: options.image === undefined ? 'imgOkna' : options.image,
      AdExtensions: [{ AdExtensionId: 6101, Type: 'CALLOUT' }],
      SitelinksModeration: options.sitelinks ?? { Status: 'ACCEPTED' },
      ...(options.image !== null ? { AdImageModeration: options.imageModeration ?? { Status: 'ACCEPTED' } } : {}),
      DisplayUrlPathModeration: options.displayUrl ?? { Status: 'ACCEPTED' },
    },
  };
}

const keyword = (id: number, groupId: number, campaignId: number, text: string, extra: Record<string, unknown> = {}): ApiObject => ({
  Id: id, Keyword: text, AdGroupId: groupId, CampaignId: campaignId, Bid: rub(30), ContextBid: rub(5), State: 'ON', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', ...extra,
});

const statsRow = (campaignId: number, groupId: number, adId: number, criterionId: number, impressions: number, clicks: number, cost: number, conversions: number) => ({
  CampaignId: campaignId, AdGroupId: groupId, AdId: adId, CriterionId: criterionId, CriterionType: 'KEYWORD', AdNetworkType: campaignId === 802 ? 'AD_NETWORK' : 'SEARCH', Impressions: impressions, Clicks: clicks, Cost: cost.toFixed(2), Conversions: conversions,
});

const site = (placement: string, impressions: number, clicks: number, cost: number, conversions: number) => ({ CampaignId: 802, AdNetworkType: 'AD_NETWORK', Placement: placement, Impressions: impressions, Clicks: clicks, Cost: cost.toFixed(2), Conversions: conversions });

/** 995 sites the networks campaign already excludes: room for five more under Direct's 1 000. */
export const alreadyExcludedSites = Array.from({ length: 995 }, (_, index) => `excluded-${index + 1}.example`);

/**
 * The defects, by check:
 * - «Окна — Поиск» (search, manual bids), groups using the shared set «Общие минус-слова» and no campaign negatives:
 *   «Окна ПВХ»: keyword «окна пвх пермь» against the set's «пермь»; ad 9102 rejected with Yandex's reason; ad 9101's sitelinks rejected.
 *   «Балконы»: ServingStatus RARELY_SERVED.
 *   «Москитные сетки»: ads 9104 (rejected) and 9105 (draft): no ad serves.
 *   «Подоконники»: keyword «подоконники пвх» rarely served; «подоконники купить» suspended after 4 conversions at 300 ₽;
 *   «откосы для окон» rejected; ad 9106's display link rejected; ad 9107 on moderation with no impression in 30 days.
 * - «Окна — РСЯ» (networks): ad 9201 without an image, ad 9202's image rejected; 995 sites excluded already and
 *   eight sites spending without conversions (only five fit).
 * - «Окна — Акция» (on): its one group's only ad is rejected.
 */
export function oknaDefectsAccount(): FakeDirectAccount {
  return {
    campaigns: [
      { Id: 801, Name: 'Окна — Поиск', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', NegativeKeywords: null, ExcludedSites: null, TextCampaign: manualSearch },
      { Id: 802, Name: 'Окна — РСЯ', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', NegativeKeywords: { Items: ['бесплатно'] }, ExcludedSites: { Items: alreadyExcludedSites }, TextCampaign: networksMaxClicks },
      { Id: 803, Name: 'Окна — Акция', Type: 'TEXT_CAMPAIGN', State: 'ON', Status: 'ACCEPTED', Currency: 'RUB', NegativeKeywords: { Items: ['бесплатно'] }, ExcludedSites: null, TextCampaign: manualSearch },
    ],
    adGroups: [
      { Id: 8101, Name: 'Окна ПВХ', CampaignId: 801, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [50], NegativeKeywordSharedSetIds: { Items: [7101] } },
      { Id: 8102, Name: 'Балконы', CampaignId: 801, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'RARELY_SERVED', RegionIds: [50], NegativeKeywordSharedSetIds: { Items: [7101] } },
      { Id: 8103, Name: 'Москитные сетки', CampaignId: 801, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [50], NegativeKeywordSharedSetIds: { Items: [7101] } },
      { Id: 8104, Name: 'Подоконники', CampaignId: 801, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [50], NegativeKeywordSharedSetIds: { Items: [7101] } },
      { Id: 8201, Name: 'Окна в сетях', CampaignId: 802, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [50] },
      { Id: 8301, Name: 'Акция', CampaignId: 803, Type: 'TEXT_AD_GROUP', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', RegionIds: [50] },
    ],
    ads: [
      textAd(9101, 8101, 801, 'Окна ПВХ в Перми', { sitelinks: { Status: 'REJECTED', StatusClarification: 'Быстрые ссылки отклонены: ссылка «Акции» ведёт на несуществующую страницу.' } }),
      textAd(9102, 8101, 801, 'Лучшие окна в Перми', { status: 'REJECTED', clarification: 'Объявление отклонено: превосходная степень («лучшие») без подтверждения.' }),
      textAd(9103, 8102, 801, 'Остекление балконов'),
      textAd(9104, 8103, 801, 'Москитные сетки', { status: 'REJECTED', clarification: 'Объявление отклонено: текст не соответствует странице.' }),
      textAd(9105, 8103, 801, 'Москитные сетки на окна', { status: 'DRAFT', state: 'OFF' }),
      textAd(9106, 8104, 801, 'Подоконники ПВХ', { displayUrl: { Status: 'REJECTED', StatusClarification: 'Отображаемая ссылка не соответствует сайту.' } }),
      textAd(9107, 8104, 801, 'Подоконники на заказ', { status: 'MODERATION' }),
      textAd(9201, 8201, 802, 'Пластиковые окна', { image: null }),
      textAd(9202, 8201, 802, 'Пластиковые окна с установкой', { imageModeration: { Status: 'REJECTED', StatusClarification: 'Изображение отклонено: на нём мелкий нечитаемый текст.' } }),
      textAd(9301, 8301, 803, 'Окна со скидкой 50 %', { status: 'REJECTED', clarification: 'Объявление отклонено: скидка не подтверждена на сайте.' }),
    ],
    keywords: [
      keyword(10101, 8101, 801, 'окна пвх пермь'),
      keyword(10102, 8101, 801, 'окна пвх'),
      keyword(10103, 8102, 801, 'остекление балконов под ключ'),
      keyword(10104, 8103, 801, 'москитные сетки на окна'),
      keyword(10105, 8104, 801, 'подоконники пвх', { ServingStatus: 'RARELY_SERVED' }),
      keyword(10106, 8104, 801, 'подоконники купить', { State: 'SUSPENDED' }),
      keyword(10107, 8104, 801, 'откосы для окон', { Status: 'REJECTED' }),
      keyword(10108, 8104, 801, 'подоконники на заказ'),
      keyword(10201, 8201, 802, 'пластиковые окна'),
      keyword(10301, 8301, 803, 'окна акция'),
    ],
    negativeKeywordSharedSets: [{ Id: 7101, Name: 'Общие минус-слова', NegativeKeywords: ['бесплатно', 'своими руками', 'пермь'], Associated: 'YES' }],
    sitelinksSets: [{ Id: 5101, Sitelinks: [{ Title: 'Цены', Href: 'https://oknaperm.example/ceny' }, { Title: 'Акции', Href: 'https://oknaperm.example/akcii' }] }],
    adExtensions: [{ Id: 6101, Type: 'CALLOUT', Status: 'ACCEPTED', Callout: { CalloutText: 'Замер бесплатно' } }],
    adImages: [{ AdImageHash: 'imgOkna', Name: 'okna_1080x607.jpg', Type: 'WIDE', Subtype: 'NONE', Associated: 'YES' }],
    reportRows: {
      CUSTOM_REPORT: [
        statsRow(801, 8101, 9101, 10101, 2000, 100, 5000, 10),
        statsRow(801, 8101, 9101, 10102, 1500, 60, 3000, 6),
        statsRow(801, 8102, 9103, 10103, 40, 2, 100, 0),
        statsRow(801, 8104, 9106, 10106, 900, 40, 1200, 4),
        statsRow(801, 8104, 9106, 10108, 700, 30, 900, 3),
        statsRow(802, 8201, 9201, 10201, 60000, 300, 9000, 0),
        statsRow(802, 8201, 9202, 10201, 30000, 100, 3000, 1),
      ],
      SEARCH_QUERY_PERFORMANCE_REPORT: [],
    },
    placementRows: [
      site('games-one.example', 9000, 60, 2600, 0),
      site('games-two.example', 8000, 50, 2400, 0),
      site('dzen-news.example', 7000, 45, 2200, 0),
      site('weather.example', 6000, 40, 2000, 0),
      site('com.puzzle.game', 5000, 35, 1800, 0),
      site('com.solitaire.app', 4000, 30, 1500, 0),
      site('recipes.example', 3000, 25, 1200, 0),
      site('horoscope.example', 2500, 20, 1100, 0),
      // Excluded during the period (its spend is history) and a site that converts: neither is advised.
      site('excluded-1.example', 2000, 20, 1500, 0),
      site('okna-forum.example', 30000, 75, 2600, 1),
      // Search partners' rows are not network sites.
      { CampaignId: 801, AdNetworkType: 'SEARCH', Placement: 'search-partner.example', Impressions: 500, Clicks: 20, Cost: '900.00', Conversions: 0 },
    ],
  };
}

/** The same account with nothing wrong: every ad, part and keyword accepted and served, sites that pay off. */
export function oknaCleanAccount(): FakeDirectAccount {
  const account = oknaDefectsAccount();
  const accepted = { Status: 'ACCEPTED' };
  account.ads = account.ads.map((ad) => {
    const text = ad.TextAd as Record<string, unknown>;
    return {
      ...ad, State: 'ON', Status: 'ACCEPTED', StatusClarification: undefined,
      TextAd: { ...text, AdImageHash: 'imgOkna', SitelinksModeration: accepted, AdImageModeration: accepted, DisplayUrlPathModeration: accepted },
    };
  });
  account.adGroups = account.adGroups.map((group) => ({ ...group, ServingStatus: 'ELIGIBLE' }));
  account.keywords = account.keywords.map((k) => ({ ...k, State: 'ON', Status: 'ACCEPTED', ServingStatus: 'ELIGIBLE', Keyword: k.Keyword === 'окна пвх пермь' ? 'окна пвх на заказ' : k.Keyword }));
  account.campaigns = account.campaigns.map((campaign) => ({ ...campaign, ExcludedSites: { Items: ['excluded-1.example'] } }));
  account.placementRows = [site('okna-forum.example', 30000, 75, 2600, 1), site('excluded-1.example', 2000, 20, 1500, 0), site('small.example', 3000, 10, 300, 0)];
  account.reportRows.CUSTOM_REPORT = account.reportRows.CUSTOM_REPORT!.map((row) => ({ ...row, Conversions: Math.max(Number(row.Conversions), 1) }));
  // Every ad shows in the period (none stuck) and the formerly suspended keyword is on.
  account.reportRows.CUSTOM_REPORT!.push(statsRow(801, 8104, 9107, 10108, 100, 5, 150, 1), statsRow(801, 8103, 9104, 10104, 300, 10, 300, 1), statsRow(801, 8103, 9105, 10104, 300, 10, 300, 1), statsRow(803, 8301, 9301, 10301, 300, 10, 300, 1));
  return account;
}
