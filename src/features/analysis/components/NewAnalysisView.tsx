import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useRef, useState } from 'react';
import type { Analysis } from '../../../contract/analysis.js';
import { defaultProjectSettings, type ProjectDetail, type ProjectSettings } from '../../../contract/projects.js';
import type { CalculateCostRequest } from '../../../contract/tokens.js';
import { ApiError } from '../../../lib/api-client';
import { projectKeys, updateProject } from '../../projects/api';
import { AUDIT_KINDS, costQueryOptions, insufficientBalanceOf, startAnalysis } from '../api';
import { formatCount, formatRub, formatTokens, pluralRu } from '../format';
import { useIdempotencyKey } from '../idempotency';

export const START_LABEL = 'Запустить анализ';
export const INSUFFICIENT_TITLE = 'Недостаточно токенов на балансе';

type NumericSetting = Exclude<keyof ProjectSettings, 'competitors'>;

interface ThresholdField {
  key: NumericSetting;
  label: string;
  hint: string;
  /** count: a whole number; share: a share in the API, a percent on screen; multiple: a factor above zero. */
  kind: 'count' | 'share' | 'multiple';
  /** Smallest whole number allowed (counts). */
  min?: number;
}

/** The evidence rules a marketer tunes most often, shown at once. */
const mainThresholds: ThresholdField[] = [
  { key: 'min_clicks_for_negative', kind: 'count', label: 'Минимум кликов для минус-слова', hint: 'Запрос с меньшим числом кликов не минусуется: сначала собрать данные.' },
  { key: 'min_clicks_for_keyword_action', kind: 'count', label: 'Минимум кликов для решения по фразе', hint: 'Меньше кликов — «собрать данные», без изменения ставки.' },
  { key: 'low_search_ctr', kind: 'share', label: 'Низкий CTR на поиске, %', hint: 'CTR коммерческих запросов ниже этого значения считается низким.' },
  { key: 'suspicious_network_ctr', kind: 'share', label: 'Подозрительный CTR в сетях, %', hint: 'CTR в сетях от этого значения — признак случайных кликов.' },
  { key: 'stop_cost_cpa_multiple', kind: 'multiple', label: 'Остановить фразу при расходе, × CPA', hint: 'Фраза без конверсий останавливается, когда расход достиг стольких CPA.' },
  { key: 'lower_bid_cpa_multiple', kind: 'multiple', label: 'Снизить ставку при CPA, × цели', hint: 'Ставка снижается, когда цена конверсии во столько раз выше целевой.' },
];

/** Every other threshold the checks compare with, folded away. */
const moreThresholds: ThresholdField[] = [
  { key: 'min_impressions_for_ctr', kind: 'count', label: 'Минимум показов для оценки CTR', hint: 'При меньшем числе показов CTR не оценивается.' },
  { key: 'ctr_below_median_ratio', kind: 'share', label: 'Низкий CTR относительно медианы аккаунта, %', hint: 'CTR фразы ниже этой доли медианного CTR аккаунта тоже считается низким.' },
  { key: 'expensive_cpc_median_multiple', kind: 'multiple', label: 'Дорогой клик, × медианы аккаунта', hint: 'Цена клика от стольких медиан аккаунта считается дорогой.' },
  { key: 'same_ad_text_groups', kind: 'count', min: 2, label: 'Один текст объявления в группах, от', hint: 'Одинаковое объявление в стольких группах и больше — замечание.' },
  { key: 'single_group_min_keywords', kind: 'count', min: 1, label: 'Фраз в единственной группе кампании, от', hint: 'Кампания с одной группой на столько фраз — «одна группа на всё».' },
  { key: 'min_group_relevance', kind: 'share', label: 'Минимальная релевантность объявлений группы, %', hint: 'Доля слов ключевых фраз, которые должны быть в объявлениях группы.' },
];

const thresholdFields = [...mainThresholds, ...moreThresholds];

type ThresholdTexts = Record<NumericSetting, string> & { competitors: string };
type ThresholdErrors = Partial<Record<keyof ProjectSettings, string>>;

