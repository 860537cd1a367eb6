import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** Online as React Query sees it (the same signal that pauses and resumes mutations). */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(
    (notify) => onlineManager.subscribe(notify),
    () => onlineManager.isOnline(),
    () => true,
  );
}
