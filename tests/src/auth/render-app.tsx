/** Renders the real app tree (router + providers) at a path, for screen tests. */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { sessionStore } from '@/app/session';
import { createTestRouter } from '../routes/router-harness';

export async function renderAt(path: string, options: { queryClient?: QueryClient } = {}) {
  const router = createTestRouter(path, options.queryClient);
  await router.load();
  const queryClient = router.options.context!.queryClient!;
  const view = render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={sessionStore}>
        <RouterProvider router={router} />
      </JotaiProvider>
    </QueryClientProvider>,
  );
  return { router, ...view };
}