function initialTexts(settings: ProjectSettings): ThresholdTexts {
  const merged = { ...defaultProjectSettings, ...stripUndefined(settings) };
  const texts = { competitors: merged.competitors.join(', ') } as ThresholdTexts;
  for (const field of thresholdFields) {
    const value = merged[field.key];
    texts[field.key] = String(field.kind === 'share' ? round(value * 100) : value).replace('.', ',');
  }
  return texts;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
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
  if (!text || !Number.isFinite(number) || number < 0) return 'Введите неотрицательное число';
  if (field.kind === 'count' && !Number.isInteger(number)) return 'Введите целое число';
  if (field.kind === 'count' && field.min !== undefined && number < field.min) return `Не меньше ${field.min}`;
  if (field.kind === 'share' && number > 100) return 'Не больше 100 %';
  if (field.kind === 'multiple' && number === 0) return 'Введите число больше нуля';
  return null;
}

/** The typed thresholds as the API wants them, or the field errors. */
export function parseThresholds(texts: ThresholdTexts): { settings: ProjectSettings; errors: ThresholdErrors } {
  const settings: ProjectSettings = {};
  const errors: ThresholdErrors = {};
  for (const field of thresholdFields) {
    const text = texts[field.key].trim();
    const number = Number(text.replace(',', '.').replace(/\s/g, ''));
    const error = fieldError(field, text, number);
    if (error) errors[field.key] = error;
    else settings[field.key] = field.kind === 'share' ? round(number / 100) : number;
  }
  const competitors = parseCompetitors(texts.competitors);
  if (competitors.some((item) => item.length > 100)) errors.competitors = 'Название конкурента — не длиннее 100 символов';
  else if (competitors.length > 200) errors.competitors = 'Не больше 200 конкурентов';
  else settings.competitors = competitors;
  return { settings, errors };
}

interface Props {
  project: ProjectDetail;
  onStarted: (analysis: Analysis) => void;
}

