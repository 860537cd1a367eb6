/**
 * Moderation, serving status, shared negative sets and network sites (issue 22, items 3–4): a Direct
 * account read through the fake Direct API (moderation with Yandex's reasons, serving status, the shared
 * sets, `ExcludedSites`, the Reports `Placement` rows, after 201/202), then audited. Each check: its
 * finding with the exact wording and money; the clean twin of the account: none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, ScoringResult } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { createDirectClient } from '../../../server/direct/api/client.js';
import { fetchAccount, PLACEMENT_REPORT_FIELDS } from '../../../server/direct/api/fetch-account.js';
import { alreadyExcludedSites, oknaCleanAccount, oknaDefectsAccount } from '../../fakes/direct-moderation-accounts.js';
import { startFakeDirect, type FakeDirect } from '../../fakes/yandex-direct-fake.js';
import { analyse } from './helpers.js';

const period = { from: '2024-05-01', to: '2024-05-30' };
const NEW_CHECKS = [
  'ad.moderation_rejected', 'ad.sitelinks_rejected', 'ad.image_rejected', 'ad.display_url_rejected', 'ad.moderation_stuck', 'ad.draft_not_sent', 'ad.no_image_networks',
  'group.no_active_ads', 'campaign.no_active_groups', 'group.rarely_served', 'keyword.rarely_served', 'keyword.rejected', 'keyword.suspended_converting',
  'negatives.shared_set_conflict', 'placement.excluded_sites_limit',
];

let defects: FakeDirect;
let clean: FakeDirect;
let defectsData: CampaignData;
let defectsResult: ScoringResult;
let cleanResult: ScoringResult;

const read = (fake: FakeDirect) => fetchAccount(createDirectClient({ token: 't', baseUrl: fake.url, sleep: async () => undefined }), { statsPeriod: period, warnings: [] });

beforeAll(async () => {
  // The custom reports are queued (201, then 202) before they are ready, as Yandex does.
  defects = await startFakeDirect(oknaDefectsAccount(), { token: 't', reportProgress: { CUSTOM_REPORT: [201, 202] } });
  clean = await startFakeDirect(oknaCleanAccount(), { token: 't' });
  defectsData = await read(defects);
  defectsResult = (await analyse(defectsData, { targetCpa: 500 })).scoring;
  cleanResult = (await analyse(await read(clean), { targetCpa: 500 })).scoring;
});
afterAll(async () => {
  await defects.close();
  await clean.close();
});

const plain = (text: string | undefined) => (text ?? '').replace(/\s/g, ' ');
function only(checkId: string): Finding {
  const found = defectsResult.findings.filter((finding) => finding.checkId === checkId);
  expect(found, checkId).toHaveLength(1);
  return found[0]!;
}
const about = (checkId: string) => defectsResult.findings.filter((finding) => finding.checkId === checkId).map((finding) => finding.target.label ?? finding.target.groupName);

describe('reading moderation, serving status and network sites through the API', () => {
  it('keeps the ads\' and their parts\' moderation with Yandex\'s reasons, the keywords\' status, the excluded sites and the network sites', () => {
    const search = defectsData.campaigns[0]!;
    const ad = (id: string) => defectsData.campaigns.flatMap((c) => c.groups.flatMap((g) => g.ads)).find((a) => a.externalId === id)!;
    expect(ad('9102').moderation).toEqual({ status: 'rejected', clarification: 'Объявление отклонено: превосходная степень («лучшие») без подтверждения.' });
    expect(ad('9101').sitelinksModeration).toEqual({ status: 'rejected', clarification: 'Быстрые ссылки отклонены: ссылка «Акции» ведёт на несуществующую страницу.' });
    expect(ad('9202').imageModeration).toEqual({ status: 'rejected', clarification: 'Изображение отклонено: на нём мелкий нечитаемый текст.' });
    expect(ad('9106').displayUrlModeration).toEqual({ status: 'rejected', clarification: 'Отображаемая ссылка не соответствует сайту.' });
    expect(ad('9105').moderation).toEqual({ status: 'draft' });
    const keywords = search.groups.flatMap((g) => g.keywords);
    expect(keywords.find((k) => k.phrase === 'откосы для окон')!.moderation).toEqual({ status: 'rejected' });
    expect(keywords.find((k) => k.phrase === 'подоконники пвх')!.servingStatus).toBe('rarely_served');
    expect(search.groups[1]!.servingStatus).toBe('rarely_served');
    expect(search.excludedSites).toEqual([]);
    expect(defectsData.campaigns[1]!.excludedSites).toEqual(alreadyExcludedSites);
    // Network rows only, summed per campaign and site, dearest first; the search partner's row is left out.
    expect(search.sites).toBeUndefined();
    expect(defectsData.campaigns[1]!.sites!.slice(0, 2)).toEqual([
      { site: 'games-one.example', stats: { impressions: 9000, clicks: 60, cost: 2600, conversions: 0 } },
      { site: 'okna-forum.example', stats: { impressions: 30000, clicks: 75, cost: 2600, conversions: 1 } },
    ]);
  });

  it('asks Reports for the sites as a CUSTOM_REPORT of campaign × placement, network rows only', () => {
    const placements = defects.requests.filter((r) => r.service === 'reports' && r.body.params.FieldNames.includes('Placement')).map((r) => r.body.params);
    expect(placements.length).toBeGreaterThanOrEqual(3); // 201, 202, then 200
    expect(placements[0]).toMatchObject({
      ReportType: 'CUSTOM_REPORT',
      FieldNames: PLACEMENT_REPORT_FIELDS,
      SelectionCriteria: { DateFrom: '2024-05-01', DateTo: '2024-05-30', Filter: [{ Field: 'AdNetworkType', Operator: 'EQUALS', Values: ['AD_NETWORK'] }] },
    });
    const ads = defects.requests.find((r) => r.service === 'ads')!.body.params;
    expect(ads.TextAdFieldNames).toEqual(expect.arrayContaining(['SitelinksModeration', 'AdImageModeration', 'DisplayUrlPathModeration']));
    expect(defects.requests.find((r) => r.service === 'campaigns')!.body.params.FieldNames).toContain('ExcludedSites');
  });
});

describe('moderation checks', () => {
  it('a rejected ad, with Yandex\'s reason; «no other ad» where the group has none', () => {
    expect(about('ad.moderation_rejected')).toEqual(['Лучшие окна в Перми', 'Москитные сетки', 'Окна со скидкой 50 %']);
    const [best, nets] = defectsResult.findings.filter((f) => f.checkId === 'ad.moderation_rejected');
    expect(plain(best!.explanation)).toBe(
      'Объявление «Лучшие окна в Перми» (группа «Окна ПВХ») отклонено модерацией и не показывается. Причина, которую назвал Яндекс: «Объявление отклонено: превосходная степень («лучшие») без подтверждения.».',
    );
    expect(plain(nets!.explanation)).toBe(
      'Объявление «Москитные сетки» (группа «Москитные сетки») отклонено модерацией и не показывается. Причина, которую назвал Яндекс: «Объявление отклонено: текст не соответствует странице.». Других работающих объявлений в группе нет.',
    );
    expect(best!.fix).toBe('Исправьте в объявлении то, что назвал Яндекс, и сохраните его: оно снова уйдёт на модерацию. Если причина кажется ошибкой — оспорьте решение из интерфейса Директа.');
    expect(best!.money).toBeUndefined();
  });

  it('rejected sitelinks, image and display link, each with its reason', () => {
    expect(plain(only('ad.sitelinks_rejected').explanation)).toBe(
      'Быстрые ссылки: объявление «Окна ПВХ в Перми» (группа «Окна ПВХ») показывается без них — модерация их отклонила. Причина, которую назвал Яндекс: «Быстрые ссылки отклонены: ссылка «Акции» ведёт на несуществующую страницу.».',
    );
    expect(plain(only('ad.image_rejected').explanation)).toBe(
      'Объявление «Пластиковые окна с установкой» (группа «Окна в сетях»): изображение «okna_1080x607.jpg» отклонено модерацией. Причина, которую назвал Яндекс: «Изображение отклонено: на нём мелкий нечитаемый текст.».',
    );
    expect(plain(only('ad.display_url_rejected').explanation)).toBe(
      'Объявление «Подоконники ПВХ» (группа «Подоконники»): отображаемая ссылка «okna» отклонена модерацией. Причина, которую назвал Яндекс: «Отображаемая ссылка не соответствует сайту.».',
    );
  });

  it('stuck on moderation (no impression over 30 days ≥ 3) and a draft never sent', () => {
    const stuck = only('ad.moderation_stuck');
    expect(plain(stuck.explanation)).toBe(
      'Объявление «Подоконники на заказ» (группа «Подоконники») на модерации и за 30 дн. статистики не получило ни одного показа. Обычно модерация занимает от нескольких часов до трёх дней.',
    );
    expect(stuck.evidence).toContainEqual({ label: 'Дней статистики', value: 30, threshold: 3, setting: 'moderationStuckDays', unit: 'count' });
    expect(plain(only('ad.draft_not_sent').explanation)).toBe(
      'Объявление «Москитные сетки на окна» (группа «Москитные сетки») — черновик в работающей кампании: его не отправили на модерацию, и оно не показывается.',
    );
  });

  it('the threshold of «stuck» is a setting: a 30-day period under a 31-day threshold says nothing', async () => {
    const { scoring } = await analyse(defectsData, { targetCpa: 500, moderationStuckDays: 31 });
    expect(scoring.findings.some((f) => f.checkId === 'ad.moderation_stuck')).toBe(false);
  });

  it('a group with no ad that serves, and a campaign that is on but shows nothing (one finding there, not per group)', () => {
    const group = only('group.no_active_ads');
    expect(plain(group.explanation)).toBe('В группе «Москитные сетки» кампании «Окна — Поиск» нет ни одного работающего объявления (1 отклонено модерацией, 1 черновик): её фразы (1) не показываются.');
    expect(group.severity).toBe('high');
    const campaign = only('campaign.no_active_groups');
    expect(plain(campaign.explanation)).toBe(
      'Кампания «Окна — Акция» включена, но ни в одной из её 1 группы нет работающего объявления с работающими фразами: она ничего не показывает. Отклонено модерацией: 1 объявление.',
    );
    expect(campaign.target.label).toBe('Окна — Акция');
  });

  it('a text ad without an image in a campaign that shows in the networks', () => {
    const finding = only('ad.no_image_networks');
    expect(finding.target.label).toBe('Пластиковые окна');
    expect(plain(finding.explanation)).toBe(
      'Объявление «Пластиковые окна» (группа «Окна в сетях») без изображения, а кампания «Окна — РСЯ» показывается в сетях: там объявление без картинки выглядит бледнее и не попадает в графические блоки.',
    );
  });
});

describe('serving checks', () => {
  it('a rarely served group; a rarely served keyword of an eligible group; a rejected keyword', () => {
    expect(plain(only('group.rarely_served').explanation)).toBe('Директ пометил группу «Балконы» статусом «Мало показов»: по её фразам (1) слишком мало запросов, и группа почти не показывается.');
    expect(plain(only('keyword.rarely_served').explanation)).toBe('Директ пометил фразу «подоконники пвх» статусом «Мало показов»: по ней почти нет запросов.');
    expect(plain(only('keyword.rejected').explanation)).toBe('Фраза «откосы для окон» (группа «Подоконники») отклонена модерацией и не показывается.');
  });

  it('a stopped keyword that brought conversions under the target CPA', () => {
    const finding = only('keyword.suspended_converting');
    expect(plain(finding.explanation)).toBe(
      'Фраза «подоконники купить» (группа «Подоконники») остановлена, хотя за 30 дн. принесла 4 конверсии по 300 ₽ — не дороже ориентира 500 ₽ (цель проекта). Это около 4 конверсий в месяц, которых теперь нет.',
    );
    expect(finding.evidence).toEqual([
      { label: 'Конверсии за период', value: 4, threshold: 2, setting: 'suspendedKeywordMinConversions', unit: 'conversions' },
      { label: 'Цена конверсии', value: 300, threshold: 500, unit: 'rub' },
    ]);
  });
});

describe('shared negative sets', () => {
  it('the set\'s «пермь» against the group\'s own keyword «окна пвх пермь», and no «Нет минус-слов на кампанию» where the groups use the set', () => {
    const finding = only('negatives.shared_set_conflict');
    expect(finding.target.label).toBe('окна пвх пермь');
    expect(plain(finding.explanation)).toBe(
      'Минус-фраза «пермь» из набора «Общие минус-слова» входит в саму фразу «окна пвх пермь» (группа «Окна ПВХ»). Директ не применяет к фразе минус-фразу, которая целиком в неё входит: фраза показывается по запросам с «пермь», а остальные фразы группы по таким запросам не показываются — набор и фраза говорят противоположное.',
    );
    expect(finding.fix).toBe('Решите, нужны ли запросы с «пермь»: если нет — остановите фразу «окна пвх пермь»; если нужны — уберите «пермь» из набора «Общие минус-слова» или отключите набор у этой группы.');
    // «Окна — Поиск» has no campaign negatives, but every group of it uses the set.
    expect(defectsData.campaigns[0]!.negativeKeywords).toEqual([]);
    expect(defectsResult.findings.filter((f) => f.checkId === 'campaign.no_negatives')).toEqual([]);
  });
});

describe('network sites', () => {
  it('sites spending without conversions: the list to exclude keeps within the 1 000 sites, and what does not fit is priced', () => {
    const sites = only('stats.network_sites');
    expect(sites.fix).toBe('Добавьте в «Запрещённые площадки и сети» кампании (5): games-one.example, games-two.example, dzen-news.example, weather.example, com.puzzle.game.');
    expect(plain(sites.explanation)).toBe(
      'В сетях кампания «Окна — РСЯ» показывалась на площадках без отдачи: «games-one.example» (2 600 ₽ без конверсий), «games-two.example» (2 400 ₽ без конверсий), «dzen-news.example» (2 200 ₽ без конверсий), «weather.example» (2 000 ₽ без конверсий), «com.puzzle.game» (1 800 ₽ без конверсий) и ещё 3. Вместе 14 800 ₽ в месяц.',
    );
    expect(sites.evidence).toContainEqual({ label: 'Уже запрещено площадок', value: 995, threshold: 1000, unit: 'count' });

    const limit = only('placement.excluded_sites_limit');
    expect(plain(limit.explanation)).toBe(
      'В «Запрещённых площадках» кампании «Окна — РСЯ» уже 995 из 1 000: из 8 площадок без отдачи помещается 5. Остальные 3 («com.solitaire.app», «recipes.example», «horoscope.example») продолжают тратить: 3 800 ₽ за период.',
    );
    expect(limit.fix).toBe(
      'Освободите место: уберите из списка площадки, которые больше не нужны (закрытые сайты, площадки с копеечным расходом в прошлом), и добавьте оставшиеся: com.solitaire.app, recipes.example, horoscope.example.',
    );
    expect(limit.money).toBe(3800);
    expect(limit.moneyPerMonth).toBe(3800);
    // Both lists are offered as files (CSV through the server's writer: `;`, a BOM, CRLF).
    const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    expect({ ...sites.file!, csv: spaced(sites.file!.csv) }).toEqual({
      name: 'excluded-sites-802.csv',
      label: 'Скачать список площадок (CSV)',
      csv:
        '\uFEFFПлощадка;Расход за период, ₽;Причина\r\n' +
        ['games-one.example;2600;2 600 ₽ без конверсий', 'games-two.example;2400;2 400 ₽ без конверсий', 'dzen-news.example;2200;2 200 ₽ без конверсий', 'weather.example;2000;2 000 ₽ без конверсий', 'com.puzzle.game;1800;1 800 ₽ без конверсий']
          .map((line) => `${line}\r\n`)
          .join(''),
    });
    expect(limit.file!.name).toBe('excluded-sites-802.csv');
    expect(limit.file!.label).toBe('Скачать площадки, которые не поместились (CSV)');
    expect(limit.file!.csv.split('\r\n').slice(1, -1).map((line) => line.split(';')[0])).toEqual(['com.solitaire.app', 'recipes.example', 'horoscope.example']);
  });
});

describe('a clean account', () => {
  it('gets none of these findings', () => {
    const fired = cleanResult.findings.filter((f) => NEW_CHECKS.includes(f.checkId) || f.checkId === 'stats.network_sites' || f.checkId === 'campaign.no_negatives');
    expect(fired.map((f) => `${f.checkId}: ${f.explanation}`)).toEqual([]);
  });

  it('every one of the new checks fired on the defective account', () => {
    expect(NEW_CHECKS.filter((id) => !defectsResult.findings.some((f) => f.checkId === id))).toEqual([]);
  });
});
