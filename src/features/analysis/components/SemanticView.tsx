import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { AnalysisResults, AuditResult } from '../../../contract/analysis.js';
import { negativeCategoryLabels, type QueryIntent } from '../../../contract/analysis-results.js';
import type { StatsPeriod } from '../../../contract/campaigns.js';
import { BackToProjectLink } from '../../../components/ui/BackToProjectLink';
import { formatCount, pluralRu } from '../format';
import { choiceOf, decide, suggestionSections, withValue, type Choice, type SuggestionSection } from '../result-model';
import { useDecisions } from '../useDecisions';
import { AuditResultLoader } from './AuditResultLoader';
import { SuggestionItem } from './SuggestionItem';

/** Items shown per section before «Показать ещё»: big accounts have thousands of suggestions. */
export const SECTION_PAGE = 30;

const intentLabels: Record<QueryIntent, string> = {
  commercial: 'коммерческий',
  informational: 'информационный',
  navigational: 'навигационный',
  unknown: 'не определён',
};

/** /projects/{id}/analysis/{analysisId}/semantic: accept or reject every suggestion, then on to the results. */
export function SemanticView({ projectId, analysisId }: { projectId: string; analysisId: string }) {
  return (
    <AuditResultLoader projectId={projectId} analysisId={analysisId} loadingLabel="Загрузка результатов">
      {(data, audit) => <SemanticScreen projectId={projectId} analysisId={analysisId} data={data} audit={audit} />}
    </AuditResultLoader>
  );
}

