import { useEffect, useState, useSyncExternalStore } from 'react';
import { applyUpdate, dismissServiceWorkerPrompt, getServiceWorkerState, registerServiceWorker, subscribeServiceWorker } from './service-worker';
import { UpdatePromptView } from './UpdatePromptView';

/** Registers the service worker (production only) and offers a waiting update: 'Доступна новая версия'. */
export function UpdatePrompt({ register = import.meta.env.PROD }: { register?: boolean }) {
  const [updating, setUpdating] = useState(false);
  const sw = useSyncExternalStore(subscribeServiceWorker, getServiceWorkerState, getServiceWorkerState);

  useEffect(() => {
    if (register) registerServiceWorker();
  }, [register]);

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
