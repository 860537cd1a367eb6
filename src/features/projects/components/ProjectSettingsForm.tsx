import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type UseFormSetError } from 'react-hook-form';
import { toast } from 'sonner';
import * as v from 'valibot';
import { ProjectEditSchema, normalizeSiteUrl, type ProjectDetail, type UpdateProjectRequest } from '@contract/projects.js';
import { FormField } from '@/components/ui/form';
import { ThresholdFields } from '@/components/project-settings/ThresholdFields';
import { ThresholdTextsSchema, thresholdTextsOf, type ThresholdErrors, type ThresholdTexts } from '@/components/project-settings/thresholds';
import { ApiError } from '@/lib/api-client';
import { projectKeys, updateProject } from '@/lib/projects-api';

export const SETTINGS_SAVED = 'Настройки проекта сохранены';

const SettingsFormSchema = v.object({ ...ProjectEditSchema.entries, thresholds: ThresholdTextsSchema });
type SettingsFormOutput = v.InferOutput<typeof SettingsFormSchema>;

interface FormValues {
  name: string;
  site_url: string;
  region: string;
  target_cpa: string;
  thresholds: ThresholdTexts;
}

/** What the PATCH sends: a cleared region or target CPA is removed (null), the thresholds go whole. */
function changesOf(values: SettingsFormOutput): UpdateProjectRequest {
  return {
    name: values.name,
    site_url: values.site_url,
    region: values.region || null,
    target_cpa: values.target_cpa ?? null,
    settings: values.thresholds,
  };
}

/** Puts the API's 422 messages (`loc: ['body', field]`, `['body', 'settings', key]`) under their inputs. */
function showServerErrors(error: unknown, setError: UseFormSetError<FormValues>): void {
  if (!(error instanceof ApiError) || error.status !== 422) return;
  const detail = (error.body as { detail?: { loc?: (string | number)[]; msg: string }[] } | null)?.detail ?? [];
  for (const item of detail) {
    const [part, field, key] = item.loc ?? [];
    if (part !== 'body') continue;
    if (field === 'settings' && typeof key === 'string') setError(`thresholds.${key as keyof ThresholdTexts}`, { message: item.msg });
    else if (field === 'name' || field === 'site_url' || field === 'region' || field === 'target_cpa') setError(field, { message: item.msg });
  }
}

interface Props {
  project: ProjectDetail;
  /** After a save (the cached project already holds the answer) or on «Отмена». */
  onClose: () => void;
}

/** «Настройки проекта»: name, site, region, target CPA and the analysis thresholds, saved with one PATCH. */
export function ProjectSettingsForm({ project, onClose }: Props) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    setError,
    formState: { errors, isSubmitted },
  } = useForm<FormValues, unknown, SettingsFormOutput>({
    // The schema's input is looser than the inputs (optional keys, a number CPA); the inputs always hold strings.
    resolver: valibotResolver(SettingsFormSchema) as never,
    mode: 'onTouched',
    defaultValues: {
      name: project.name,
      site_url: project.site_url,
      region: project.region ?? '',
      target_cpa: project.target_cpa === null ? '' : String(project.target_cpa),
      thresholds: thresholdTextsOf(project.settings),
    },
  });

  const save = useMutation({
    mutationFn: (changes: UpdateProjectRequest) => updateProject(project.id, changes),
    onSuccess: async (updated) => {
      queryClient.setQueryData(projectKeys.detail(project.id), updated);
      toast.success(SETTINGS_SAVED);
      onClose();
      // The list shows the name and the site too.
      await queryClient.invalidateQueries({ queryKey: ['projects', 'list'] });
    },
    onError: (error) => showServerErrors(error, setError),
  });

  const siteUrl = watch('site_url');
  const normalized = siteUrl ? normalizeSiteUrl(siteUrl) : null;
  const thresholds = watch('thresholds');
  const thresholdErrors: ThresholdErrors = Object.fromEntries(
    Object.entries(errors.thresholds ?? {}).flatMap(([key, error]) => (error && typeof error === 'object' && 'message' in error && error.message ? [[key, String(error.message)]] : [])),
  );

  const submit = handleSubmit((values) => save.mutateAsync(changesOf(values)).catch(() => undefined));

  return (
    <form className="form" noValidate aria-label="Настройки проекта" onSubmit={submit}>
      <FormField id="project-settings-name" label="Название проекта" error={errors.name?.message}>
        <input id="project-settings-name" className="input" autoComplete="off" aria-invalid={Boolean(errors.name)} {...register('name')} />
      </FormField>
      <FormField
        id="project-settings-site"
        label="Сайт"
        error={errors.site_url?.message}
        hint={normalized && normalized !== siteUrl.trim() ? `Сохраним как ${normalized}` : undefined}
      >
        <input id="project-settings-site" className="input" inputMode="url" autoComplete="url" aria-invalid={Boolean(errors.site_url)} {...register('site_url')} />
      </FormField>
      <div className="form__grid">
        <FormField id="project-settings-region" label="Регион (необязательно)" error={errors.region?.message}>
          <input id="project-settings-region" className="input" placeholder="Москва и область" aria-invalid={Boolean(errors.region)} {...register('region')} />
        </FormField>
        <FormField id="project-settings-cpa" label="Целевая цена конверсии, ₽ (необязательно)" error={errors.target_cpa?.message}>
          <input id="project-settings-cpa" className="input" inputMode="decimal" aria-invalid={Boolean(errors.target_cpa)} {...register('target_cpa')} />
        </FormField>
      </div>
      <fieldset className="fieldset">
        <legend className="field__label">Пороги анализа</legend>
        <p className="muted">С ними начинается форма нового анализа; при запуске их можно изменить.</p>
        <ThresholdFields
          values={thresholds}
          errors={thresholdErrors}
          onChange={(key, value) => setValue(`thresholds.${key}`, value, { shouldDirty: true, shouldValidate: isSubmitted })}
        />
      </fieldset>
      {save.isError && (
        <div className="form-error" role="alert" data-testid="form-error">
          Настройки не сохранены: {save.error.message}
        </div>
      )}
      <div className="form__row form__row--end">
        <button type="button" className="btn btn--secondary" onClick={onClose} disabled={save.isPending}>
          Отмена
        </button>
        <button type="submit" className="btn btn--primary" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending ? 'Сохранение…' : 'Сохранить'}
        </button>
      </div>
    </form>
  );
}