/** /projects/{id}/analysis/new: campaigns, thresholds, the price before paying, and the start. */
export function NewAnalysisView({ project, onStarted }: Props) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(project.campaigns.map((campaign) => campaign.id)));
  const [texts, setTexts] = useState<ThresholdTexts>(() => initialTexts(project.settings));
  const [fieldErrors, setFieldErrors] = useState<ThresholdErrors>({});
  const [saveToProject, setSaveToProject] = useState(false);
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  // A second click before React re-renders the disabled button must not send a second request.
  const sending = useRef(false);

  const chosen = project.campaigns.filter((campaign) => selected.has(campaign.id));
  const costRequest = useMemo<CalculateCostRequest>(
    () => ({
      campaigns: project.campaigns.filter((campaign) => selected.has(campaign.id)).map((campaign) => ({
        id: campaign.id,
        name: campaign.name,
        keywords_count: campaign.keywords_count,
        ads_count: campaign.ads_count,
        groups_count: campaign.groups_count,
      })),
      analysis_kinds: [...AUDIT_KINDS],
    }),
    [selected, project.campaigns],
  );
  const cost = useQuery(costQueryOptions(costRequest));

  const start = useMutation({
    mutationFn: async (settings: ProjectSettings) => {
      // Saved first: a start that fails later still leaves the thresholds the user chose in the project.
      if (saveToProject) {
        const updated = await updateProject(project.id, { settings });
        queryClient.setQueryData(projectKeys.detail(project.id), updated);
      }
      return startAnalysis(project.id, { campaign_ids: chosen.map((campaign) => campaign.id), settings, idempotency_key: idempotency.key() });
    },
    onSuccess: (analysis) => {
      idempotency.renew();
      onStarted(analysis);
    },
    onError: (error) => {
      // A 4xx is a refusal: nothing was created or charged, so the next try may be a new start.
      // A lost answer or a 5xx may hide a start that happened: keep the key, the retry is safe.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) idempotency.renew();
    },
    onSettled: () => {
      sending.current = false;
    },
  });

  const toggle = (id: string) => {
    start.reset();
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const allChosen = chosen.length === project.campaigns.length;
  const toggleAll = () => {
    start.reset();
    setSelected(allChosen ? new Set() : new Set(project.campaigns.map((campaign) => campaign.id)));
  };

  const costShort = cost.data && !cost.data.sufficient && !cost.isPlaceholderData ? { required: cost.data.total, balance: cost.data.balance } : null;
  // The server's 402 wins: its amounts are the ones it actually checked.
  const shortBalance = insufficientBalanceOf(start.error) ?? costShort;
  const canStart = chosen.length > 0 && !start.isPending && !costShort;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (sending.current || chosen.length === 0) return;
    const { settings, errors } = parseThresholds(texts);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    sending.current = true;
    start.mutate(settings);
  };

  return (
    <section className="page analysis-page analysis-new">
      <Link to="/projects/$id" params={{ id: project.id }} className="link back-link">
        ← {project.name}
      </Link>
      <header className="page-header">
        <h1>Новый анализ</h1>
      </header>

      {project.campaigns.length === 0 ? (
        <div className="state-card">
          <p>В проекте нет кампаний. Импортируйте кампании на странице проекта, чтобы запустить анализ.</p>
          <Link to="/projects/$id" params={{ id: project.id }} className="btn btn--primary">
            К проекту
          </Link>
        </div>
      ) : (
        <form className="analysis-new__form" onSubmit={submit} noValidate>
          <fieldset className="card analysis-fieldset">
            <legend className="card__title">Кампании</legend>
            <label className="checkbox analysis-campaign analysis-campaign--all">
              <input type="checkbox" checked={allChosen} onChange={toggleAll} />
              <span>Все кампании ({formatCount(project.campaigns.length)})</span>
            </label>
            <ul className="analysis-campaigns">
              {project.campaigns.map((campaign) => (
                <li key={campaign.id}>
                  <label className="checkbox analysis-campaign">
                    <input type="checkbox" checked={selected.has(campaign.id)} onChange={() => toggle(campaign.id)} />
                    <span className="analysis-campaign__text">
                      <span className="analysis-campaign__name">{campaign.name}</span>
                      <span className="muted analysis-campaign__counts">
                        {formatCount(campaign.groups_count)} {pluralRu(campaign.groups_count, ['группа', 'группы', 'групп'])} ·{' '}
                        {formatCount(campaign.ads_count)} {pluralRu(campaign.ads_count, ['объявление', 'объявления', 'объявлений'])} ·{' '}
                        {formatCount(campaign.keywords_count)} {pluralRu(campaign.keywords_count, ['фраза', 'фразы', 'фраз'])}
                      </span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            {chosen.length === 0 && (
              <p className="field__error" role="alert">
                Выберите хотя бы одну кампанию
              </p>
            )}
          </fieldset>

          <fieldset className="card analysis-fieldset">
            <legend className="card__title">Пороги анализа</legend>
            <p className="muted">
              {project.target_cpa !== null
                ? `Целевая цена конверсии: ${formatRub(project.target_cpa)} (меняется в настройках проекта).`
                : 'Целевая цена конверсии не задана: фразы сравниваются с CPA своей кампании.'}
            </p>
            {project.region && <p className="muted">Регион проекта: {project.region}. Эти места не предлагаются в минус-слова как «другая география».</p>}
            <div className="analysis-thresholds">
              {mainThresholds.map((field) => (
                <ThresholdInput key={field.key} field={field} value={texts[field.key]} error={fieldErrors[field.key]} onChange={(value) => setTexts((current) => ({ ...current, [field.key]: value }))} />
              ))}
            </div>
            <details className="analysis-thresholds__more" open={moreThresholds.some((field) => fieldErrors[field.key]) || Boolean(fieldErrors.competitors) || undefined}>
              <summary>Остальные пороги и конкуренты</summary>
              <div className="analysis-thresholds">
                {moreThresholds.map((field) => (
                  <ThresholdInput key={field.key} field={field} value={texts[field.key]} error={fieldErrors[field.key]} onChange={(value) => setTexts((current) => ({ ...current, [field.key]: value }))} />
                ))}
              </div>
              <div className={`field${fieldErrors.competitors ? ' field--invalid' : ''}`}>
                <label className="field__label" htmlFor="threshold-competitors">
                  Конкуренты
                </label>
                <textarea
                  id="threshold-competitors"
                  className="input"
                  rows={2}
                  value={texts.competitors}
                  aria-invalid={Boolean(fieldErrors.competitors)}
                  aria-describedby="threshold-competitors-hint"
                  onChange={(event) => setTexts((current) => ({ ...current, competitors: event.target.value }))}
                />
                <p className={fieldErrors.competitors ? 'field__error' : 'field__hint'} id="threshold-competitors-hint">
                  {fieldErrors.competitors ?? 'Бренды через запятую: запросы с ними предлагаются в минус-слова кампании.'}
                </p>
              </div>
            </details>
            <label className="checkbox">
              <input type="checkbox" checked={saveToProject} onChange={(event) => setSaveToProject(event.target.checked)} />
              <span>Сохранить эти пороги в настройках проекта</span>
            </label>
          </fieldset>

          <section className="card analysis-cost" aria-labelledby="analysis-cost-title" aria-live="polite">
            <h2 id="analysis-cost-title" className="card__title">
              Стоимость
            </h2>
            {chosen.length === 0 ? (
              <p className="muted">Выберите кампании, чтобы увидеть стоимость.</p>
            ) : cost.data ? (
              <>
                <p className="analysis-cost__total" data-testid="analysis-cost">
                  {formatTokens(cost.data.total)}
                </p>
                <p className="muted">На балансе: {formatTokens(cost.data.balance)}</p>
                <details className="analysis-cost__breakdown">
                  <summary>Из чего складывается цена</summary>
                  <ul>
                    {cost.data.breakdown.map((line) => (
                      <li key={line.index}>
                        <strong>{line.name ?? `Кампания ${line.index + 1}`}</strong>: {formatTokens(line.cost)}
                        <span className="muted"> ({line.items.map((item) => `${item.label} — ${item.amount}`).join('; ')})</span>
                      </li>
                    ))}
                  </ul>
                </details>
              </>
            ) : cost.isError ? (
              <p className="form-error" role="alert">
                Не удалось рассчитать стоимость: {cost.error.message}
              </p>
            ) : (
              <p className="muted">
                <span className="spinner" aria-hidden="true" /> Считаем стоимость…
              </p>
            )}
          </section>

          {shortBalance && (
            <div className="form-error analysis-balance-error" role="alert">
              <p>
                <strong>{INSUFFICIENT_TITLE}.</strong>{' '}
                {shortBalance.required !== null && shortBalance.balance !== null
                  ? `Анализ стоит ${formatTokens(shortBalance.required)}, на балансе ${formatTokens(shortBalance.balance)}.`
                  : 'Пополните баланс, чтобы запустить анализ.'}
              </p>
              <Link to="/tokens" className="link">
                Пополнить баланс на странице «Токены»
              </Link>
            </div>
          )}
          {start.isError && !insufficientBalanceOf(start.error) && (
            <p className="form-error" role="alert">
              Анализ не запущен: {start.error.message}. Нажмите «{START_LABEL}» ещё раз — повторный запрос не спишет токены дважды.
            </p>
          )}

          <div className="analysis-actions">
            <button type="submit" className="btn btn--primary" disabled={!canStart} aria-busy={start.isPending}>
              {start.isPending && <span className="spinner" aria-hidden="true" />}
              {START_LABEL}
            </button>
            <Link to="/projects/$id/analysis/history" params={{ id: project.id }} className="btn btn--ghost">
              История анализов
            </Link>
          </div>
        </form>
      )}
    </section>
  );
}

function ThresholdInput({ field, value, error, onChange }: { field: ThresholdField; value: string; error?: string; onChange: (value: string) => void }) {
  const id = `threshold-${field.key}`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {field.label}
      </label>
      <input id={id} className="input" inputMode="decimal" value={value} aria-invalid={Boolean(error)} aria-describedby={`${id}-hint`} onChange={(event) => onChange(event.target.value)} />
      <p className={error ? 'field__error' : 'field__hint'} id={`${id}-hint`}>
        {error ?? field.hint}
      </p>
    </div>
  );
}
