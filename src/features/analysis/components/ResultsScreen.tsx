import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PagedResults, ResultsSummary } from '@contract/analysis-pages.js';
import { readMoneyStory, severityLabels, type Finding, type Severity } from '@contract/analysis-results.js';
import { adPlatformLabels } from '@contract/campaigns.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { aiPlanOverviewQueryOptions } from '@/features/analysis/ai-plan/api';
import { downloadExport, exportOptions, previewDirectChanges, type ExportFormat, type ExportPlatform } from '@/features/analysis/api';
import { formatCount, formatPeriod, formatRubPerMonth, formatTokens, pluralRu } from '@/lib/analysis-format';
import { findingsFilterOf, type FindingsSearch } from '@/features/analysis/list-search';
import { findingsQueryOptions, isEmptyFilter, totalLabelOf } from '@/features/analysis/pages-api';
import { severities } from '@/features/analysis/result-model';
import { BarChart, ScoreGauge } from './charts';
import { ClientReportCard } from './ClientReportCard';
import { FindingCard } from './FindingCard';
import { MoneyBreakdown } from './MoneyStory';
import { PagedList } from './PagedList';
import { ExportUploadHelp } from './ExportUploadHelp';
import { ResultsLoader } from './ResultsLoader';
import { campaignOptions, ListFilterSelect, SearchTextField, useSearchText } from './ListFilterSelect';

const severityTone: Record<Severity, string> = { high: 'danger', medium: 'warning', low: 'muted' };

/**
 * /projects/{id}/analysis/{analysisId}/results: the header figures from the summary at once (the one
 * money figure and its causes, scores, counts), then the findings read page by page with the filters of
 * the address, and the export of the accepted changes.
 */
export function ResultsScreen({ projectId, analysisId, search }: { projectId: string; analysisId: string; search: FindingsSearch }) {
  return (
    <ResultsLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка результатов">
      {(data) => <ResultsBody projectId={projectId} analysisId={analysisId} data={data} search={search} />}
    </ResultsLoader>
  );
}

function ResultsBody({ projectId, analysisId, data, search }: { projectId: string; analysisId: string; data: PagedResults; search: FindingsSearch }) {
  const { summary } = data;
  const period = formatPeriod(summary.period);
  // Missing ids matter to the export: that notice is shown there.
  const headerNotices = summary.notices.filter((notice) => notice.code !== 'NO_IDS');

  return (
    <section className="page analysis-page analysis-results">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Результаты аудита</h1>
        <p className="muted">
          {adPlatformLabels[summary.platform]} · {formatCount(summary.counts.campaigns)} {pluralRu(summary.counts.campaigns, ['кампания', 'кампании', 'кампаний'])} ·{' '}
          {formatCount(summary.counts.keywords)} {pluralRu(summary.counts.keywords, ['фраза', 'фразы', 'фраз'])}
          {period && ` · статистика за ${period}`} · стоимость {formatTokens(data.analysis.cost)}
        </p>
      </header>

      <MoneyCard projectId={projectId} analysisId={analysisId} summary={summary} period={period} />

      {headerNotices.length > 0 && (
        <div className="analysis-notices" role="note">
          {headerNotices.map((notice) => (
            <p key={notice.code} className="muted analysis-notice">
              {notice.message}
            </p>
          ))}
        </div>
      )}

      <ScoreCards summary={summary} />
      <FindingsSection projectId={projectId} analysisId={analysisId} data={data} search={search} />
      <ExportCard projectId={projectId} analysisId={analysisId} data={data} />
      <ClientReportCard analysisId={analysisId} />
    </section>
  );
}

