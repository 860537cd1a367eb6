import type { FetchStatus } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useOnlineStatus } from '@/lib/useOnlineStatus';
import { Spinner } from './form';

/** What a screen's query has while nothing is shown yet. */
interface PendingQuery {
  isPending: boolean;
  fetchStatus: FetchStatus;
}

/**
 * A query with nothing to show that cannot ask now: offline, React Query holds the fetch until the network
 * is back (`fetchStatus: 'paused'`), so a spinner would turn forever. Answers this device kept (the
 * queries marked `meta.persist`) are shown instead and never get here.
 */
export function useWaitsForNetwork(query: PendingQuery | undefined): boolean {
  const online = useOnlineStatus();
  return query !== undefined && query.isPending && (!online || query.fetchStatus === 'paused');
}

/** Offline, about data this device has not kept: what it is and that it comes with the network. */
export const notSavedOffline = (what: string) => `Нет подключения к сети, а ${what} на этом устройстве ещё не сохранены: они загрузятся, когда связь появится.`;

/**
 * A whole screen still loading what it shows: only a spinner, named for screen readers. Given the screen's
 * query, offline without a saved copy it says so instead (`offlineText`, or a general sentence).
 */
export function PageLoading({ label, query, offlineText }: { label: string; query?: PendingQuery; offlineText?: string }) {
  if (useWaitsForNetwork(query)) {
    return (
      <section className="page">
        <div className="state-card" role="status" data-testid="needs-network">
          <h1>Нет подключения к сети</h1>
          <p className="muted">{offlineText ?? 'Этот экран ещё не открывался на этом устройстве: он загрузится, когда связь появится.'}</p>
        </div>
      </section>
    );
  }
  return (
    <section className="page state-line">
      <Spinner label={label} />
    </section>
  );
}

/** One card's data still loading: its line («Загрузка пакетов…»), or offline without a saved copy, that note. */
export function LoadingLine({ query, label, offlineText }: { query: PendingQuery; label: string; offlineText: string }) {
  const waits = useWaitsForNetwork(query);
  if (!query.isPending) return null;
  if (waits) {
    return (
      <p className="muted" role="status" data-testid="needs-network">
        {offlineText}
      </p>
    );
  }
  return <p className="state-line">{label}</p>;
}

/** A run the server does not know (a campaign audit or a page check), with the way back to its project. */
export function AnalysisNotFound({ projectId }: { projectId: string }) {
  return (
    <div className="state-card state-card--error" role="alert">
      <h1>Анализ не найден</h1>
      <Link to="/projects/$id" params={{ id: projectId }} className="btn btn--primary">
        К проекту
      </Link>
    </div>
  );
}
