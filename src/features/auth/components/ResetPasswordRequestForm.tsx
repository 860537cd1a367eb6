import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import { ResetPasswordRequestSchema } from '@contract/auth.js';
import { useSession } from '@/app/session';
import { AuthCard } from './AuthCard';
import { FormErrorBox, FormField, SubmitButton } from '@/components/ui/form';

type Values = v.InferInput<typeof ResetPasswordRequestSchema>;

/** /auth/reset-password: asks for the email the reset link goes to. */
export function ResetPasswordRequestForm() {
  const { requestPasswordReset, loading, error } = useSession();
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<Values>({ resolver: valibotResolver(ResetPasswordRequestSchema), mode: 'onTouched', defaultValues: { email: '' } });

  const submit = handleSubmit(async ({ email }) => {
    try {
      const answer = await requestPasswordReset(email);
      setSentMessage(answer?.message ?? 'Если такой email зарегистрирован, мы отправили на него ссылку для восстановления пароля');
    } catch {
      // shown in the red box
    }
  });

  return (
    <AuthCard
      title="Восстановление пароля"
      footer={
        <Link to="/auth" className="link">
          Вернуться ко входу
        </Link>
      }
    >
      {sentMessage ? (
        <div className="form-success" role="status">
          {sentMessage}
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate aria-label="Восстановление пароля">
          <p className="muted">Укажите email, с которым вы регистрировались, — мы пришлём ссылку для смены пароля.</p>
          <FormField id="reset-email" label="Email" error={errors.email?.message}>
            <input id="reset-email" type="email" inputMode="email" autoComplete="email" className="input" {...register('email')} />
          </FormField>
          <FormErrorBox message={error} />
          <SubmitButton loading={loading} disabled={!isValid}>
            Отправить ссылку
          </SubmitButton>
        </form>
      )}
    </AuthCard>
  );
}
