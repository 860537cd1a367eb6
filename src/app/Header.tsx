import { Link } from '@tanstack/react-router';
import { useSession } from '@/app/session';
import { NotificationCenter } from '@/features/notifications/NotificationCenter';
import { BalanceIndicator } from '@/app/BalanceIndicator';
import { UserMenu } from '@/components/layout/UserMenu';
import '@/components/layout/layout.css';

export const LOGO_SRC = '/logo.png';

/**
 * Logo, the Projects link and, for a logged-in user, balance, notifications and the user menu.
 * Guests (on /about) get a login link instead: their balance and menu mean nothing yet.
 */
export function Header() {
  const { isAuthenticated } = useSession();
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/projects" className="app-header__logo" aria-label="Reklama Lab — к проектам">
          <img src={LOGO_SRC} alt="Reklama Lab" width={36} height={36} />
          <span className="app-header__brand">Reklama Lab</span>
        </Link>
        {isAuthenticated ? (
          <>
            <nav className="app-header__nav" aria-label="Основная навигация">
              <Link
                to="/projects"
                className="app-header__link"
                activeProps={{ className: 'app-header__link--active' }}
              >
                Проекты
              </Link>
            </nav>
            <div className="app-header__actions">
              <BalanceIndicator />
              <NotificationCenter />
              <UserMenu />
            </div>
          </>
        ) : (
          <div className="app-header__actions">
            <Link to="/auth" className="app-header__login">
              Войти
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}
