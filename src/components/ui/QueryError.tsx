/** A failed load: the message (server's or the spec's fallback) and a retry button. */
export function QueryError({ error, onRetry }: { error: { message: string }; onRetry: () => void }) {
  return (
    <div className="state-card state-card--error" role="alert">
      <p>{error.message}</p>
      <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
        Повторить
      </button>
    </div>
  );
}
