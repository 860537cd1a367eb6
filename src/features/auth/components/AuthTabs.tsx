import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

export type AuthTab = 'login' | 'register';

/** /auth: the Login (default) and Register tabs. Both land on /projects after success. */
export function AuthTabs({ tab }: { tab: AuthTab }) {
  const navigate = useNavigate();
  const { clearError } = useSession();

  // An error belongs to the form that produced it.
  useEffect(() => clearError(), [tab, clearError]);

  const select = (next: AuthTab) => void navigate({ to: '/auth', search: next === 'login' ? {} : { tab: next }, replace: true });
  const goHome = () => void navigate({ to: '/projects' });

  return (
    <AuthCard>
      <div className="tabs" role="tablist" aria-label="Вход или регистрация">
        <button type="button" role="tab" id="tab-login" aria-selected={tab === 'login'} aria-controls="panel-auth" className="tabs__tab" onClick={() => select('login')}>
          Вход
        </button>
        <button
          type="button"
          role="tab"
          id="tab-register"
          aria-selected={tab === 'register'}
          aria-controls="panel-auth"
          className="tabs__tab"
          onClick={() => select('register')}
        >
          Регистрация
        </button>
      </div>
      <div role="tabpanel" id="panel-auth" aria-labelledby={tab === 'login' ? 'tab-login' : 'tab-register'}>
        {tab === 'login' ? <LoginForm onSuccess={goHome} /> : <RegisterForm onSuccess={goHome} />}
      </div>
    </AuthCard>
  );
}
