import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { resendVerification, verifyEmail } from '@/features/auth/api';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { FormField, Spinner } from '@/components/ui/form';

export const VERIFY_REDIRECT_DELAY_MS = 3000;
const NO_TOKEN_TEXT = 'Ссылка недействительна: в ней нет кода подтверждения.';

/**
 * /auth/verify-email?token=…: posts the token once (a query, so a re-render or StrictMode does not
 * post twice), shows the answer, then moves on: to /projects, or to the sign-in for a guest (the link
 * verifies the address but does not log anyone in, and a registration starts no session).
 */
export function VerifyEmailScreen({ token }: { token?: string }) {
  const navigate = useNavigate();
  const { user, markVerified } = useSession();
  const result = useQuery({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token as string),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  const succeeded = result.isSuccess;
  const verifiedUserId = result.data?.user?.id;

  // The logged-in user (if it is the one the link was for) is verified from now on.
  useEffect(() => {
    if (succeeded && user && !user.is_verified && (!verifiedUserId || verifiedUserId === user.id)) markVerified();
  }, [succeeded, verifiedUserId, user, markVerified]);

  // Leave the answer on screen for a moment, then continue to the projects (or to the sign-in first).
  const next = user ? '/projects' : '/auth';
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => void navigate({ to: next }), VERIFY_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded, navigate, next]);

  return (
    <AuthCard title="Подтверждение email">
      {!token && (
        <div className="form-error" role="alert">
          {NO_TOKEN_TEXT}
        </div>
      )}
      {token && result.isPending && (
        <p className="state-line">
          <Spinner /> Подтверждаем email…
        </p>
      )}
      {result.isError && (
        <div className="form-error" role="alert">
          {result.error.message}
        </div>
      )}
      {result.isSuccess && (
        <div className="form-success" role="status">
          {result.data.message}. {user ? 'Сейчас откроем ваши проекты…' : 'Теперь войдите со своим email и паролем.'}
        </div>
      )}
      {/* An expired or broken link: what helps is a new link, not the projects (they need a verified email). */}
      {(result.isError || !token) && !user?.is_verified ? (
        <ResendLink loggedIn={Boolean(user)} />
      ) : user ? (
        <Link to="/projects" className="btn btn--primary btn--block">
          Перейти к проектам
        </Link>
      ) : (
        <Link to="/auth" className="btn btn--primary btn--block">
          Войти
        </Link>
      )}
    </AuthCard>
  );
}

export const RESEND_BUTTON_TEXT = 'Отправить новую ссылку';

/** Sends a fresh verification link: to the logged-in user's address, or to the address a guest types. */
function ResendLink({ loggedIn }: { loggedIn: boolean }) {
  const [email, setEmail] = useState('');
  const resend = useMutation({ mutationFn: () => resendVerification(loggedIn ? undefined : email.trim()) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resend.mutate();
  };
  if (resend.isSuccess) {
    return (
      <div className="form-success" role="status">
        {resend.data.message}
      </div>
    );
  }
  return (
    <form className="form" onSubmit={submit} aria-label="Новая ссылка подтверждения">
      {!loggedIn && (
        <FormField id="resend-email" label="Email, указанный при регистрации">
          <input id="resend-email" className="input" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </FormField>
      )}
      {resend.isError && (
        <div className="form-error" role="alert">
          {resend.error.message}
        </div>
      )}
      <button type="submit" className="btn btn--primary btn--block" disabled={resend.isPending} aria-busy={resend.isPending}>
        {resend.isPending && <Spinner label="Отправка" />}
        {RESEND_BUTTON_TEXT}
      </button>
    </form>
  );
}
