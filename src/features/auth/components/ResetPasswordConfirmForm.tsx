import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import { NewPasswordSchema } from '@contract/auth.js';
import { validationMessages } from '@contract/messages.js';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { FormErrorBox, FormField, SubmitButton } from '@/components/ui/form';

export const ConfirmPasswordFormSchema = v.pipe(
  v.object({ password: NewPasswordSchema, password_confirm: v.string() }),
  v.forward(
    v.partialCheck([['password'], ['password_confirm']], (input) => input.password === input.password_confirm, validationMessages.passwordsMismatch),
    ['password_confirm'],
  ),
);
type Values = v.InferInput<typeof ConfirmPasswordFormSchema>;

/** /auth/reset-password/confirm?token=…: sets the new password. */
export function ResetPasswordConfirmForm({ token }: { token?: string }) {
  const { confirmPasswordReset, loading, error } = useSession();
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<Values>({
    resolver: valibotResolver(ConfirmPasswordFormSchema),
    mode: 'onTouched',
    defaultValues: { password: '', password_confirm: '' },
  });

  const submit = handleSubmit(async ({ password }) => {
    try {
      const answer = await confirmPasswordReset(token as string, password);
      setDoneMessage(answer?.message ?? 'Пароль изменён');
    } catch {
      // shown in the red box
    }
  });

  const backToLogin = (
    <Link to="/auth" className="link">
      Вернуться ко входу
    </Link>
  );

  if (!token) {
    return (
      <AuthCard title="Новый пароль" footer={backToLogin}>
        <div className="form-error" role="alert">
          {validationMessages.tokenRequired}. Запросите восстановление пароля ещё раз.
        </div>
        <Link to="/auth/reset-password" className="btn btn--primary btn--block">
          Запросить новую ссылку
        </Link>
      </AuthCard>
    );
  }

  if (doneMessage) {
    return (
      <AuthCard title="Новый пароль">
        <div className="form-success" role="status">
          {doneMessage}. Теперь войдите с новым паролем.
        </div>
        <Link to="/auth" className="btn btn--primary btn--block">
          Войти
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Новый пароль" footer={backToLogin}>
      <form className="form" onSubmit={submit} noValidate aria-label="Смена пароля">
        <FormField id="confirm-password" label="Новый пароль" error={errors.password?.message}>
          <input id="confirm-password" type="password" autoComplete="new-password" className="input" {...register('password', { deps: ['password_confirm'] })} />
        </FormField>
        <FormField id="confirm-password-repeat" label="Повторите пароль" error={errors.password_confirm?.message}>
          <input id="confirm-password-repeat" type="password" autoComplete="new-password" className="input" {...register('password_confirm')} />
        </FormField>
        <FormErrorBox message={error} />
        <SubmitButton loading={loading} disabled={!isValid}>
          Сохранить пароль
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
