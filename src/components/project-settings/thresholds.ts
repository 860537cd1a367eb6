/**
 * The analysis thresholds as a person types them (text inputs, shares in percent) and back to the
 * `ProjectSettings` the API takes. Shared by the analysis start form and the project settings form,
 * so both show the same fields, the same defaults and the same Russian messages as the API.
 */
import * as v from 'valibot';
import { projectSettingsMessages as m } from '@contract/messages.js';
import { defaultProjectSettings, type ProjectSettings } from '@contract/projects.js';

export type NumericSetting = Exclude<keyof ProjectSettings, 'competitors'>;

export interface ThresholdField {
  key: NumericSetting;
  label: string;
  hint: string;
  /** count: a whole number; share: a share in the API, a percent on screen; multiple: a factor above zero. */
  kind: 'count' | 'share' | 'multiple';
  /** Smallest whole number allowed (counts). */
  min?: number;
}

/** The evidence rules a marketer tunes most often, shown at once. */
export const mainThresholds: ThresholdField[] = [
  { key: 'min_clicks_for_negative', kind: 'count', label: 'Минимум кликов для минус-слова', hint: 'Запрос с меньшим числом кликов не минусуется: сначала собрать данные.' },
  { key: 'min_clicks_for_keyword_action', kind: 'count', label: 'Минимум кликов для решения по фразе', hint: 'Меньше кликов — «собрать данные», без изменения ставки.' },
  { key: 'low_search_ctr', kind: 'share', label: 'Низкий CTR на поиске, %', hint: 'CTR коммерческих запросов ниже этого значения считается низким.' },
  { key: 'suspicious_network_ctr', kind: 'share', label: 'Подозрительный CTR в сетях, %', hint: 'CTR в сетях от этого значения — признак случайных кликов.' },
  { key: 'stop_cost_cpa_multiple', kind: 'multiple', label: 'Остановить фразу при расходе, × CPA', hint: 'Фраза без конверсий останавливается, когда расход достиг стольких CPA.' },
  { key: 'lower_bid_cpa_multiple', kind: 'multiple', label: 'Снизить ставку при CPA, × цели', hint: 'Ставка снижается, когда цена конверсии во столько раз выше ориентира: целевой цены конверсии или CPA аккаунта на той же площадке.' },
  { key: 'bid_change_min_difference', kind: 'share', label: 'Менять ставку при разнице CPA от, %', hint: 'Повысить или снизить ставку советуем, только когда цена конверсии фразы отличается от опорной (цель или CPA аккаунта) хотя бы на столько.' },
];

/** Every other threshold the checks compare with, folded away. */
export const moreThresholds: ThresholdField[] = [
  { key: 'min_impressions_for_ctr', kind: 'count', label: 'Минимум показов для оценки CTR', hint: 'При меньшем числе показов CTR не оценивается.' },
  { key: 'ctr_below_median_ratio', kind: 'share', label: 'Низкий CTR относительно медианы аккаунта, %', hint: 'CTR фразы ниже этой доли медианного CTR аккаунта тоже считается низким.' },
  { key: 'expensive_cpc_median_multiple', kind: 'multiple', label: 'Дорогой клик, × медианы аккаунта', hint: 'Цена клика от стольких медиан аккаунта на той же площадке (поиск или сети) считается дорогой.' },
  { key: 'same_ad_text_groups', kind: 'count', min: 2, label: 'Один текст объявления в группах, от', hint: 'Одинаковое объявление в стольких группах и больше — замечание.' },
  { key: 'single_group_min_keywords', kind: 'count', min: 1, label: 'Фраз в единственной группе кампании, от', hint: 'Кампания с одной группой на столько фраз — «одна группа на всё».' },
  { key: 'min_group_relevance', kind: 'share', label: 'Минимальная релевантность объявлений группы, %', hint: 'Доля слов ключевых фраз, которые должны быть в объявлениях группы.' },
  { key: 'moderation_stuck_days', kind: 'count', min: 1, label: 'Застряло на модерации: дней без показов, от', hint: 'Объявление на модерации, у которого за столько дней статистики нет ни одного показа, — «застряло на модерации».' },
  { key: 'suspended_keyword_min_conversions', kind: 'count', min: 1, label: 'Остановленная фраза с конверсиями, от', hint: 'Остановленная фраза, которая принесла столько конверсий не дороже ориентира, — замечание «Остановлена фраза, которая приносила конверсии».' },
  // Campaign settings read through the Direct API.
  { key: 'conversion_strategy_min_conversions', kind: 'count', min: 1, label: 'Конверсий для перехода на конверсионную стратегию, от', hint: 'Кампания на ручных ставках или «Максимуме кликов» с таким числом конверсий за период может перейти на оптимизацию конверсий.' },
  { key: 'strategy_cpa_over_target_multiple', kind: 'multiple', label: 'Стратегия не держит цель при CPA, × цели', hint: 'Фактическая цена конверсии во столько раз выше цели стратегии — стратегия не выдерживает цель.' },
  { key: 'weekly_budget_min_target_cpas', kind: 'multiple', label: 'Недельный бюджет конверсионной стратегии, от × цели', hint: 'Недельный бюджет меньше стольких целевых цен конверсии не даёт стратегии обучиться.' },
  { key: 'daily_budget_reached_share', kind: 'share', label: 'Дневной бюджет исчерпан при расходе дня, %', hint: 'День, когда расход достиг этой доли дневного бюджета, считается днём, когда бюджет закончился.' },
  { key: 'daily_budget_limited_days_share', kind: 'share', label: 'Бюджет ограничивает показы, дней из периода, %', hint: 'Если бюджет заканчивается в такой доле дней с расходом, показы останавливаются раньше времени.' },
  { key: 'mixed_placement_cpa_multiple', kind: 'multiple', label: 'Поиск и сети в одной кампании: CPA сетей, × поиска', hint: 'Цена конверсии в сетях во столько раз выше поисковой — кампанию стоит разделить.' },
  { key: 'schedule_off_conversion_share', kind: 'share', label: 'Расписание выключено в дни с конверсиями, от %', hint: 'Доля конверсий аккаунта в дни недели, когда кампания не показывается.' },
  { key: 'bid_adjustment_max_increase', kind: 'count', min: 1, label: 'Крайняя повышающая корректировка, от +%', hint: 'Корректировка ставок выше этого значения считается крайней.' },
  { key: 'bid_adjustment_max_decrease', kind: 'count', min: 1, label: 'Крайняя понижающая корректировка, от −%', hint: 'Корректировка ставок ниже этого значения (кроме −100 %) считается крайней.' },
  { key: 'conversion_strategy_min_clicks', kind: 'count', min: 1, label: 'Кликов конверсионной стратегии без конверсий, от', hint: 'С таким числом кликов за период конверсионная стратегия без конверсий — замечание.' },
];

