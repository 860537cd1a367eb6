import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { MAX_PAGE_CHECK_URLS, pageCheckStatusLabels, type LandingUrlsResponse, type PageCheck } from '@contract/page-check.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { notSavedOffline, useWaitsForNetwork } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { formatDateTime } from '@contract/format';
import { usePaidRunStart } from '@/lib/paid-runs';
import { PaidStartButton, PaidStartWaitHint } from '@/components/ui/PaidStartButton';
import { ShortBalanceNotice } from '@/components/ui/ShortBalanceNotice';
import { insufficientMessage, landingUrlsQueryOptions, pageCheckHistoryQueryOptions, startPageCheck } from '@/features/page-check/api';
import { formatCount, formatPages, formatTokens, pluralRu } from '@/features/page-check/format';

interface Props {
  projectId: string;
  onStarted: (analysis: PageCheck) => void;
}

/** /projects/{id}/page-check/new: the project's landing pages to choose from, the price, the start. */
export function NewPageCheckScreen({ projectId, onStarted }: Props) {
  const urls = useQuery(landingUrlsQueryOptions(projectId));
  const urlsOffline = useWaitsForNetwork(urls);
  return (
    <section className="page page-check-page">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Проверка посадочных страниц</h1>
      </header>
      <p className="muted page-check-lead">
        Проверим, что страницы, на которые ведут объявления, отвечают на ключевые фразы и подтверждают обещания заголовков, открываются без ошибок и
        быстро. Несоответствие снижает показатель качества и конверсию: клики оплачены, а заявок нет.
      </p>
      {urlsOffline ? (
        <p className="muted" role="status" data-testid="needs-network">
          {notSavedOffline('ссылки объявлений')}
        </p>
      ) : urls.isPending ? (
        <div className="state-line">
          <span className="spinner" role="status" aria-label="Загрузка страниц" />
        </div>
      ) : urls.error ? (
        <QueryError error={urls.error} onRetry={() => void urls.refetch()} />
      ) : urls.data.urls.length === 0 ? (
        <div className="state-card">
          <p>В объявлениях проекта нет ссылок на посадочные страницы. Импортируйте кампании с объявлениями, чтобы запустить проверку.</p>
          <Link to="/projects/$id" params={{ id: projectId }} className="btn btn--primary">
            К проекту
          </Link>
        </div>
      ) : (
        <UrlPicker projectId={projectId} data={urls.data} onStarted={onStarted} onPriceChanged={() => void urls.refetch()} />
      )}
      <PreviousRuns projectId={projectId} />
    </section>
  );
}

