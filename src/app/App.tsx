import { Provider as JotaiProvider } from 'jotai';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { sessionStore } from '@/app/session';
import { persistOptions, queryClient } from './query-client';
import { router } from './router';

/** Providers, outermost first: the persisted query cache, the jotai store of the session, the router. */
export function App() {
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
      <JotaiProvider store={sessionStore}>
        <RouterProvider router={router} />
      </JotaiProvider>
    </PersistQueryClientProvider>
  );
}
