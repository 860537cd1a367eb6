import { useEffect, useState, useSyncExternalStore } from 'react';
import { applyUpdate, dismissServiceWorkerPrompt, getServiceWorkerState, registerServiceWorker, subscribeServiceWorker } from './service-worker';
import { UpdatePromptView } from './UpdatePromptView';

export const OFFLINE_READY_VISIBLE_MS = 6000;

/** Registers the service worker (production only) and offers a waiting update: 'Доступна новая версия'. */
export function UpdatePrompt({ register = import.meta.env.PROD }: { register?: boolean }) {
  const [updating, setUpdating] = useState(false);
  const sw = useSyncExternalStore(subscribeServiceWorker, getServiceWorkerState, getServiceWorkerState);

  useEffect(() => {
    if (register) void registerServiceWorker();
  }, [register]);

  // "Ready offline" is news, not a question: it goes away by itself. An update waits for the user.
  const offlineNoticeOnly = sw.offlineReady && !sw.needRefresh;
  useEffect(() => {
    if (!offlineNoticeOnly) return;
    const timer = setTimeout(dismissServiceWorkerPrompt, OFFLINE_READY_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [offlineNoticeOnly]);

  return (
    <UpdatePromptView
      needRefresh={sw.needRefresh}
      offlineReady={sw.offlineReady}
      updating={updating}
      onUpdate={() => {
        setUpdating(true);
        applyUpdate();
      }}
      onClose={dismissServiceWorkerPrompt}
    />
  );
}
