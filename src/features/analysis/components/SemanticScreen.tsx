import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { PagedResults, SemanticSection, SuggestionWithDecision } from '@contract/analysis-pages.js';
import { negativeCategories } from '@contract/analysis-pages.js';
import { negativeCategoryLabels, type NegativeCategory, type QueryIntent, type Suggestion } from '@contract/analysis-results.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { Spinner } from '@/components/ui/form';
import { useOnlineStatus } from '@/lib/useOnlineStatus';
import { formatCount, pluralRu } from '@/lib/analysis-format';
import { suggestionsFilterOf, type SuggestionsSearch } from '@/features/analysis/list-search';
import { cleanFilter, itemsOf, semanticSectionQueryOptions, suggestionsQueryOptions, totalLabelOf, totalOf, type Decision, type SuggestionsListFilter } from '@/features/analysis/pages-api';
import { useDecisions } from '@/features/analysis/useDecisions';
import { campaignOptions, ListFilterSelect, SearchTextField, useSearchText, type FilterOption } from './ListFilterSelect';
import { LoadMore, NeedsNetwork, PagedList } from './PagedList';
import { ResultsLoader } from './ResultsLoader';
import { SuggestionItem } from './SuggestionItem';

const intentLabels: Record<QueryIntent, string> = {
  commercial: 'коммерческий',
  informational: 'информационный',
  navigational: 'навигационный',
  unknown: 'не определён',
};

type Kind = Suggestion['kind'];
/** The same kinds as the object of «Принять все …». */
const kindObjects: Record<Kind, string> = {
  negative_keyword: 'минус-слова',
  cross_minus: 'кросс-минусовку и дубли',
  ad_field: 'исправления объявлений',
};

/** Ready-made filters, in the order a marketer works through them. */
const presets: { id: string; label: string; search: SuggestionsSearch }[] = [
  { id: 'all', label: 'Все', search: {} },
  { id: 'negatives', label: 'Минус-слова', search: { kind: ['negative_keyword'], status: ['ready'] } },
  { id: 'by-hand', label: 'Проверить вручную', search: { kind: ['negative_keyword'], status: ['check_by_hand'] } },
  { id: 'cross-minus', label: 'Кросс-минусовка и дубли', search: { kind: ['cross_minus'] } },
  { id: 'ad-fixes', label: 'Объявления', search: { kind: ['ad_field'] } },
];
const decisionOptions: FilterOption<Decision>[] = [
  { value: 'undecided', label: 'Без решения' },
  { value: 'accepted', label: 'Принятые' },
  { value: 'rejected', label: 'Отклонённые' },
];

const sameSearch = (a: SuggestionsSearch, b: SuggestionsSearch) => JSON.stringify(cleanFilter(a)) === JSON.stringify(cleanFilter(b));

/**
 * What «Принять все» may take for a filter. Ambiguous intents («Проверить вручную») are decided one by
 * one, never in bulk: a filter of negatives only takes the ready ones; a filter that mixes them with other
 * kinds, or asks for the check-by-hand ones, cannot be accepted at once.
 */
export function bulkAcceptFilter(filter: SuggestionsListFilter): SuggestionsListFilter | null {
  const kinds: Kind[] = (filter.kind as Kind[] | undefined) ?? ['negative_keyword', 'cross_minus', 'ad_field'];
  if (!kinds.includes('negative_keyword')) return filter;
  const statuses = (filter.status as string[] | undefined) ?? [];
  if (statuses.includes('check_by_hand')) return null;
  if (kinds.length > 1) return null;
  return { ...filter, status: ['ready'] };
}

/** «минус-слова категории „Работа и вакансии“», «кросс-минусовку и дубли», «предложения по фильтру». */
export function describeFilter(filter: SuggestionsListFilter): string {
  const kinds = (filter.kind as Kind[] | undefined) ?? [];
  const categories = (filter.category as NegativeCategory[] | undefined) ?? [];
  let text = kinds.length === 1 ? kindObjects[kinds[0]!] : 'предложения';
  if (categories.length > 0) text += ` ${categories.length === 1 ? 'категории' : 'категорий'} ${categories.map((category) => `„${negativeCategoryLabels[category]}“`).join(', ')}`;
  if (filter.text || filter.campaign || filter.group || filter.decision) text += ' по фильтру';
  return text;
}

