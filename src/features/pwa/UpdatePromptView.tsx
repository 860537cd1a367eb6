export const UPDATE_AVAILABLE_TEXT = 'Доступна новая версия';
export const UPDATE_BUTTON_TEXT = 'Обновить';
export const OFFLINE_READY_TEXT = 'Приложение готово к работе без сети';

interface Props {
  needRefresh: boolean;
  offlineReady: boolean;
  updating?: boolean;
  onUpdate: () => void;
  onClose: () => void;
}

/** The prompt shown when a new service worker waits (or when the app was first cached). */
export function UpdatePromptView({ needRefresh, offlineReady, updating = false, onUpdate, onClose }: Props) {
  if (!needRefresh && !offlineReady) return null;
  return (
    <div className="update-prompt" role="alert">
      <p className="update-prompt__text">{needRefresh ? UPDATE_AVAILABLE_TEXT : OFFLINE_READY_TEXT}</p>
      <div className="update-prompt__actions">
        {needRefresh && (
          <button type="button" className="btn btn--primary btn--small" onClick={onUpdate} disabled={updating}>
            {UPDATE_BUTTON_TEXT}
          </button>
        )}
        <button type="button" className="btn btn--ghost btn--small" onClick={onClose} aria-label="Закрыть">
          Закрыть
        </button>
      </div>
    </div>
  );
}
