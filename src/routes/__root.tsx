import { Link, Outlet, createRootRouteWithContext, useMatches } from '@tanstack/react-router';
import type { RouterContext } from '../app/router-context';
import { AppToaster } from '../components/layout/AppToaster';
import { CookieBanner } from '../components/layout/CookieBanner';
import { Footer } from '../components/layout/Footer';
import { Header } from '@/app/Header';
import { RouteError } from '../components/layout/RouteError';
import { OfflineIndicator } from '../features/pwa/OfflineIndicator';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt';

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
  return (
    <div className="app-shell">
      {!hideHeader && <Header />}
      <OfflineIndicator />
      <main className="app-main">
        <Outlet />
      </main>
      <Footer />
      <CookieBanner />
      <AppToaster />
      <UpdatePrompt />
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
