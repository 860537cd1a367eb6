/**
 * Facts about the imported data both engines need before judging: is there any statistics, any
 * conversion data, how long is the period (to turn its money into money per month).
 */
import type { AnalysisNotice, AnalysisSettings } from '../../../contract/analysis-results.js';
import type { CampaignData, StatsPeriod } from '../../../contract/campaigns.js';

export interface AccountFacts {
  hasStatistics: boolean;
  /** Any conversion anywhere: without it "0 conversions" means "not measured", not "no sales". */
  hasConversions: boolean;
  period: StatsPeriod | null;
  periodDays: number;
  /** Multiplier from the period's money to money per month. */
  monthFactor: number;
  notices: AnalysisNotice[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function periodDaysOf(period: StatsPeriod | undefined | null): number | null {
  if (!period) return null;
  const from = Date.parse(period.from);
  const to = Date.parse(period.to);
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return null;
  return Math.round((to - from) / DAY_MS) + 1;
}

/**
 * Direct campaigns the import gave no ids for (the campaign's or one of its groups'): the Direct export
 * writes the ids it has, and an upload without them creates new campaigns and groups. Google Ads Editor
 * matches by names, so Google campaigns are not counted.
 */
function campaignsWithoutDirectIds(data: CampaignData): number {
  let count = 0;
  for (const campaign of data.campaigns) {
    if ((campaign.platform ?? data.platform) !== 'yandex_direct') continue;
    if (!campaign.externalId || campaign.groups.some((group) => !group.externalId)) count++;
  }
  return count;
}

export function accountFacts(data: CampaignData, settings: AnalysisSettings): AccountFacts {
  let hasStatistics = false;
  let hasConversions = false;
  const look = (stats: { impressions: number; clicks: number; cost: number; conversions: number } | undefined) => {
    if (!stats) return;
    if (stats.impressions > 0 || stats.clicks > 0 || stats.cost > 0) hasStatistics = true;
    if (stats.conversions > 0) hasConversions = true;
  };
  for (const campaign of data.campaigns) {
    look(campaign.stats);
    for (const site of campaign.sites ?? []) look(site.stats);
    for (const group of campaign.groups) {
      for (const keyword of group.keywords) look(keyword.stats);
      for (const ad of group.ads) look(ad.stats);
    }
  }
  for (const query of data.searchQueries) look(query.stats);

  const notices: AnalysisNotice[] = [];
  const days = periodDaysOf(data.period);
  if (!hasStatistics) {
    notices.push({ code: 'NO_STATISTICS', message: 'В загруженных данных нет статистики: выполнены только проверки структуры, объявлений и ключевых фраз.' });
  } else if (!hasConversions) {
    notices.push({ code: 'NO_CONVERSIONS', message: 'В данных нет конверсий: выводы о расходе без конверсий, действия по фразам и минус-фразы из запросов без конверсий не строятся. Загрузите статистику с целями.' });
  }
  if (hasStatistics && days === null) {
    notices.push({ code: 'NO_PERIOD', message: `Период статистики не указан: суммы в месяц посчитаны так, будто статистика за ${settings.daysPerMonth} дней. Укажите период на предпросмотре, когда загрузите статистику снова.` });
  }
  const withoutIds = campaignsWithoutDirectIds(data);
  if (withoutIds > 0) {
    notices.push({
      code: 'NO_IDS',
      message: `Кампаний без ID Директа: ${withoutIds} из ${data.campaigns.length} (в загруженных файлах не было столбцов «ID кампании», «ID группы»). Директ Коммандер создаст такие кампании из файла изменений заново, а не изменит существующие. Чтобы изменить существующие, загрузите в проект выгрузку из Директа с ID или подключите аккаунт через API и выгрузите изменения снова.`,
    });
  }
  if (hasStatistics && data.searchQueries.length === 0) {
    notices.push({ code: 'NO_SEARCH_QUERIES', message: 'Нет отчёта о поисковых запросах: минус-слова предложены по списку нецелевых тематик, без проверки на ваших запросах.' });
  }
  const periodDays = days ?? settings.daysPerMonth;
  return { hasStatistics, hasConversions, period: data.period ?? null, periodDays, monthFactor: settings.daysPerMonth / periodDays, notices };
}