/** /projects/{id}/analysis/{analysisId}/semantic: accept or reject suggestions one by one or by filter, then on to the results. */
export function SemanticScreen({ projectId, analysisId, search }: { projectId: string; analysisId: string; search: SuggestionsSearch }) {
  return (
    <ResultsLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка результатов">
      {(data) => <SemanticBody projectId={projectId} analysisId={analysisId} data={data} search={search} />}
    </ResultsLoader>
  );
}

type DecisionSaver = ReturnType<typeof useDecisions>;

function SemanticBody({ projectId, analysisId, data, search }: { projectId: string; analysisId: string; data: PagedResults; search: SuggestionsSearch }) {
  const navigate = useNavigate();
  const { summary, decisions } = data;
  const saver = useDecisions(analysisId);
  const [leaving, setLeaving] = useState(false);

  const goToResults = async () => {
    setLeaving(true);
    try {
      await saver.flush();
      void navigate({ to: '/projects/$id/analysis/$analysisId/results', params: { id: projectId, analysisId } });
    } catch {
      setLeaving(false);
    }
  };

  return (
    <section className="page analysis-page analysis-semantic">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Семантика: предложения</h1>
      </header>
      <p className="lead">Примите изменения, которые хотите внести, и отклоните лишние. В выгрузку попадут только принятые.</p>

      <DecisionBar decisions={decisions} total={summary.suggestions.total} saver={saver} />

      {summary.semantic.notices.map((notice) => (
        <p key={notice.code} className="muted analysis-notice">
          {notice.message}
        </p>
      ))}

      {summary.suggestions.total === 0 ? (
        <div className="state-card">
          <p>Анализ не нашёл изменений, которые нужно принять: минус-слова, кросс-минусовка и объявления в порядке.</p>
        </div>
      ) : (
        <SuggestionsCard projectId={projectId} analysisId={analysisId} data={data} search={search} saver={saver} />
      )}

      <SemanticFacts analysisId={analysisId} data={data} />

      <div className="analysis-actions analysis-actions--sticky">
        <button type="button" className="btn btn--primary" onClick={() => void goToResults()} disabled={leaving}>
          К результатам
        </button>
      </div>
    </section>
  );
}

/** How many suggestions are accepted, rejected and left, and whether the decisions are saved. */
function DecisionBar({ decisions, total, saver }: { decisions: PagedResults['decisions']; total: number; saver: DecisionSaver }) {
  return (
    <div className="card analysis-decision-bar" aria-live="polite">
      <p>
        Принято <strong data-testid="accepted-count">{formatCount(decisions.accepted)}</strong> · отклонено{' '}
        <strong data-testid="rejected-count">{formatCount(decisions.rejected)}</strong> · без решения{' '}
        <strong data-testid="undecided-count">{formatCount(Math.max(0, total - decisions.accepted - decisions.rejected))}</strong>
      </p>
      <p className={`analysis-save analysis-save--${saver.status}`} role={saver.status === 'error' ? 'alert' : 'status'}>
        {saver.status === 'saving' && 'Сохраняем…'}
        {saver.status === 'saved' && 'Решения сохранены'}
        {saver.status === 'error' && (
          <>
            Не удалось сохранить решения: {saver.error}{' '}
            <button type="button" className="link-button" onClick={saver.retry}>
              Повторить
            </button>
          </>
        )}
      </p>
    </div>
  );
}

/** The suggestions, read page by page with the address's filters, and decided one by one or by filter. */
function SuggestionsCard({ projectId, analysisId, data, search, saver }: { projectId: string; analysisId: string; data: PagedResults; search: SuggestionsSearch; saver: DecisionSaver }) {
  const navigate = useNavigate();
  const { summary } = data;
  const filter = suggestionsFilterOf(search);
  const query = useInfiniteQuery(suggestionsQueryOptions(analysisId, filter));
  const patchSearch = (patch: Partial<SuggestionsSearch>) =>
    void navigate({ to: '/projects/$id/analysis/$analysisId/semantic', params: { id: projectId, analysisId }, search: cleanFilter({ ...search, ...patch }), replace: true, resetScroll: false });

  return (
    <section className="card suggestion-section" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title" className="card__title">
        Предложения <span className="muted">({totalLabelOf(query.data) ?? formatCount(summary.suggestions.total)})</span>
      </h2>
      <SuggestionPresets projectId={projectId} analysisId={analysisId} search={search} />
      <SuggestionFilters summary={summary} search={search} patchSearch={patchSearch} />
      <BulkDecisions filter={filter} listTotal={totalOf(query.data)} saver={saver} />
      <PagedList<SuggestionWithDecision>
        key={JSON.stringify(filter)}
        query={query}
        label="Список предложений"
        noun="предложения"
        testId="suggestions-list"
        keyOf={(item) => item.id}
        estimateSize={180}
        renderItem={(item) => (
          <SuggestionItem
            as="div"
            item={item}
            choice={item.decision}
            onChoose={(choice) => void saver.decideOne(item.id, item.decision ?? 'undecided', choice ?? 'undecided')}
            value={item.value}
            onValueChange={item.kind === 'ad_field' ? (value) => void saver.decideOne(item.id, 'accepted', 'accepted', value) : undefined}
            period={summary.period}
          />
        )}
        empty={<p className="muted">Предложений с такими условиями нет.</p>}
      />
    </section>
  );
}