export const thresholdFields = [...mainThresholds, ...moreThresholds];

export type ThresholdTexts = Record<NumericSetting, string> & { competitors: string };
export type ThresholdErrors = Partial<Record<keyof ProjectSettings, string>>;

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** The project's settings over the defaults, as the inputs show them (percents, decimal comma). */
export function thresholdTextsOf(settings: ProjectSettings): ThresholdTexts {
  const merged = { ...defaultProjectSettings, ...stripUndefined(settings) };
  const texts = { competitors: merged.competitors.join(', ') } as ThresholdTexts;
  for (const field of thresholdFields) texts[field.key] = formatThreshold(field, merged[field.key]);
  return texts;
}

/** True when the project set any threshold (or competitors) of its own, other than the defaults. */
export function hasCustomThresholds(settings: ProjectSettings): boolean {
  const defaults = thresholdTextsOf(defaultProjectSettings);
  const own = thresholdTextsOf(settings);
  return (Object.keys(defaults) as (keyof ThresholdTexts)[]).some((key) => defaults[key] !== own[key]);
}

/** One threshold as its input shows it: a share in percent, a decimal comma. */
export function formatThreshold(field: ThresholdField, value: number): string {
  return String(field.kind === 'share' ? round(value * 100) : value).replace('.', ',');
}

/** Competitor brands as typed: split on commas and new lines, duplicates dropped. */
export function parseCompetitors(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[,;\n]/)
    .map((item) => item.trim())
    .filter((item) => item && !seen.has(item.toLowerCase()) && seen.add(item.toLowerCase()));
}

function fieldError(field: ThresholdField, text: string, number: number): string | null {
  if (!text || !Number.isFinite(number) || number < 0) return m.numberInvalid;
  if (field.kind === 'count' && !Number.isInteger(number)) return m.integer;
  if (field.kind === 'count' && field.min !== undefined && number < field.min) return m.min.replace('{min}', String(field.min));
  if (field.kind === 'share' && number > 100) return m.shareMax;
  if (field.kind === 'multiple' && number === 0) return m.positive;
  return null;
}

/** One typed threshold to its API value; the field's message when it is not one. */
const thresholdText = (field: ThresholdField) =>
  v.pipe(
    v.string(m.numberInvalid),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const text = dataset.value.trim();
      const number = Number(text.replace(',', '.').replace(/\s/g, ''));
      const error = fieldError(field, text, number);
      if (error) {
        addIssue({ message: error });
        return NEVER;
      }
      return field.kind === 'share' ? round(number / 100) : number;
    }),
  );

const competitorsText = v.pipe(
  v.string(m.competitorsInvalid),
  v.transform(parseCompetitors),
  v.check((items) => items.every((item) => item.length <= 100), m.competitorTooLong),
  v.check((items) => items.length <= 200, m.tooManyCompetitors),
);

/** The threshold inputs of a form → the complete `ProjectSettings`, each bad field with its message. */
export const ThresholdTextsSchema = v.object({
  ...(Object.fromEntries(thresholdFields.map((field) => [field.key, thresholdText(field)])) as Record<NumericSetting, ReturnType<typeof thresholdText>>),
  competitors: competitorsText,
});

/** The typed thresholds as the API wants them, or the field errors (for forms without a resolver). */
export function parseThresholds(texts: ThresholdTexts): { settings: ProjectSettings; errors: ThresholdErrors } {
  const result = v.safeParse(ThresholdTextsSchema, texts);
  if (result.success) return { settings: result.output, errors: {} };
  const errors: ThresholdErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key as keyof ProjectSettings | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { settings: {}, errors };
}
