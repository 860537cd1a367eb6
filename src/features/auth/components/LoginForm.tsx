import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { LoginSchema, type LoginPayload } from '@contract/auth.js';
import { useSession } from '@/app/session';
import { FormErrorBox, FormField, SubmitButton } from '@/components/ui/form';

export const FORGOT_PASSWORD_TEXT = 'Забыли пароль?';

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const { login, loading, error } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<v.InferInput<typeof LoginSchema>, unknown, LoginPayload>({
    resolver: valibotResolver(LoginSchema),
    // Errors appear once a field has been left (or the form submitted), then follow every keystroke.
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await login(values);
      onSuccess();
    } catch {
      // The message is in the session's error, shown in the red box.
    }
  });

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Вход">
      <FormField id="login-email" label="Email" error={errors.email?.message}>
        <input
          id="login-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          className="input"
          aria-invalid={Boolean(errors.email)}
          {...register('email')}
        />
      </FormField>
      <FormField id="login-password" label="Пароль" error={errors.password?.message}>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          className="input"
          aria-invalid={Boolean(errors.password)}
          {...register('password')}
        />
      </FormField>
      <div className="form__row form__row--end">
        <Link to="/auth/reset-password" className="link">
          {FORGOT_PASSWORD_TEXT}
        </Link>
      </div>
      <FormErrorBox message={error} />
      <SubmitButton loading={loading} disabled={!isValid}>
        Войти
      </SubmitButton>
    </form>
  );
}