/** The ready-made filters as tabs. */
function SuggestionPresets({ projectId, analysisId, search }: { projectId: string; analysisId: string; search: SuggestionsSearch }) {
  return (
    <nav className="suggestion-presets" aria-label="Виды предложений">
      {presets.map((preset) => (
        <Link
          key={preset.id}
          to="/projects/$id/analysis/$analysisId/semantic"
          params={{ id: projectId, analysisId }}
          search={preset.search}
          replace
          resetScroll={false}
          className={`filter-tab${sameSearch(preset.search, search) ? ' filter-tab--active' : ''}`}
          aria-current={sameSearch(preset.search, search) ? 'page' : undefined}
        >
          {preset.label}
        </Link>
      ))}
    </nav>
  );
}

/** Category of negatives, campaign, decision and text. */
function SuggestionFilters({ summary, search, patchSearch }: { summary: PagedResults['summary']; search: SuggestionsSearch; patchSearch: (patch: Partial<SuggestionsSearch>) => void }) {
  const text = useSearchText(search.text, (typed) => patchSearch({ text: typed }));
  const categories = summary.suggestions.byKind.filter((entry) => entry.kind === 'negative_keyword' && entry.category && entry.count > 0);
  const categoryOptions = negativeCategories.filter((category) => categories.some((entry) => entry.category === category));
  return (
    <form className="list-filters" role="search" aria-label="Фильтры предложений" onSubmit={text.onSubmit}>
      {categoryOptions.length > 0 && (
        <ListFilterSelect
          label="Категория минус-слов"
          allLabel="Все категории"
          value={search.category}
          options={categoryOptions.map((category) => ({ value: category, label: negativeCategoryLabels[category] }))}
          onChange={(category) => patchSearch(category ? { category, kind: ['negative_keyword'] } : { category: undefined })}
        />
      )}
      {summary.scores.campaigns.length > 1 && (
        <ListFilterSelect label="Кампания" allLabel="Все кампании" value={search.campaign} options={campaignOptions(summary.scores.campaigns)} onChange={(campaign) => patchSearch({ campaign })} />
      )}
      <ListFilterSelect label="Решение" allLabel="Любое" value={search.decision} options={decisionOptions} onChange={(decision) => patchSearch({ decision })} />
      <SearchTextField search={text} placeholder="Слово, фраза, кампания" />
    </form>
  );
}

/** «Принять все …», «Отклонить все …», «Снять решения» for the suggestions of the filter. */
function BulkDecisions({ filter, listTotal, saver }: { filter: SuggestionsListFilter; listTotal: number | null; saver: DecisionSaver }) {
  const accepter = bulkAcceptFilter(filter);
  const what = describeFilter(filter);
  const bulk = async (chosen: SuggestionsListFilter, decision: Decision) => {
    try {
      const answer = await saver.decideAll(chosen, decision);
      const verb = decision === 'accepted' ? 'Принято' : decision === 'rejected' ? 'Отклонено' : 'Снято решение';
      toast.success(`${verb}: ${formatCount(answer.updated)} ${pluralRu(answer.updated, ['предложение', 'предложения', 'предложений'])}`);
    } catch (cause) {
      toast.error(cause instanceof Error ? cause.message : String(cause));
    }
  };
  return (
    <div className="suggestion-section__bulk" role="group" aria-label="Решение по фильтру">
      {accepter ? (
        <button type="button" className="btn btn--small btn--secondary" disabled={listTotal === 0} onClick={() => void bulk(accepter, 'accepted')}>
          Принять все {what}
        </button>
      ) : (
        <span className="muted">«Проверить вручную» принимаются по одному. Чтобы принять разом, выберите вид предложений.</span>
      )}
      <button type="button" className="btn btn--small btn--ghost" disabled={listTotal === 0} onClick={() => void bulk(filter, 'rejected')}>
        Отклонить все {what}
      </button>
      <button type="button" className="btn btn--small btn--ghost" disabled={listTotal === 0} onClick={() => void bulk(filter, 'undecided')}>
        Снять решения
      </button>
    </div>
  );
}

