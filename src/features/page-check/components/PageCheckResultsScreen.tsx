import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { wasChecked, type CheckedPage, type PageIssue, type PageCheckResult, type Severity } from '@contract/page-check.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { AnalysisNotFound, PageLoading } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@contract/format';
import { pageCheckResultsQueryOptions } from '@/features/page-check/api';
import { formatCountOf } from '@contract/format';
import { formatCount, formatPercent, formatPages, formatRub, scoreBand } from '@/features/page-check/format';

interface Props {
  projectId: string;
  analysisId: string;
}

const severities: Severity[] = ['high', 'medium', 'low'];
const severityShort: Record<Severity, string> = { high: 'Критично', medium: 'Важно', low: 'Совет' };
/** The summary's counters of page problems (the audit's money headings do not fit them). */
export const severityCounterLabels: Record<Severity, string> = { high: 'Критичных проблем', medium: 'Важных проблем', low: 'Советов' };

/** A page the ads lead to that does not open as a readable HTML page (error, 4xx/5xx, not HTML). */
export const isBrokenPage = (page: CheckedPage) => Boolean(page.error) || page.status === null || page.status < 200 || page.status >= 300;

/** /projects/{id}/page-check/{analysisId}/results: the account summary and a row per page, worst first. */
export function PageCheckResultsScreen({ projectId, analysisId }: Props) {
  const results = useQuery(pageCheckResultsQueryOptions(analysisId));
  if (results.isPending) {
    return <PageLoading label="Загрузка результатов" />;
  }
  if (!results.data) {
    const error = results.error;
    const notFound = error instanceof ApiError && error.status === 404;
    const notReady = error instanceof ApiError && error.status === 409;
    return (
      <section className="page page--narrow">
        {notFound ? (
          <AnalysisNotFound projectId={projectId} />
        ) : notReady ? (
          <div className="state-card state-card--error" role="alert">
            <h1>Результаты ещё не готовы</h1>
            <Link to="/projects/$id/page-check/$analysisId/progress" params={{ id: projectId, analysisId }} className="btn btn--primary">
              К ходу проверки
            </Link>
          </div>
        ) : (
          <QueryError error={error!} onRetry={() => void results.refetch()} />
        )}
      </section>
    );
  }
  const { analysis, result } = results.data;
  return (
    <section className="page page-check-page page-check-results">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Проверка посадочных страниц</h1>
        <Link to="/projects/$id/page-check/new" params={{ id: projectId }} className="btn btn--secondary">
          Новая проверка
        </Link>
      </header>
      <p className="muted">Проверка от {formatDateTime(analysis.finished_at ?? analysis.created_at)}</p>
      <Summary result={result} />
      <h2 className="page-check-section-title">Страницы</h2>
      <div className="table-wrap">
        <table className="table page-check-table">
          <thead>
            <tr>
              <th scope="col">Оценка</th>
              <th scope="col">Страница</th>
              <th scope="col">Клики и расход</th>
              <th scope="col">Ответ</th>
              <th scope="col">Заголовки страницы</th>
              <th scope="col">Покрытие фраз</th>
              <th scope="col">Не найдено на странице</th>
              <th scope="col">Проблемы</th>
            </tr>
          </thead>
          <tbody>
            {result.pages.map((page) => (
              <PageRow key={page.url} page={page} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Summary({ result }: { result: PageCheckResult }) {
  const { summary } = result;
  // Money of paid clicks that land where they cannot convert: pages that do not open, from the ads' statistics.
  const broken = result.pages.filter(isBrokenPage);
  const costOnBroken = broken.reduce((sum, page) => sum + page.cost, 0);
  // Counted from the pages: reports written before the summary counted them say the same.
  const unchecked = result.pages.filter((page) => !wasChecked(page)).length;
  return (
    <div className="card page-check-summary" aria-label="Сводка">
      {summary.averageScore !== null && unchecked < result.pages.length ? (
        <div className="page-check-summary__score">
          <span className={`page-check-score page-check-score--${scoreBand(summary.averageScore)} page-check-score--large`}>{summary.averageScore}</span>
          <span className="muted">{unchecked > 0 ? `средняя оценка из 100 (по ответившим страницам: ${result.pages.length - unchecked} из ${result.pages.length})` : 'средняя оценка из 100'}</span>
        </div>
      ) : (
        <p className="page-check-summary__none" role="status">
          <strong>Ни одна страница не ответила — оценить их не по чему.</strong> Сайт не открылся ни по одному адресу: проверьте, работает ли он и верны
          ли ссылки в объявлениях. Токены за эти страницы возвращены.
        </p>
      )}
      <dl className="page-check-summary__facts">
        <div>
          <dt>Проверено</dt>
          <dd>{formatPages(result.pages.length - unchecked)}</dd>
        </div>
        {unchecked > 0 && (
          <div>
            <dt>Не удалось проверить (нет ответа), токены возвращены</dt>
            <dd>{formatPages(unchecked)}</dd>
          </div>
        )}
        <div>
          <dt>Открываются</dt>
          <dd>{formatCount(summary.reachable)}</dd>
        </div>
        <div>
          <dt>Слабые страницы (ниже 50)</dt>
          <dd>{formatCount(summary.weakPages)}</dd>
        </div>
        {costOnBroken > 0 && (
          <div>
            <dt>Клики на неработающие страницы ({formatPages(broken.length)})</dt>
            <dd className="page-check-money">{formatRub(costOnBroken)}</dd>
          </div>
        )}
        {summary.costOnWeakPages > 0 && (
          <div>
            <dt>Расход на рекламу, ведущую на слабые страницы</dt>
            <dd className="page-check-money">{formatRub(summary.costOnWeakPages)}</dd>
          </div>
        )}
        {severities.map((severity) => (
          <div key={severity}>
            <dt>{severityCounterLabels[severity]}</dt>
            <dd>{formatCount(summary.issuesBySeverity[severity])}</dd>
          </div>
        ))}
      </dl>
      {summary.topIssues.length > 0 && (
        <div>
          <h2 className="card__title">Частые проблемы</h2>
          <ul className="page-check-top-issues">
            {summary.topIssues.map((item) => (
              <li key={item.code}>
                {item.title}: {formatPages(item.pages)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function answerOf(page: CheckedPage): string {
  if (page.error) return page.error;
  const parts = [`HTTP ${page.status}`];
  if (page.redirects.length > 0) parts.push(`перенаправлений: ${page.redirects.length}`);
  if (page.timingMs !== null) parts.push(`${(page.timingMs / 1000).toFixed(1).replace('.', ',')} с`);
  return parts.join(' · ');
}

/** Paid clicks of the ads leading to the page and their cost, where the import had statistics. */
function ClicksAndCost({ page }: { page: CheckedPage }) {
  if (page.clicks <= 0 && page.cost <= 0) return <span className="muted">нет статистики</span>;
  return (
    <>
      <span className="page-check-row__money">{formatRub(page.cost)}</span>
      <span className="muted">
        {formatCountOf(page.clicks, ['клик', 'клика', 'кликов'])}
        {isBrokenPage(page) ? ' на неработающую страницу' : ''}
      </span>
    </>
  );
}

function PageRow({ page }: { page: CheckedPage }) {
  const missing = [...new Set(page.groups.flatMap((group) => group.missing))];
  const readable = !isBrokenPage(page);
  return (
    <tr className="page-check-row">
      <td data-label="Оценка" className="page-check-row__score">
        {wasChecked(page) ? (
          <span className={`page-check-score page-check-score--${scoreBand(page.score)}`} aria-label={`Оценка ${page.score} из 100`}>
            {page.score}
          </span>
        ) : (
          <span className="page-check-score page-check-score--poor" aria-label="Не проверена: нет ответа">
            —
          </span>
        )}
      </td>
      <td data-label="Страница" className="page-check-row__url">
        <a href={page.url} target="_blank" rel="noreferrer noopener">
          {page.url}
        </a>
        {page.finalUrl && page.finalUrl !== page.url && <span className="muted page-check-row__final">→ {page.finalUrl}</span>}
        {page.ads > 0 && (
          <span className="muted">
            {formatCountOf(page.ads, ['объявление ведёт', 'объявления ведут', 'объявлений ведут'])} сюда
          </span>
        )}
      </td>
      <td data-label="Клики и расход">
        <ClicksAndCost page={page} />
      </td>
      <td data-label="Ответ сервера">{answerOf(page)}</td>
      <td data-label="Заголовки страницы">
        {readable ? (
          <>
            <span className="page-check-row__title">{page.title ? `Заголовок вкладки (title): ${page.title}` : <em className="muted">нет заголовка вкладки (title)</em>}</span>
            <span className="muted">{page.h1[0] ? `Главный заголовок (H1): ${page.h1[0]}` : 'нет главного заголовка (H1)'}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Покрытие фраз">
        {readable && page.groups.length > 0 ? (
          <>
            <div className={`page-check-bar page-check-bar--${scoreBand(page.coverage * 100)}`} role="meter" aria-label="Покрытие ключевых фраз" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(page.coverage * 100)}>
              <span style={{ width: `${Math.round(page.coverage * 100)}%` }} />
            </div>
            <span className="muted">
              {formatPercent(page.coverage)} · в заголовках {formatPercent(page.headingCoverage)}
            </span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Не найдено на странице">
        {missing.length > 0 ? <span className="page-check-missing">{missing.join(', ')}</span> : readable ? <span className="muted">всё найдено</span> : '—'}
        {page.adPromise.missing.length > 0 && <span className="muted page-check-promise">Из заголовков: {page.adPromise.missing.join(', ')}</span>}
      </td>
      <td data-label="Проблемы" className="page-check-row__issues">
        <IssueList issues={page.issues} />
      </td>
    </tr>
  );
}

function IssueList({ issues }: { issues: PageIssue[] }) {
  const [open, setOpen] = useState<string | null>(null);
  if (issues.length === 0) return <span className="muted">Нет</span>;
  return (
    <ul className="page-check-issues">
      {severities.flatMap((severity) =>
        issues
          .filter((item) => item.severity === severity)
          .map((item) => (
            <li key={item.code} className={`page-check-issue page-check-issue--${severity}`}>
              <button type="button" className="page-check-issue__toggle" aria-expanded={open === item.code} onClick={() => setOpen(open === item.code ? null : item.code)}>
                <span className={`badge page-check-severity page-check-severity--${severity}`}>{severityShort[severity]}</span> {item.title}
              </button>
              {open === item.code && (
                <div className="page-check-issue__detail">
                  <p>{item.explanation}</p>
                  <p>
                    <strong>Что сделать:</strong> {item.fix}
                  </p>
                </div>
              )}
            </li>
          )),
      )}
    </ul>
  );
}
