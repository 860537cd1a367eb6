import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { toast } from 'sonner';
import { fetchCurrentUser, resendVerification } from '@/features/auth/api';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { Spinner } from '@/components/ui/form';

export const RESEND_TEXT = 'Отправить письмо ещё раз';
export const CHECK_AGAIN_TEXT = 'Я уже подтвердил email';

/** /auth/verify-email-required: a logged-in user whose email is not verified yet. */
export function VerifyEmailRequiredScreen() {
  const navigate = useNavigate();
  const { user, markVerified, logout } = useSession();
  const [notYet, setNotYet] = useState(false);

  const resend = useMutation({
    mutationFn: () => resendVerification(),
    onSuccess: (data) => toast.success(data.message),
    onError: (error) => toast.error(error.message),
  });

  const check = useMutation({
    mutationFn: fetchCurrentUser,
    onSuccess: (fresh) => {
      if (fresh.is_verified) {
        markVerified();
        void navigate({ to: '/projects' });
      } else {
        setNotYet(true);
      }
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <AuthCard title="Подтвердите email">
      <p>
        Мы отправили письмо со ссылкой для подтверждения на <strong>{user?.email}</strong>. Откройте его и перейдите по
        ссылке — после этого станут доступны проекты и анализы.
      </p>
      <p className="muted">Письма нет? Проверьте папку «Спам» или отправьте его ещё раз.</p>
      {notYet && (
        <div className="form-error" role="alert">
          Email ещё не подтверждён. Перейдите по ссылке из письма.
        </div>
      )}
      <div className="stack">
        <button type="button" className="btn btn--primary btn--block" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending && <Spinner label="Отправка" />}
          <span>{RESEND_TEXT}</span>
        </button>
        <button type="button" className="btn btn--secondary btn--block" onClick={() => check.mutate()} disabled={check.isPending}>
          {check.isPending && <Spinner />}
          <span>{CHECK_AGAIN_TEXT}</span>
        </button>
        <button type="button" className="btn btn--ghost btn--block" onClick={() => void logout()}>
          Выйти
        </button>
      </div>
    </AuthCard>
  );
}