function SemanticScreen({ projectId, analysisId, data, audit }: { projectId: string; analysisId: string; data: AnalysisResults; audit: AuditResult }) {
  const navigate = useNavigate();
  const { decisions, change, flush, status, error } = useDecisions(analysisId, data.decisions);
  const sections = useMemo(() => suggestionSections(audit), [audit]);
  const [leaving, setLeaving] = useState(false);
  const total = sections.reduce((sum, section) => sum + section.items.length, 0);

  const goToResults = async () => {
    setLeaving(true);
    try {
      await flush();
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
      <p className="lead">
        Примите изменения, которые хотите внести, и отклоните лишние. В выгрузку попадут только принятые.
      </p>

      <div className="card analysis-decision-bar" aria-live="polite">
        <p>
          Принято <strong data-testid="accepted-count">{formatCount(decisions.accepted.length)}</strong> · отклонено{' '}
          <strong>{formatCount(decisions.rejected.length)}</strong> · без решения{' '}
          <strong>{formatCount(Math.max(0, total - decisions.accepted.length - decisions.rejected.length))}</strong>
        </p>
        <p className={`analysis-save analysis-save--${status}`} role={status === 'error' ? 'alert' : 'status'}>
          {status === 'saving' && 'Сохраняем…'}
          {status === 'saved' && 'Решения сохранены'}
          {status === 'error' && (
            <>
              Не удалось сохранить решения: {error}{' '}
              <button type="button" className="link-button" onClick={() => void flush().catch(() => undefined)}>
                Повторить
              </button>
            </>
          )}
        </p>
      </div>

      {audit.semantic.notices.map((notice) => (
        <p key={notice.code} className="muted analysis-notice">
          {notice.message}
        </p>
      ))}

      {sections.length === 0 && (
        <div className="state-card">
          <p>Анализ не нашёл изменений, которые нужно принять: минус-слова, кросс-минусовка и объявления в порядке.</p>
        </div>
      )}

      {sections.map((section) => (
        <SectionCard
          key={section.id}
          section={section}
          period={audit.scoring.period}
          choiceOf={(id) => choiceOf(decisions, id)}
          onChoose={(ids, choice) => change(decide(decisions, ids, choice))}
          valueOf={(id) => decisions.values?.[id]}
          onValueChange={(id, value, suggested) => change(withValue(decisions, id, value, suggested))}
        />
      ))}

      <SemanticFacts audit={audit} />

      <div className="analysis-actions analysis-actions--sticky">
        <button type="button" className="btn btn--primary" onClick={() => void goToResults()} disabled={leaving}>
          К результатам
        </button>
      </div>
    </section>
  );
}

function SectionCard({
  section,
  period,
  choiceOf: choiceFor,
  onChoose,
  valueOf,
  onValueChange,
}: {
  section: SuggestionSection;
  period: StatsPeriod | null;
  choiceOf: (id: string) => Choice;
  onChoose: (ids: string[], choice: Choice) => void;
  valueOf: (id: string) => string | undefined;
  onValueChange: (id: string, value: string, suggested: string) => void;
}) {
  const [shown, setShown] = useState(SECTION_PAGE);
  const ids = section.items.map((item) => item.id);
  const titleId = `section-${section.id}`;
  let lastCategory: string | null = null;
  return (
    <section className="card suggestion-section" aria-labelledby={titleId}>
      <header className="suggestion-section__head">
        <h2 id={titleId} className="card__title">
          {section.title} <span className="muted">({formatCount(section.items.length)})</span>
        </h2>
        {section.bulk && (
          <div className="suggestion-section__bulk">
            <button type="button" className="btn btn--small btn--secondary" onClick={() => onChoose(ids, 'accepted')}>
              Принять все
            </button>
            <button type="button" className="btn btn--small btn--ghost" onClick={() => onChoose(ids, 'rejected')}>
              Отклонить все
            </button>
          </div>
        )}
      </header>
      <p className="muted">{section.hint}</p>
      <ul className="suggestion-list">
        {section.items.slice(0, shown).map((item) => {
          const category = section.categoryOf?.(item) ?? null;
          const heading = category && category !== lastCategory ? negativeCategoryLabels[category] : null;
          lastCategory = category;
          return (
            <SuggestionWithHeading key={item.id} heading={heading}>
              <SuggestionItem
                item={item}
                choice={choiceFor(item.id)}
                onChoose={(choice) => onChoose([item.id], choice)}
                value={valueOf(item.id)}
                onValueChange={item.kind === 'ad_field' ? (value) => onValueChange(item.id, value, item.after) : undefined}
                period={period}
              />
            </SuggestionWithHeading>
          );
        })}
      </ul>
      {section.items.length > shown && (
        <button type="button" className="btn btn--ghost btn--small" onClick={() => setShown((value) => value + SECTION_PAGE)}>
          Показать ещё {formatCount(Math.min(SECTION_PAGE, section.items.length - shown))}
        </button>
      )}
    </section>
  );
}

function SuggestionWithHeading({ heading, children }: { heading: string | null; children: React.ReactNode }) {
  return (
    <>
      {heading && <li className="suggestion-list__heading">{heading}</li>}
      {children}
    </>
  );
}

/** What the semantic engine found besides the suggestions: clusters and duplicate sets. */
function SemanticFacts({ audit }: { audit: AuditResult }) {
  const { clusters, duplicates, counts } = audit.semantic;
  if (clusters.length === 0 && duplicates.length === 0) return null;
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
      {clusters.length > 0 && (
        <details>
          <summary>Кластеры по смыслу ({formatCount(clusters.length)})</summary>
          <ul className="cluster-list">
            {clusters.slice(0, 50).map((cluster) => (
              <li key={cluster.id}>
                <strong>{cluster.lemmas.join(' ')}</strong> — {formatCount(cluster.keywords.length)}{' '}
                {pluralRu(cluster.keywords.length, ['фраза', 'фразы', 'фраз'])}, интент {intentLabels[cluster.intent]}
                {cluster.groupKeys.length > 1 && <span className="muted"> · разбросан по {formatCount(cluster.groupKeys.length)} группам</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {duplicates.length > 0 && (
        <details>
          <summary>Дубли ({formatCount(duplicates.length)})</summary>
          <ul className="cluster-list">
            {duplicates.slice(0, 50).map((set) => (
              <li key={set.key}>
                {set.keywords.map((ref) => ref.label ?? ref.key).join(' · ')}
                <span className="muted"> {set.sameGroup ? '(в одной группе)' : '(в разных группах)'}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
