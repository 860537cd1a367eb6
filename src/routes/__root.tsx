import { Link, Outlet, createRootRouteWithContext, useMatches } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import type { RouterContext } from '@/app/router-context';
import { BottomDock } from '@/components/layout/BottomDock';
import { CookieBanner } from '@/components/layout/CookieBanner';
import { Footer } from '@/components/layout/Footer';
import { RouteError } from '@/components/layout/RouteError';
import { OfflineIndicator } from '@/features/pwa/OfflineIndicator';
import { UpdatePrompt } from '@/features/pwa/UpdatePrompt';

/*
 * The header (balance, notifications, user menu and the API modules behind them) and the toaster
 * (sonner) are loaded on demand: /auth shows neither, so its first load on a slow phone skips them.
 */
const Header = lazy(() => import('@/app/Header').then((module) => ({ default: module.Header })));
const AppToaster = lazy(() => import('@/components/layout/AppToaster').then((module) => ({ default: module.AppToaster })));

export const Route = createRootRouteWithContext<RouterContext>()({
  // Every route passes through here: a stored token is turned into a session before any guard runs.
  beforeLoad: async ({ context }) => {
    await context.session.ensureInitialized();
  },
  component: RootLayout,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

function RootLayout() {
  const hideHeader = useMatches({ select: (matches) => matches.some((match) => match.staticData?.hideHeader === true) });
  const hideFooter = useMatches({ select: (matches) => matches.some((match) => match.staticData?.hideFooter === true) });
  return (
    <div className="app-shell">
      {!hideHeader && (
        <Suspense fallback={<div className="app-header app-header--placeholder" aria-hidden="true" />}>
          <Header />
        </Suspense>
      )}
      <OfflineIndicator />
      <main className="app-main">
        <Outlet />
      </main>
      {!hideFooter && <Footer />}
      {/* The cookie banner and the update prompt share one bottom dock, so neither covers the other. */}
      <BottomDock>
        <UpdatePrompt />
        <CookieBanner />
      </BottomDock>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </div>
  );
}

function NotFound() {
  return (
    <section className="page page--narrow state-card">
      <h1>Страница не найдена</h1>
      <p className="muted">Такой страницы нет. Проверьте адрес или вернитесь к проектам.</p>
      <Link to="/projects" className="btn btn--primary">
        К проектам
      </Link>
    </section>
  );
}
