/**
 * The registry of checks: every check the scoring engine can fire, with its family, severity, weight
 * (points taken from the entity's 0–100 score) and what it needs to run. Severity: high = money is
 * leaking now, medium = missed potential, low = hygiene.
 *
 * The checks themselves live one family per module in `./checks/`; each finding they produce carries
 * its explanation, fix and the numbers and threshold that fired it.
 */
import type { CheckDescription, EntityRef, Evidence, Finding } from '../../../contract/analysis-results.js';

function check(description: CheckDescription): CheckDescription {
  return description;
}

export const checks = {
  // keyword hygiene
  keywordTooBroad: check({ id: 'keyword.too_broad', family: 'keywords', severity: 'medium', weight: 10, needs: 'pattern', title: 'Слишком широкая фраза', description: 'Однословная фраза в широком соответствии собирает случайные запросы.' }),
  keywordDuplicate: check({ id: 'keyword.duplicate', family: 'keywords', severity: 'low', weight: 5, needs: 'pattern', title: 'Дубль ключевой фразы', description: 'Фразы из одних и тех же слов конкурируют между собой.' }),
  keywordConflictingOperators: check({ id: 'keyword.conflicting_operators', family: 'keywords', severity: 'medium', weight: 12, needs: 'pattern', title: 'Противоречивые операторы', description: 'Минус-слово совпадает со словом самой фразы или операторы записаны с ошибкой: фраза не показывается или показывается не так, как задумано.' }),
  keywordNonCommercial: check({ id: 'keyword.non_commercial', family: 'keywords', severity: 'high', weight: 15, needs: 'pattern', title: 'Нецелевая ключевая фраза', description: 'Слова фразы говорят о некоммерческом интенте (бесплатно, скачать, своими руками, вакансии, реферат, б/у, авито; free, download, jobs, diy): по ней приходят не покупатели.' }),
  keywordGroupIntersection: check({ id: 'keyword.group_intersection', family: 'keywords', severity: 'medium', weight: 6, needs: 'pattern', title: 'Пересечение с фразами других групп', description: 'Широкая фраза перехватывает запросы более точных фраз других групп.' }),
  // ads
  adHeadlineTooLong: check({ id: 'ad.headline_too_long', family: 'ads', severity: 'medium', weight: 15, needs: 'pattern', title: 'Заголовок длиннее лимита', description: 'Заголовок не помещается в лимит площадки: объявление не пройдёт загрузку или будет обрезано.' }),
  adTextTooLong: check({ id: 'ad.text_too_long', family: 'ads', severity: 'medium', weight: 15, needs: 'pattern', title: 'Текст длиннее лимита', description: 'Текст или описание не помещается в лимит площадки.' }),
  adWordTooLong: check({ id: 'ad.word_too_long', family: 'ads', severity: 'medium', weight: 8, needs: 'pattern', title: 'Слишком длинное слово', description: 'В заголовке или тексте есть слово длиннее лимита площадки.' }),
  adDisplayUrlTooLong: check({ id: 'ad.display_url_too_long', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Отображаемая ссылка или путь длиннее лимита', description: 'Отображаемая ссылка (путь) не помещается в лимит.' }),
  adSitelinkTooLong: check({ id: 'ad.sitelink_too_long', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Быстрая ссылка длиннее лимита', description: 'Заголовок или описание быстрой ссылки не помещается в лимит.' }),
  adCalloutTooLong: check({ id: 'ad.callout_too_long', family: 'ads', severity: 'medium', weight: 4, needs: 'pattern', title: 'Уточнение длиннее лимита', description: 'Уточнение длиннее 25 символов.' }),
  adAssetCount: check({ id: 'ad.rsa_asset_count', family: 'ads', severity: 'medium', weight: 10, needs: 'pattern', title: 'Неверное число заголовков или описаний', description: 'Адаптивному объявлению нужны 3–15 заголовков и 2–4 описания.' }),
  adKeywordNotInHeadline: check({ id: 'ad.keyword_not_in_headline', family: 'ads', severity: 'medium', weight: 8, needs: 'pattern', title: 'Ключевой фразы нет в заголовке', description: 'В первом заголовке нет ни одного слова из ключевых фраз группы: объявление менее заметно и релевантно.' }),
  adNoSitelinks: check({ id: 'ad.no_sitelinks', family: 'ads', severity: 'medium', weight: 8, needs: 'pattern', title: 'Нет быстрых ссылок', description: 'Без быстрых ссылок объявление занимает меньше места и получает меньше кликов.' }),
  adNoCallouts: check({ id: 'ad.no_callouts', family: 'ads', severity: 'low', weight: 4, needs: 'pattern', title: 'Нет уточнений', description: 'Уточнения добавляют преимущества в объявление бесплатно.' }),
  adNoDisplayUrl: check({ id: 'ad.no_display_url', family: 'ads', severity: 'low', weight: 3, needs: 'pattern', title: 'Нет отображаемой ссылки', description: 'Отображаемая ссылка (путь) показывает, куда ведёт объявление.' }),
  adNoUtm: check({ id: 'ad.no_utm', family: 'ads', severity: 'medium', weight: 6, needs: 'pattern', title: 'Нет UTM-меток', description: 'Без UTM-меток в ссылке аналитика не видит, какая кампания и фраза привели посетителя.' }),
  adSameTextManyGroups: check({ id: 'ad.same_text_many_groups', family: 'ads', severity: 'low', weight: 4, needs: 'pattern', title: 'Один текст во многих группах', description: 'Одинаковое объявление в разных группах не учитывает их ключевые фразы.' }),
  groupLowRelevance: check({ id: 'group.low_relevance', family: 'ads', severity: 'medium', weight: 8, needs: 'pattern', title: 'Объявления не соответствуют фразам группы', description: 'В заголовках и текстах мало слов из ключевых фраз группы.' }),
  // campaign settings
  campaignNoNegatives: check({ id: 'campaign.no_negatives', family: 'campaign', severity: 'medium', weight: 10, needs: 'pattern', title: 'Нет минус-слов на кампанию', description: 'Кампания без общего списка минус-слов показывается по нецелевым запросам; в находке — её широкие фразы, у которых нет минус-слов ни на одном уровне.' }),
  groupCatchAll: check({ id: 'group.catch_all', family: 'campaign', severity: 'medium', weight: 8, needs: 'pattern', title: 'Группа «обо всём»', description: 'В группе фразы трёх и более несвязанных тем (без общих слов): одно объявление не может ответить на все.' }),
  campaignSingleGroup: check({ id: 'campaign.single_group', family: 'campaign', severity: 'medium', weight: 10, needs: 'pattern', title: 'Одна группа на всё', description: 'Все фразы в одной группе: одно объявление на разные запросы.' }),
  // campaign settings read through the Direct API (checks/settings-*.ts)
  settingsManualWithConversions: check({ id: 'settings.manual_with_conversions', family: 'campaign', severity: 'medium', weight: 8, needs: 'conversions', title: 'Ручные ставки при отслеживаемых конверсиях', description: 'Кампания на ручном управлении ставками набрала достаточно конверсий, чтобы Директ назначал ставки сам под цену конверсии.' }),
  settingsMaxClicksWithConversions: check({ id: 'settings.max_clicks_with_conversions', family: 'campaign', severity: 'medium', weight: 8, needs: 'conversions', title: '«Максимум кликов» при отслеживаемых конверсиях', description: 'Стратегия покупает клики, хотя у кампании есть конверсии, на которые можно оптимизировать показы.' }),
  settingsStrategyCpaOverTarget: check({ id: 'settings.strategy_cpa_over_target', family: 'campaign', severity: 'high', weight: 15, needs: 'conversions', title: 'Стратегия не держит цену конверсии', description: 'Фактическая цена конверсии заметно выше средней цены конверсии, заданной в стратегии.' }),
  settingsWeeklyBudgetLow: check({ id: 'settings.weekly_budget_low', family: 'campaign', severity: 'medium', weight: 10, needs: 'pattern', title: 'Недельного бюджета мало для стратегии', description: 'Недельный бюджет конверсионной стратегии меньше десяти цен конверсии: стратегии не хватает конверсий, чтобы обучиться.' }),
  settingsConversionStrategyNoGoal: check({ id: 'settings.conversion_strategy_no_goal', family: 'campaign', severity: 'high', weight: 12, needs: 'pattern', title: 'Конверсионная стратегия без цели', description: 'Стратегия оптимизирует конверсии, но цель Метрики в ней не указана.' }),
  settingsConversionStrategyNoConversions: check({ id: 'settings.conversion_strategy_no_conversions', family: 'campaign', severity: 'high', weight: 12, needs: 'statistics', title: 'Конверсионная стратегия без конверсий', description: 'Кампания на конверсионной стратегии получила много кликов и ни одной конверсии: цель не срабатывает или выбрана неверно.' }),
  settingsDailyBudgetLimited: check({ id: 'settings.daily_budget_limited', family: 'campaign', severity: 'medium', weight: 10, needs: 'statistics', title: 'Дневной бюджет останавливает показы', description: 'По дневной статистике бюджет кампании заканчивается в значительной доле дней: объявления не показываются до конца дня.' }),
  settingsSearchNetworksMixed: check({ id: 'settings.search_networks_mixed', family: 'campaign', severity: 'medium', weight: 10, needs: 'pattern', title: 'Поиск и сети в одной кампании', description: 'Кампания показывается и на поиске, и в сетях: у них разные аудитории, цены и объявления, а стратегия одна.' }),
  settingsScheduleOffConvertingDays: check({ id: 'settings.schedule_off_converting_days', family: 'campaign', severity: 'medium', weight: 8, needs: 'conversions', title: 'Расписание выключено в дни с конверсиями', description: 'Кампания не показывается в дни недели, на которые приходится заметная доля конверсий аккаунта.' }),
  settingsScheduleWeekendOff: check({ id: 'settings.schedule_weekend_off', family: 'campaign', severity: 'low', weight: 4, needs: 'pattern', title: 'Показы выключены на все выходные', description: 'Расписание кампании выключает показы и в субботу, и в воскресенье.' }),
  settingsGeoOutsideHome: check({ id: 'settings.geo_outside_home', family: 'campaign', severity: 'medium', weight: 8, needs: 'pattern', title: 'Группа показывается вне региона проекта', description: 'Регионы показа группы выходят за регион проекта.' }),
  settingsGeoCompetingGroups: check({ id: 'settings.geo_competing_groups', family: 'campaign', severity: 'medium', weight: 6, needs: 'pattern', title: 'Группы кампании спорят за регион', description: 'Группы одной кампании с одинаковыми фразами показываются в пересекающихся регионах: широкая группа перехватывает показы региональной.' }),
  settingsMobileOff: check({ id: 'settings.mobile_off', family: 'campaign', severity: 'medium', weight: 10, needs: 'pattern', title: 'Мобильные показы выключены', description: 'Корректировка −100 % на мобильные выключает показы на смартфонах.' }),
  settingsBidAdjustmentExtreme: check({ id: 'settings.bid_adjustment_extreme', family: 'campaign', severity: 'medium', weight: 6, needs: 'pattern', title: 'Крайняя корректировка ставок', description: 'Корректировка выше +500 % или от −90 % (кроме −100 %): клик этой аудитории стоит в разы дороже или показы почти выключены.' }),
  settingsBidAdjustmentNoEffect: check({ id: 'settings.bid_adjustment_no_effect', family: 'campaign', severity: 'low', weight: 3, needs: 'pattern', title: 'Корректировка, которая не действует', description: 'Региональная корректировка на регион, где ни одна группа кампании не показывается.' }),
  settingsCampaignEnded: check({ id: 'settings.campaign_ended', family: 'campaign', severity: 'medium', weight: 8, needs: 'pattern', title: 'Кампания завершилась', description: 'Дата окончания кампании прошла, хотя её фразы и объявления готовы к показу.' }),
  settingsCampaignStoppedConverting: check({ id: 'settings.campaign_stopped_converting', family: 'campaign', severity: 'medium', weight: 8, needs: 'conversions', title: 'Остановлена кампания с конверсиями', description: 'Кампания остановлена, хотя её фразы приняты модерацией, а за период она приносила конверсии не дороже ориентира.' }),
  settingsAutotargetingWaste: check({ id: 'settings.autotargeting_waste', family: 'campaign', severity: 'high', weight: 12, needs: 'conversions', title: 'Автотаргетинг тратит без отдачи', description: 'Автотаргетинг группы потратил не меньше двух цен конверсии без конверсий или приводит конверсии заметно дороже ориентира.' }),
  settingsAutotargetingAllCategories: check({ id: 'settings.autotargeting_all_categories', family: 'campaign', severity: 'medium', weight: 6, needs: 'pattern', title: 'Автотаргетинг на всех категориях', description: 'В автотаргетинге включены все категории запросов, и широкие, и с конкурентами: показы по запросам, далёким от фраз группы.' }),
  // statistics
  campaignWastedSpend: check({ id: 'stats.wasted_spend', family: 'statistics', severity: 'high', weight: 25, needs: 'conversions', title: 'Расход без конверсий', description: 'Кампания тратит деньги и не приносит конверсий.' }),
  keywordStop: check({ id: 'keyword.action_stop', family: 'statistics', severity: 'high', weight: 25, needs: 'conversions', title: 'Остановить фразу', description: 'Фраза потратила не меньше двух CPA-ориентиров (цель проекта или CPA аккаунта на той же площадке) и не принесла ни одной конверсии. Работает на поиске и в сетях.' }),
  keywordLowerBid: check({ id: 'keyword.action_lower_bid', family: 'statistics', severity: 'high', weight: 15, needs: 'conversions', title: 'Снизить ставку', description: 'Конверсия по фразе дороже ориентира (цель проекта или CPA аккаунта на той же площадке) в 1,5 раза и больше.' }),
  keywordRaiseBid: check({ id: 'keyword.action_raise_bid', family: 'statistics', severity: 'medium', weight: 3, needs: 'conversions', title: 'Повысить ставку', description: 'Конверсия по фразе заметно дешевле ориентира (цель проекта или CPA аккаунта на той же площадке; по умолчанию на 20 % и больше): можно получить больше конверсий.' }),
  lowCtr: check({ id: 'stats.low_ctr', family: 'statistics', severity: 'medium', weight: 8, needs: 'statistics', title: 'Низкий CTR на поиске', description: 'Коммерческая фраза на поиске кликается редко: объявление не отвечает на запрос. Только поисковый трафик: в сетях CTR живёт в другом масштабе.' }),
  networkCtrSuspicious: check({ id: 'stats.network_ctr_suspicious', family: 'statistics', severity: 'medium', weight: 8, needs: 'statistics', title: 'Подозрительно высокий CTR в сетях', description: 'CTR в сетях от 2 % — признак случайных кликов (мобильные приложения, игры), а не хорошей рекламы.' }),
  networkSites: check({ id: 'stats.network_sites', family: 'statistics', severity: 'medium', weight: 8, needs: 'statistics', title: 'Площадки в сетях без отдачи', description: 'Сайты и приложения из отчёта по площадкам, где кампания потратила не меньше двух CPA-ориентиров без конверсий или получила подозрительно высокий CTR: их стоит исключить.' }),
  expensiveClicks: check({ id: 'stats.expensive_clicks', family: 'statistics', severity: 'medium', weight: 8, needs: 'statistics', title: 'Дорогие клики', description: 'Цена клика намного выше медианы аккаунта на той же площадке (поиск или сети).' }),
  // moderation and serving (issue 22: what the Direct API says of ads, groups and keywords; checks/moderation.ts, checks/serving.ts)
  adRejected: check({ id: 'ad.moderation_rejected', family: 'ads', severity: 'medium', weight: 10, needs: 'pattern', title: 'Объявление отклонено модерацией', description: 'Яндекс не пропустил объявление: оно не показывается. В находке — причина, которую назвал Яндекс.' }),
  adSitelinksRejected: check({ id: 'ad.sitelinks_rejected', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Быстрые ссылки отклонены', description: 'Модерация отклонила быстрые ссылки: объявление показывается без них.' }),
  adImageRejected: check({ id: 'ad.image_rejected', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Изображение отклонено', description: 'Модерация отклонила изображение: в сетях объявление показывается без картинки или не показывается.' }),
  adDisplayUrlRejected: check({ id: 'ad.display_url_rejected', family: 'ads', severity: 'low', weight: 2, needs: 'pattern', title: 'Отображаемая ссылка отклонена', description: 'Модерация отклонила отображаемую ссылку: объявление показывается без неё.' }),
  adModerationStuck: check({ id: 'ad.moderation_stuck', family: 'ads', severity: 'medium', weight: 6, needs: 'statistics', title: 'Объявление застряло на модерации', description: 'Объявление на модерации и за весь период статистики (не меньше заданного числа дней) не получило ни одного показа.' }),
  adDraftNotSent: check({ id: 'ad.draft_not_sent', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Черновик не отправлен на модерацию', description: 'Объявление в работающей кампании так и осталось черновиком: Яндекс его не проверяет и не показывает.' }),
  adNoImageNetworks: check({ id: 'ad.no_image_networks', family: 'ads', severity: 'medium', weight: 5, needs: 'pattern', title: 'Нет изображения для сетей', description: 'Текстовое объявление кампании, которая показывается в сетях, без изображения: в РСЯ оно проигрывает объявлениям с картинкой и не попадает в графические блоки.' }),
  groupNoActiveAds: check({ id: 'group.no_active_ads', family: 'ads', severity: 'high', weight: 20, needs: 'pattern', title: 'В группе нет ни одного работающего объявления', description: 'Все объявления группы отклонены, остановлены или черновики: её фразы не показываются.' }),
  campaignNoActiveGroups: check({ id: 'campaign.no_active_groups', family: 'campaign', severity: 'high', weight: 25, needs: 'pattern', title: 'Кампания включена, но ничего не показывает', description: 'Кампания включена, но ни в одной её группе нет работающего объявления с работающими фразами.' }),
  groupRarelyServed: check({ id: 'group.rarely_served', family: 'campaign', severity: 'medium', weight: 8, needs: 'pattern', title: 'Группа с «мало показов»', description: 'Директ пометил группу «Мало показов» (ServingStatus RARELY_SERVED): у её фраз слишком маленький спрос, и группа почти не показывается.' }),
  keywordRarelyServed: check({ id: 'keyword.rarely_served', family: 'keywords', severity: 'low', weight: 3, needs: 'pattern', title: 'Фраза с «мало показов»', description: 'Директ пометил фразу «Мало показов»: по ней почти нет запросов.' }),
  keywordRejected: check({ id: 'keyword.rejected', family: 'keywords', severity: 'medium', weight: 5, needs: 'pattern', title: 'Фраза отклонена модерацией', description: 'Яндекс не пропустил фразу: она не показывается.' }),
  keywordSuspendedConverting: check({ id: 'keyword.suspended_converting', family: 'statistics', severity: 'medium', weight: 8, needs: 'conversions', title: 'Остановлена фраза, которая приносила конверсии', description: 'Фраза остановлена, хотя за период принесла конверсии не дороже ориентира (цель проекта или CPA аккаунта).' }),
  // shared negative sets and network placements (checks/shared-negatives.ts, checks/placements.ts)
  sharedSetConflict: check({ id: 'negatives.shared_set_conflict', family: 'keywords', severity: 'medium', weight: 10, needs: 'pattern', title: 'Набор минус-фраз противоречит фразе', description: 'Слово общего набора минус-фраз группы входит в её собственную ключевую фразу: набор и фраза говорят противоположное.' }),
  excludedSitesLimit: check({ id: 'placement.excluded_sites_limit', family: 'statistics', severity: 'medium', weight: 6, needs: 'statistics', title: 'Список запрещённых площадок не вмещает новые', description: 'Площадки без отдачи не помещаются в «Запрещённые площадки»: в Директе их не больше 1 000 на кампанию.' }),
} satisfies Record<string, CheckDescription>;

export const checkRegistry: CheckDescription[] = Object.values(checks);

export interface FindingInput {
  explanation: string;
  fix: string;
  evidence: Evidence[];
  money?: number;
  monthFactor?: number;
  period?: Finding['period'];
  suggestionIds?: string[];
  /** Distinguishes several findings of one check on one entity (e.g. the field). */
  suffix?: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function makeFinding(definition: CheckDescription, target: EntityRef, input: FindingInput): Finding {
  const finding: Finding = {
    id: `${definition.id}:${target.key}${input.suffix ? `:${input.suffix}` : ''}`,
    checkId: definition.id,
    family: definition.family,
    severity: definition.severity,
    weight: definition.weight,
    title: definition.title,
    explanation: input.explanation,
    fix: input.fix,
    target,
    evidence: input.evidence,
  };
  if (input.period) finding.period = input.period;
  if (input.money !== undefined) {
    finding.money = round2(input.money);
    finding.moneyPerMonth = round2(input.money * (input.monthFactor ?? 1));
  }
  if (input.suggestionIds?.length) finding.suggestionIds = input.suggestionIds;
  return finding;
}