/** The latest runs of the project: a finished one opens its results, an unfinished one its progress. */
function PreviousRuns({ projectId }: { projectId: string }) {
  const history = useQuery(pageCheckHistoryQueryOptions(projectId));
  if (!history.data || history.data.items.length === 0) return null;
  return (
    <div className="card page-check-history">
      <h2 className="card__title">Предыдущие проверки</h2>
      <ul>
        {history.data.items.map((run) => (
          <li key={run.id}>
            <Link
              to={run.status === 'completed' ? '/projects/$id/page-check/$analysisId/results' : '/projects/$id/page-check/$analysisId/progress'}
              params={{ id: projectId, analysisId: run.id }}
              className="link"
            >
              {formatDateTime(run.created_at)}
            </Link>{' '}
            · {formatPages(run.pages_count)} · {pageCheckStatusLabels[run.status]}
            {run.score !== null && ` · оценка ${run.score} из 100`}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The landing pages of the account, each with how many groups, keywords and ads lead to it. */
function UrlList({ urls, selected, onToggle }: { urls: LandingUrlsResponse['urls']; selected: ReadonlySet<string>; onToggle: (url: string) => void }) {
  return (
    <ul className="page-check-urls">
      {urls.map((item) => (
        <li key={item.url}>
          <label className="checkbox page-check-url">
            <input type="checkbox" checked={selected.has(item.url)} onChange={() => onToggle(item.url)} />
            <span className="page-check-url__text">
              <span className="page-check-url__address">{item.url}</span>
              <span className="muted page-check-url__counts">
                {formatCount(item.groups)} {pluralRu(item.groups, ['группа', 'группы', 'групп'])} · {formatCount(item.keywords)}{' '}
                {pluralRu(item.keywords, ['фраза', 'фразы', 'фраз'])} · {formatCount(item.ads)} {pluralRu(item.ads, ['объявление', 'объявления', 'объявлений'])}
              </span>
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}

function UrlPicker({ projectId, data, onStarted, onPriceChanged }: { projectId: string; data: LandingUrlsResponse; onStarted: Props['onStarted']; onPriceChanged: () => void }) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(data.urls.slice(0, MAX_PAGE_CHECK_URLS).map((item) => item.url)));
  const sending = useRef(false);
  const waitHintId = useId();
  const cost = selected.size * data.price_per_page;

  // One key per form: a retry after a lost answer is the same start, never a second charge.
  const start = usePaidRunStart(
    (idempotencyKey, _: void, expectedCost) =>
      startPageCheck(projectId, { urls: data.urls.filter((item) => selected.has(item.url)).map((item) => item.url), idempotency_key: idempotencyKey, expected_cost: expectedCost }),
    {
      price: cost,
      onPriceChanged,
      onStarted,
      onSettled: () => {
        sending.current = false;
      },
    },
  );

  const toggle = (url: string) => {
    start.reset();
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(url)) next.delete(url);
      else next.add(url);
      return next;
    });
  };
  const allChosen = selected.size === Math.min(data.urls.length, MAX_PAGE_CHECK_URLS);
  const toggleAll = () => {
    start.reset();
    setSelected(allChosen ? new Set() : new Set(data.urls.slice(0, MAX_PAGE_CHECK_URLS).map((item) => item.url)));
  };

  const tooMany = selected.size > MAX_PAGE_CHECK_URLS;
  const short = cost > data.balance;
  const shortDetail = insufficientMessage(start.error);
  const canStart = selected.size > 0 && !tooMany && !short && !start.isPending;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (sending.current || !canStart || start.wait) return;
    sending.current = true;
    start.mutate();
  };

  return (
    <form className="page-check-new" onSubmit={submit} noValidate>
      <fieldset className="card page-check-fieldset">
        <legend className="card__title">Посадочные страницы</legend>
        <label className="checkbox page-check-url page-check-url--all">
          <input type="checkbox" checked={allChosen} onChange={toggleAll} />
          <span>Все страницы ({formatCount(data.urls.length)})</span>
        </label>
        {data.urls.length > MAX_PAGE_CHECK_URLS && <p className="muted">За один анализ проверяется не больше {MAX_PAGE_CHECK_URLS} страниц: выбраны те, на которые ведёт больше групп.</p>}
        <UrlList urls={data.urls} selected={selected} onToggle={toggle} />
        {selected.size === 0 && (
          <p className="field__error" role="alert">
            Выберите хотя бы одну страницу
          </p>
        )}
        {tooMany && (
          <p className="field__error" role="alert">
            За один анализ можно проверить не больше 100 страниц
          </p>
        )}
      </fieldset>

      <div className="card page-check-cost" aria-live="polite">
        <p>
          Выбрано: <strong>{formatPages(selected.size)}</strong>
        </p>
        <p>
          Стоимость: <strong data-testid="page-check-cost">{formatTokens(cost)}</strong> <span className="muted">({formatTokens(data.price_per_page)} за страницу)</span>
        </p>
        <p className="muted">На балансе: {formatTokens(data.balance)}</p>
        <p className="muted">Страницы, которые не ответят (домен не найден, сайт не отвечает), не оплачиваются: токены за них вернутся после проверки.</p>
        {(short || shortDetail) && <ShortBalanceNotice detail={shortDetail} />}
        {start.error && !shortDetail && (
          <p className="field__error" role="alert">
            {start.error.message}
          </p>
        )}
        <PaidStartButton wait={start.wait} pending={start.isPending} disabled={!canStart} label="Проверить страницы" pendingLabel="Запускаем…" hintId={waitHintId} />
        <PaidStartWaitHint wait={start.wait} id={waitHintId} />
      </div>
    </form>
  );
}