/** What the semantic engine found besides the suggestions: clusters and duplicate sets, read when opened. */
function SemanticFacts({ analysisId, data }: { analysisId: string; data: PagedResults }) {
  const { counts } = data.summary.semantic;
  if (counts.clusters === 0 && counts.duplicates === 0) return null;
  return (
    <section className="card" aria-labelledby="semantic-facts-title">
      <h2 id="semantic-facts-title" className="card__title">
        Структура семантики
      </h2>
      <p className="muted">
        {formatCount(counts.keywords)} {pluralRu(counts.keywords, ['фраза', 'фразы', 'фраз'])}, {formatCount(counts.clusters)}{' '}
        {pluralRu(counts.clusters, ['кластер', 'кластера', 'кластеров'])}, {formatCount(counts.duplicates)}{' '}
        {pluralRu(counts.duplicates, ['группа дублей', 'группы дублей', 'групп дублей'])}.
      </p>
      {counts.clusters > 0 && (
        <SectionDetails
          analysisId={analysisId}
          section="clusters"
          title={`Кластеры по смыслу (${formatCount(counts.clusters)})`}
          render={(cluster) => (
            <>
              <strong>{cluster.lemmas.join(' ')}</strong> — {formatCount(cluster.keywords.length)} {pluralRu(cluster.keywords.length, ['фраза', 'фразы', 'фраз'])}, интент{' '}
              {intentLabels[cluster.intent]}
              {cluster.groupKeys.length > 1 && <span className="muted"> · разбросан по {formatCount(cluster.groupKeys.length)} группам</span>}
            </>
          )}
          keyOf={(cluster) => cluster.id}
        />
      )}
      {counts.duplicates > 0 && (
        <SectionDetails
          analysisId={analysisId}
          section="duplicates"
          title={`Дубли (${formatCount(counts.duplicates)})`}
          render={(set) => (
            <>
              {set.keywords.map((ref) => ref.label ?? ref.key).join(' · ')}
              <span className="muted"> {set.sameGroup ? '(в одной группе)' : '(в разных группах)'}</span>
            </>
          )}
          keyOf={(set) => set.key}
        />
      )}
    </section>
  );
}

type SectionItem<S extends SemanticSection> = import('@contract/analysis-pages.js').SemanticSectionItems[S];

/** A semantic section behind a «details» toggle: nothing is read until it is opened, then a page at a time. */
function SectionDetails<S extends SemanticSection>({
  analysisId,
  section,
  title,
  render,
  keyOf,
}: {
  analysisId: string;
  section: S;
  title: string;
  render: (item: SectionItem<S>) => ReactNode;
  keyOf: (item: SectionItem<S>) => string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>{title}</summary>
      {open && <SectionPages analysisId={analysisId} section={section} render={render} keyOf={keyOf} />}
    </details>
  );
}

function SectionPages<S extends SemanticSection>({ analysisId, section, render, keyOf }: { analysisId: string; section: S; render: (item: SectionItem<S>) => ReactNode; keyOf: (item: SectionItem<S>) => string }) {
  const online = useOnlineStatus();
  const query = useInfiniteQuery(semanticSectionQueryOptions(analysisId, section));
  const items = itemsOf(query.data) as SectionItem<S>[];
  if (query.isPending) return !online || query.fetchStatus === 'paused' ? <NeedsNetwork noun="данные раздела" /> : <Spinner label="Загрузка раздела" />;
  if (query.isError && items.length === 0) return <p className="form-error" role="alert">{query.error.message}</p>;
  return (
    <>
      <ul className="cluster-list">
        {items.map((item) => (
          <li key={keyOf(item)}>{render(item)}</li>
        ))}
      </ul>
      <LoadMore query={query} online={online} noun="данные раздела" />
    </>
  );
}
