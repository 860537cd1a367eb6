import { valibotResolver } from '@hookform/resolvers/valibot';
import { useForm, useWatch, type FieldErrors, type Resolver, type UseFormRegister } from 'react-hook-form';
import { RegisterFormSchema, type RegisterForm as RegisterFormData } from '@contract/auth.js';
import { useSession } from '@/app/session';
import { FormErrorBox, FormField, SubmitButton } from '@/components/ui/form';

/** What the form holds; terms_accepted starts false, so it is a boolean here, not the literal `true`. */
export type RegisterFormValues = Omit<RegisterFormData, 'terms_accepted' | 'organization_type'> & {
  organization_type: 'create' | 'join';
  terms_accepted: boolean;
};

export const INVITATION_CODE_MAX_LENGTH = 20;

const resolver = valibotResolver(RegisterFormSchema) as unknown as Resolver<RegisterFormValues>;

/** On success the server's «we sent a mail» message goes to `onSuccess` (registration starts no session). */
export function RegisterForm({ onSuccess }: { onSuccess: (message: string) => void }) {
  const { register: registerUser, loading, error } = useSession();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isValid },
  } = useForm<RegisterFormValues>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      organization_type: 'create',
      organization_name: '',
      invitation_code: '',
      terms_accepted: false,
    },
  });
  const organizationType = useWatch({ control, name: 'organization_type' });

  const submit = handleSubmit(async (values) => {
    try {
      const answer = await registerUser(values as RegisterFormData);
      onSuccess(answer.message);
    } catch {
      // Shown in the red box from the session's error.
    }
  });

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Регистрация">
      <div className="form__grid">
        <FormField id="register-first-name" label="Имя" error={errors.first_name?.message}>
          <input id="register-first-name" className="input" autoComplete="given-name" aria-invalid={Boolean(errors.first_name)} {...register('first_name')} />
        </FormField>
        <FormField id="register-last-name" label="Фамилия" error={errors.last_name?.message}>
          <input id="register-last-name" className="input" autoComplete="family-name" aria-invalid={Boolean(errors.last_name)} {...register('last_name')} />
        </FormField>
      </div>
      <FormField id="register-email" label="Email" error={errors.email?.message}>
        <input id="register-email" type="email" inputMode="email" autoComplete="email" className="input" aria-invalid={Boolean(errors.email)} {...register('email')} />
      </FormField>
      <FormField
        id="register-password"
        label="Пароль"
        error={errors.password?.message}
        hint="Не короче 8 символов, строчные и заглавные латинские буквы и цифры"
      >
        <input
          id="register-password"
          type="password"
          autoComplete="new-password"
          className="input"
          aria-invalid={Boolean(errors.password)}
          {...register('password')}
        />
      </FormField>

      <OrganizationFields register={register} errors={errors} organizationType={organizationType} />

      <TermsConsent register={register} errors={errors} />

      <FormErrorBox message={error} />
      <SubmitButton loading={loading} disabled={!isValid}>
        Зарегистрироваться
      </SubmitButton>
    </form>
  );
}

interface FieldsProps {
  register: UseFormRegister<RegisterFormValues>;
  errors: FieldErrors<RegisterFormValues>;
}

/** «Организация»: create a new one (its name) or join one (an invitation code). */
function OrganizationFields({ register, errors, organizationType }: FieldsProps & { organizationType: RegisterFormValues['organization_type'] }) {
  // The organization rule is attached to organization_type: re-check it when its inputs change.
  const organizationDeps = { deps: ['organization_type' as const] };
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Организация</legend>
      <div className="segmented" role="radiogroup" aria-label="Тип организации">
        <label className="segmented__option">
          <input type="radio" value="create" {...register('organization_type')} />
          <span>Создать новую</span>
        </label>
        <label className="segmented__option">
          <input type="radio" value="join" {...register('organization_type')} />
          <span>Присоединиться по коду</span>
        </label>
      </div>
      {organizationType === 'create' ? (
        <FormField id="register-organization-name" label="Название организации">
          <input id="register-organization-name" className="input" autoComplete="organization" {...register('organization_name', organizationDeps)} />
        </FormField>
      ) : (
        <FormField id="register-invitation-code" label="Код приглашения">
          <input
            id="register-invitation-code"
            className="input"
            autoComplete="off"
            maxLength={INVITATION_CODE_MAX_LENGTH}
            {...register('invitation_code', organizationDeps)}
          />
        </FormField>
      )}
      {errors.organization_type?.message && (
        <p className="field__error" role="alert">
          {errors.organization_type.message}
        </p>
      )}
    </fieldset>
  );
}

/** The consent to the personal data policy and the user agreement. */
function TermsConsent({ register, errors }: FieldsProps) {
  return (
    <div className={`field field--checkbox${errors.terms_accepted ? ' field--invalid' : ''}`}>
      <label className="checkbox">
        <input type="checkbox" {...register('terms_accepted')} aria-invalid={Boolean(errors.terms_accepted)} />
        <span>
          Я даю согласие на обработку персональных данных в соответствии с{' '}
          <a href="/policy.pdf" target="_blank" rel="noopener noreferrer" className="link">
            политикой обработки персональных данных
          </a>{' '}
          и принимаю{' '}
          <a href="/agreement.pdf" target="_blank" rel="noopener noreferrer" className="link">
            пользовательское соглашение
          </a>
        </span>
      </label>
      {errors.terms_accepted?.message && (
        <p className="field__error" role="alert">
          {errors.terms_accepted.message}
        </p>
      )}
    </div>
  );
}
