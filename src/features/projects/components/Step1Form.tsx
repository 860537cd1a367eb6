import { valibotResolver } from '@hookform/resolvers/valibot';
import { useForm } from 'react-hook-form';
import { adPlatformLabels } from '@contract/campaigns.js';
import { AD_PLATFORMS, ProjectStep1Schema, normalizeSiteUrl, type ProjectStep1, type ProjectStep1Input } from '@contract/projects.js';
import { FormField } from '@/components/ui/form';
import { StepIndicator } from './StepIndicator';

interface FormValues {
  name: string;
  site_url: string;
  platform: string;
  region: string;
  target_cpa: string;
}

interface Props {
  initial: Partial<ProjectStep1Input> | null;
  /** Every change, so the draft survives a reload even before "Далее". */
  onDraftChange: (input: Partial<ProjectStep1Input>) => void;
  onSubmit: (data: ProjectStep1) => void;
}

/** Step 1 of project creation: name, site address, ad platform (and optional region and target CPA). */
export function Step1Form({ initial, onDraftChange, onSubmit }: Props) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<FormValues, unknown, ProjectStep1>({
    resolver: valibotResolver(ProjectStep1Schema) as never,
    mode: 'onTouched',
    defaultValues: {
      name: initial?.name ?? '',
      site_url: initial?.site_url ?? '',
      platform: initial?.platform ?? '',
      region: initial?.region ?? '',
      target_cpa: initial?.target_cpa === undefined || initial.target_cpa === null ? '' : String(initial.target_cpa),
    },
  });

  const siteUrl = watch('site_url');
  const normalized = siteUrl ? normalizeSiteUrl(siteUrl) : null;

  const rememberDraft = () => {
    const values = watch();
    onDraftChange({ ...values, platform: (values.platform || undefined) as ProjectStep1Input['platform'] });
  };

  return (
    <form className="form card project-form" noValidate aria-label="Новый проект: шаг 1" onChange={rememberDraft} onSubmit={handleSubmit(onSubmit)}>
      <StepIndicator step={1} />
      <FormField id="project-name" label="Название проекта" error={errors.name?.message}>
        <input id="project-name" className="input" autoComplete="off" aria-invalid={Boolean(errors.name)} {...register('name')} />
      </FormField>
      <FormField
        id="project-site"
        label="Сайт"
        error={errors.site_url?.message}
        hint={normalized && normalized !== siteUrl.trim() ? `Сохраним как ${normalized}` : 'Например, okna-plus.ru'}
      >
        <input id="project-site" className="input" inputMode="url" autoComplete="url" placeholder="example.ru" aria-invalid={Boolean(errors.site_url)} {...register('site_url')} />
      </FormField>
      <fieldset className="fieldset field">
        <legend className="field__label">Рекламная платформа</legend>
        <div className="segmented segmented--three" role="radiogroup" aria-label="Рекламная платформа">
          {AD_PLATFORMS.map((platform) => (
            <label key={platform} className="segmented__option">
              <input type="radio" value={platform} {...register('platform')} />
              <span>{adPlatformLabels[platform]}</span>
            </label>
          ))}
        </div>
        {errors.platform && (
          <p className="field__error" role="alert">
            {errors.platform.message}
          </p>
        )}
      </fieldset>
      <div className="form__grid project-form__optional">
        <FormField id="project-region" label="Регион (необязательно)" error={errors.region?.message}>
          <input id="project-region" className="input" placeholder="Москва и область" {...register('region')} />
        </FormField>
        <FormField id="project-cpa" label="Целевая цена конверсии, ₽ (необязательно)" error={errors.target_cpa?.message}>
          <input id="project-cpa" className="input" inputMode="decimal" aria-invalid={Boolean(errors.target_cpa)} {...register('target_cpa')} />
        </FormField>
      </div>
      <div className="form__row form__row--end">
        <button type="submit" className="btn btn--primary">
          Далее
        </button>
      </div>
    </form>
  );
}
