import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import * as v from 'valibot';
import { OrganizationNameSchema } from '@contract/auth.js';
import { useSession } from '@/app/session';
import { currentOrganizationQueryOptions, organizationKeys, planTypeOf, updateOrganization } from './api';
import { QueryError } from '@/components/ui/QueryError';
import './organization.css';
import { planLabel } from '@contract/labels';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';
import { ApplyChangesSetting } from './components/ApplyChangesSetting';

export const SETTINGS_SAVED = 'Настройки организации сохранены';

const SettingsSchema = v.object({ name: OrganizationNameSchema });
type SettingsForm = v.InferInput<typeof SettingsSchema>;

/** /organization/settings (owner only): rename the organization; the plan is shown, set by platform admins. */
export function OrganizationSettingsScreen() {
  const queryClient = useQueryClient();
  const { setOrganization } = useSession();
  const organization = useQuery(currentOrganizationQueryOptions());
  const form = useForm<SettingsForm>({
    resolver: valibotResolver(SettingsSchema),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const { register, handleSubmit, reset, formState } = form;

  // The form starts from the loaded name (and again after a save).
  useEffect(() => {
    if (organization.data) reset({ name: organization.data.name });
  }, [organization.data, reset]);

  const save = useMutation({
    mutationFn: (values: SettingsForm) => updateOrganization({ name: values.name.trim() }),
    onSuccess: (updated) => {
      queryClient.setQueryData(organizationKeys.current(), updated);
      // The session (header, cached snapshot) shows the new name too.
      setOrganization(updated);
      toast.success(SETTINGS_SAVED);
    },
  });

  const submit = handleSubmit((values) => save.mutateAsync(values).catch(() => undefined));

  return (
    <section className="page page--narrow organization-page">
      <Link to="/organization" className="back-link">
        ← К организации
      </Link>
      <div className="page-header">
        <h1>Настройки организации</h1>
      </div>
      <LoadingLine query={organization} label="Загрузка организации…" offlineText={notSavedOffline('данные организации')} />
      {organization.isError && <QueryError error={organization.error} onRetry={() => void organization.refetch()} />}
      {organization.data && (
        <form className="form card" onSubmit={submit} noValidate aria-label="Настройки организации">
          <div className={`field${formState.errors.name ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor="organization-name">
              Название организации
            </label>
            <input
              id="organization-name"
              className="input"
              autoComplete="organization"
              maxLength={200}
              aria-invalid={Boolean(formState.errors.name)}
              {...register('name')}
            />
            {formState.errors.name && (
              <p className="field__error" role="alert">
                {formState.errors.name.message}
              </p>
            )}
          </div>
          <div className="field">
            <span className="field__label">Тариф</span>
            <p className="organization-settings__plan">
              <span className="badge">{planLabel(planTypeOf(organization.data))}</span>
              <span className="muted"> Тариф меняет администратор платформы.</span>
            </p>
          </div>
          {save.isError && (
            <div className="form-error" role="alert" data-testid="form-error">
              {save.error.message}
            </div>
          )}
          <button type="submit" className="btn btn--primary" disabled={save.isPending || !formState.isDirty} aria-busy={save.isPending}>
            {save.isPending ? 'Сохранение…' : 'Сохранить'}
          </button>
        </form>
      )}
      <ApplyChangesSetting />
    </section>
  );
}
