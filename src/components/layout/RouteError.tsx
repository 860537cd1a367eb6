import { isChunkLoadError } from '@/lib/chunk-reload';
import { NewVersionNotice } from '@/components/NewVersionNotice';

/**
 * The error screen of every route (the root's `errorComponent` and the router's default): a chunk that
 * a deploy removed loads the new version; any other error shows its message with «Повторить».
 */
export function RouteError({ error, reset }: { error: unknown; reset: () => void }) {
  // A screen's code is gone from the server (a deploy while the app was open): load the new version.
  if (isChunkLoadError(error)) return <NewVersionNotice />;
  const message = error instanceof Error ? error.message : 'Неизвестная ошибка';
  return (
    <section className="page page--narrow state-card" role="alert">
      <h1>Что-то пошло не так</h1>
      <p className="muted">{message}</p>
      <button type="button" className="btn btn--primary" onClick={reset}>
        Повторить
      </button>
    </section>
  );
}
