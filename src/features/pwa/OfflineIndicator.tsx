import { useOnlineStatus } from '@/lib/useOnlineStatus';

export const OFFLINE_TEXT = 'Нет подключения к сети. Показаны сохранённые данные, изменения отправятся, когда связь восстановится.';

/** A thin bar under the header while the browser is offline. */
export function OfflineIndicator() {
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div className="offline-indicator" role="status" aria-live="polite">
      <span className="offline-indicator__dot" aria-hidden="true" />
      {OFFLINE_TEXT}
    </div>
  );
}
