import type { QueryClient } from '@tanstack/react-query';
import type { Session } from '@/app/session';

/** What every route's beforeLoad and loader receive. */
export interface RouterContext {
  queryClient: QueryClient;
  session: Session;
}
