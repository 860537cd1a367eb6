import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

export type AuthTab = 'login' | 'register';

export const CHECK_MAIL_TITLE = 'Проверьте почту';

/**
 * /auth: the Login (default) and Register tabs. A login lands on /projects; a registration shows
 * «Проверьте почту» (issue 27: it starts no session, and its answer does not say whether the address
 * already had an account), and the person signs in after following the link from the mail.
 */
export function AuthTabs({ tab }: { tab: AuthTab }) {
  const navigate = useNavigate();
  const { clearError } = useSession();
  const [mailSent, setMailSent] = useState<string | null>(null);

  // An error belongs to the form that produced it.
  useEffect(() => clearError(), [tab, clearError]);

  const select = (next: AuthTab) => void navigate({ to: '/auth', search: next === 'login' ? {} : { tab: next }, replace: true });
  const goHome = () => void navigate({ to: '/projects' });

  if (mailSent) {
    return (
      <AuthCard title={CHECK_MAIL_TITLE}>
        <div className="form-success" role="status">
          {mailSent}.
        </div>
        <p className="state-line">Письмо не пришло? Проверьте папку «Спам»: оно приходит в течение нескольких минут.</p>
        <button
          type="button"
          className="btn btn--primary btn--block"
          onClick={() => {
            setMailSent(null);
            select('login');
          }}
        >
          Перейти ко входу
        </button>
      </AuthCard>
    );
  }

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
        {tab === 'login' ? <LoginForm onSuccess={goHome} /> : <RegisterForm onSuccess={setMailSent} />}
      </div>
    </AuthCard>
  );
}