/** «Потери денег»: the one money figure and its causes, and the findings counted by severity. */
function MoneyCard({ projectId, analysisId, summary, period }: { projectId: string; analysisId: string; summary: ResultsSummary; period: string | null }) {
  const money = summary.money ? readMoneyStory(summary.money, summary.settings.targetCpa) : null;
  return (
    <section className="card analysis-money" aria-labelledby="money-title">
      <h2 id="money-title" className="card__title">
        Потери денег
      </h2>
      {money ? (
        <MoneyBreakdown projectId={projectId} analysisId={analysisId} money={money} period={period} />
      ) : (
        // An analysis stored before the money story: its one figure was the spend without conversions.
        <>
          <p className="analysis-money__value" data-testid="wasted-per-month">
            {formatRubPerMonth(summary.wastedSpend.perMonth)}
          </p>
          <p className="muted">Расход по фразам с кликами и без конверсий{period ? ` за ${period}, пересчитано на месяц` : ''}.</p>
        </>
      )}
      <ul className="analysis-money__severities" aria-label="Замечания по важности">
        {severities.map((severity) => (
          <li key={severity}>
            <Link
              to="/projects/$id/analysis/$analysisId/results"
              params={{ id: projectId, analysisId }}
              search={{ severity: [severity] }}
              hash="findings"
              className={`severity-chip badge--${severityTone[severity]}`}
              data-testid={`severity-count-${severity}`}
            >
              {severityLabels[severity]}: {formatCount(summary.bySeverity[severity]?.findings ?? 0)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The account's score and the campaigns' (the worst ones), as a chart and as a list for screen readers. */
function ScoreCards({ summary }: { summary: ResultsSummary }) {
  const campaigns = summary.scores.campaigns;
  return (
    <div className="analysis-scores">
      <section className="card" aria-labelledby="score-title">
        <h2 id="score-title" className="card__title">
          Оценка аккаунта
        </h2>
        <ScoreGauge score={summary.scores.account.score} />
        <p className="muted">
          {formatCount(summary.findingsTotal)} {pluralRu(summary.findingsTotal, ['замечание', 'замечания', 'замечаний'])}
        </p>
      </section>
      <section className="card" aria-labelledby="campaign-scores-title">
        <h2 id="campaign-scores-title" className="card__title">
          Оценки кампаний
        </h2>
        <BarChart
          title="Оценки кампаний из 100"
          max={100}
          data={campaigns.map((campaign) => ({
            key: campaign.target.key,
            label: campaign.target.campaignName ?? campaign.target.label ?? campaign.target.key,
            value: campaign.score,
            valueText: String(Math.round(campaign.score)),
            tone: campaign.score >= 80 ? 'good' : campaign.score >= 50 ? 'warning' : 'danger',
          }))}
        />
        {summary.scores.campaignsTotal > campaigns.length && (
          <p className="muted">
            Худшие {formatCount(campaigns.length)} из {formatCount(summary.scores.campaignsTotal)}.
          </p>
        )}
        <ul className="visually-hidden">
          {campaigns.map((campaign) => (
            <li key={campaign.target.key}>
              {campaign.target.campaignName ?? campaign.target.label}: {Math.round(campaign.score)} из 100
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** «Выгрузка изменений»: what was accepted, the files, the upload through the API, and where to go next. */
function ExportCard({ projectId, analysisId, data }: { projectId: string; analysisId: string; data: PagedResults }) {
  const { summary, decisions } = data;
  return (
    <section className="card analysis-export" aria-labelledby="export-title">
      <h2 id="export-title" className="card__title">
        Выгрузка изменений
      </h2>
      {decisions.accepted > 0 ? (
        <p data-testid="accepted-summary">
          Принято {formatCount(decisions.accepted)} {pluralRu(decisions.accepted, ['изменение', 'изменения', 'изменений'])}.
          {decisions.blockedQueries && decisions.blockedQueries.costPerMonth > 0 && (
            <>
              {' '}
              Минус-слова отсекут {formatCount(decisions.blockedQueries.queries)}{' '}
              {pluralRu(decisions.blockedQueries.queries, ['нецелевой запрос', 'нецелевых запроса', 'нецелевых запросов'])} на{' '}
              {formatRubPerMonth(decisions.blockedQueries.costPerMonth)}.
            </>
          )}
        </p>
      ) : (
        <p className="muted">Пока не принято ни одного предложения: выгружать нечего.</p>
      )}
      <ExportButtons analysisId={analysisId} disabled={decisions.accepted === 0} />
      {summary.platform === 'yandex_direct' && <ApplyThroughApiButton projectId={projectId} analysisId={analysisId} disabled={decisions.accepted === 0} />}
      <ExportUploadHelp notices={summary.notices} />
      <div className="analysis-actions">
        <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className="btn btn--secondary">
          Изменить решения
        </Link>
        <Link
          to="/projects/$id/analysis/$analysisId/ai-plan/$aiPlanId"
          params={{ id: projectId, analysisId, aiPlanId: analysisId }}
          className="btn btn--secondary"
        >
          <PlanLinkLabel analysisId={analysisId} />
        </Link>
        <Link to="/projects/$id/analysis/history" params={{ id: projectId }} className="btn btn--ghost">
          История анализов
        </Link>
      </div>
    </section>
  );
}

/** Named for what it opens: «ИИ-анализ» when a language model is configured, else the audit's own «План действий». */
export const AI_PLAN_LABEL = 'ИИ-анализ';
export const ACTION_PLAN_LABEL = 'План действий';

function PlanLinkLabel({ analysisId }: { analysisId: string }) {
  const overview = useQuery(aiPlanOverviewQueryOptions(analysisId));
  return <>{overview.data?.available ? AI_PLAN_LABEL : ACTION_PLAN_LABEL}</>;
}

/**
 * The count beside «Замечания»: «(28)» for the whole list, «(5 из 28)» once a filter's list is counted
 * (nothing while it is read: the old figure would describe another list).
 */
function findingsCountText(total: number, filtered: string | null | undefined): string {
  if (filtered === undefined) return `(${formatCount(total)})`;
  return filtered === null ? '' : `(${filtered} из ${formatCount(total)})`;
}

/** The group key (`c0g1`) of a finding on a group or inside one, for «Все замечания группы». */
const groupKeyOf = (finding: Finding) => /^c\d+g\d+/.exec(finding.target.key)?.[0] ?? null;

const checkTitle = (summary: ResultsSummary, checkId: string) =>
  summary.byCheck.find((check) => check.checkId === checkId)?.title ?? summary.checks.find((check) => check.id === checkId)?.title ?? checkId;
/** A group's name as its findings carry it (the summary has no list of groups). */
const groupNameOf = (data: { pages: { items: Finding[] }[] } | undefined, key: string) =>
  data?.pages.flatMap((page) => page.items).find((finding) => finding.target.key.startsWith(key))?.target.groupName ?? null;
const campaignName = (summary: ResultsSummary, key: string) => summary.scores.campaigns.find((campaign) => campaign.target.key === key)?.target.campaignName ?? key;

/** The findings, by money, read page by page; the filters are the address's search. */
function FindingsSection({ projectId, analysisId, data, search }: { projectId: string; analysisId: string; data: PagedResults; search: FindingsSearch }) {
  const navigate = useNavigate();
  const { summary } = data;
  const filter = findingsFilterOf(search);
  const unfiltered = isEmptyFilter(filter);
  const query = useInfiniteQuery(findingsQueryOptions(analysisId, filter, unfiltered ? data.findings : undefined));
  const setSearch = (patch: Partial<FindingsSearch>) =>
    void navigate({
      to: '/projects/$id/analysis/$analysisId/results',
      params: { id: projectId, analysisId },
      search: { ...search, ...patch },
      hash: 'findings',
      replace: true,
      resetScroll: false,
    });
  const text = useSearchText(search.text, (typed) => setSearch({ text: typed }));

  return (
    <section className="card findings-section" id="findings" aria-labelledby="findings-title">
      <h2 id="findings-title" className="card__title">
        Замечания <span className="muted" data-testid="findings-count">{findingsCountText(summary.findingsTotal, unfiltered ? null : totalLabelOf(query.data))}</span>
      </h2>
      <form className="list-filters" role="search" aria-label="Фильтры замечаний" onSubmit={text.onSubmit}>
        <FindingFilters summary={summary} search={search} setSearch={setSearch} />
        <SearchTextField search={text} placeholder="Фраза, группа, кампания" />
      </form>
      <ActiveFilters
        summary={summary}
        search={search}
        findings={query.data}
        unfiltered={unfiltered}
        setSearch={setSearch}
        onReset={() => {
          text.setText('');
          setSearch({ severity: undefined, check: undefined, campaign: undefined, group: undefined, text: undefined, sort: undefined });
        }}
      />
      <PagedList<Finding>
        key={JSON.stringify(filter)}
        query={query}
        label="Список замечаний"
        noun="замечания"
        testId="findings-list"
        keyOf={(finding) => finding.id}
        estimateSize={260}
        renderItem={(finding) => <FindingRow projectId={projectId} analysisId={analysisId} finding={finding} search={search} />}
        empty={<p className="muted">{unfiltered ? 'Замечаний нет.' : 'Замечаний с такими условиями нет.'}</p>}
      />
    </section>
  );
}

/** Severity, check, campaign and order. */
function FindingFilters({ summary, search, setSearch }: { summary: ResultsSummary; search: FindingsSearch; setSearch: (patch: Partial<FindingsSearch>) => void }) {
  const checks = summary.byCheck.filter((check) => check.findings > 0).sort((a, b) => b.moneyPerMonth - a.moneyPerMonth || b.findings - a.findings);
  return (
    <>
      <ListFilterSelect label="Важность" allLabel="Любая" value={search.severity} options={severities.map((severity) => ({ value: severity, label: severityLabels[severity] }))} onChange={(severity) => setSearch({ severity })} />
      <ListFilterSelect
        label="Проверка"
        allLabel="Все проверки"
        value={search.check}
        options={checks.map((check) => ({ value: check.checkId, label: `${check.title} (${formatCount(check.findings)})` }))}
        onChange={(check) => setSearch({ check })}
      />
      {summary.scores.campaigns.length > 1 && (
        <ListFilterSelect label="Кампания" allLabel="Все кампании" value={search.campaign} options={campaignOptions(summary.scores.campaigns)} onChange={(campaign) => setSearch({ campaign })} />
      )}
      <label className="field list-filters__field">
        <span className="field__label">Порядок</span>
        <select className="select" value={search.sort ?? 'money'} onChange={(event) => setSearch({ sort: event.target.value === 'severity' ? 'severity' : undefined })}>
          <option value="money">Сначала дорогие</option>
          <option value="severity">Сначала важные</option>
        </select>
      </label>
    </>
  );
}

interface ActiveFiltersProps {
  summary: ResultsSummary;
  search: FindingsSearch;
  findings: { pages: { items: Finding[] }[] } | undefined;
  unfiltered: boolean;
  setSearch: (patch: Partial<FindingsSearch>) => void;
  onReset: () => void;
}

/** The filters the selects cannot show (several checks or campaigns, a group) as chips to remove, and «Сбросить фильтры». */
function ActiveFilters({ summary, search, findings, unfiltered, setSearch, onReset }: ActiveFiltersProps) {
  const active: { key: string; label: string; clear: Partial<FindingsSearch> }[] = [
    ...(search.check && search.check.length > 1 ? [{ key: 'check', label: `Проверки: ${search.check.map((id) => checkTitle(summary, id)).join(', ')}`, clear: { check: undefined } }] : []),
    ...(search.group ? [{ key: 'group', label: `Группа: ${search.group.map((key) => groupNameOf(findings, key) ?? key).join(', ')}`, clear: { group: undefined } }] : []),
    ...(search.campaign && search.campaign.length > 1 ? [{ key: 'campaign', label: `Кампании: ${search.campaign.map((key) => campaignName(summary, key)).join(', ')}`, clear: { campaign: undefined } }] : []),
  ];
  if (active.length === 0 && unfiltered) return null;
  return (
    <p className="list-filters__active">
      {active.map((item) => (
        <button key={item.key} type="button" className="filter-chip" onClick={() => setSearch(item.clear)} aria-label={`Убрать фильтр: ${item.label}`}>
          {item.label} ×
        </button>
      ))}
      <button type="button" className="link-button" onClick={onReset}>
        Сбросить фильтры
      </button>
    </p>
  );
}

/** One finding of the list: its severity and title, a link to all of its group's, and its card. */
function FindingRow({ projectId, analysisId, finding, search }: { projectId: string; analysisId: string; finding: Finding; search: FindingsSearch }) {
  const groupKey = groupKeyOf(finding);
  return (
    <div className={`finding-row finding-row--${severityTone[finding.severity]}`}>
      <p className="finding-row__head">
        <span className={`badge badge--${severityTone[finding.severity]}`}>{severityLabels[finding.severity]}</span> <strong>{finding.title}</strong>
        {groupKey && !search.group?.includes(groupKey) && (
          <>
            {' · '}
            <Link
              to="/projects/$id/analysis/$analysisId/results"
              params={{ id: projectId, analysisId }}
              search={{ group: [groupKey] }}
              hash="findings"
              replace
              resetScroll={false}
              className="link"
            >
              Все замечания группы
            </Link>
          </>
        )}
      </p>
      <FindingCard finding={finding} analysisId={analysisId} />
    </div>
  );
}

function ExportButtons({ analysisId, disabled }: { analysisId: string; disabled: boolean }) {
  const download = useMutation({
    mutationFn: ({ platform, format }: { platform: ExportPlatform; format: ExportFormat }) => downloadExport(analysisId, platform, format),
    onSuccess: ({ fileName }) => toast.success(`Файл ${fileName} скачан`),
    onError: (error) => toast.error(error.message),
  });
  return (
    <>
      <div className="analysis-export__buttons">
        {exportOptions.map((option) => (
          <button
            key={`${option.platform}:${option.format}`}
            type="button"
            className="btn btn--secondary"
            disabled={disabled || download.isPending}
            onClick={() => download.mutate({ platform: option.platform, format: option.format })}
          >
            {option.label}
          </button>
        ))}
      </div>
      {download.isError && (
        <p className="form-error" role="alert">
          {download.error.message}
        </p>
      )}
      {download.data && download.data.notes.length > 0 && (
        <div className="analysis-export__notes" role="status" data-testid="export-notes">
          <p>Обратите внимание на файл {download.data.fileName}:</p>
          <ul>
            {download.data.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** Builds the change set of the accepted suggestions (the preview reads the account through the API) and opens it. */
function ApplyThroughApiButton({ projectId, analysisId, disabled }: { projectId: string; analysisId: string; disabled: boolean }) {
  const navigate = useNavigate();
  const [pauseKeywords, setPauseKeywords] = useState(false);
  const [bids, setBids] = useState(false);
  const [excludeSites, setExcludeSites] = useState(false);
  const preview = useMutation({
    mutationFn: () => previewDirectChanges(analysisId, { pauseKeywords, bids, excludeSites }),
    onSuccess: (set) => void navigate({ to: '/projects/$id/changes/$changeSetId', params: { id: projectId, changeSetId: set.id } }),
  });
  return (
    <div className="analysis-export__apply">
      <button type="button" className="btn btn--primary" disabled={(disabled && !pauseKeywords && !bids && !excludeSites) || preview.isPending} onClick={() => preview.mutate()}>
        {preview.isPending ? 'Читаем аккаунт…' : 'Применить через API Директа'}
      </button>
      <label className="checkbox">
        <input type="checkbox" checked={pauseKeywords} onChange={(event) => setPauseKeywords(event.target.checked)} /> Остановить и фразы, которые аудит советует остановить
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={bids} onChange={(event) => setBids(event.target.checked)} /> Изменить ставки, которые советует аудит (только при ручном управлении ставками)
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={excludeSites} onChange={(event) => setExcludeSites(event.target.checked)} /> Запретить площадки в сетях без отдачи
      </label>
      <p className="muted">Без файла: минус-фразы, кросс-минусовка и тексты объявлений запишутся прямо в аккаунт. Сначала покажем, что изменится: лишнее можно снять галочкой.</p>
      {preview.isError && (
        <p className="form-error" role="alert">
          {preview.error.message}
        </p>
      )}
    </div>
  );
}
