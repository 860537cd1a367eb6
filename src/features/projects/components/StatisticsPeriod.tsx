import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { defaultAnalysisSettings } from '@contract/analysis-results.js';
import { StatsPeriodInputSchema, type ImportPreview, type StatsPeriodInput } from '@contract/projects.js';
import { FormField } from '@/components/ui/form';
import { formatPeriod } from '@/lib/analysis-format';
import { formatCount, pluralRu } from '@contract/format';
import { setDraftPeriod } from '@/lib/projects-api';

type Period = NonNullable<ImportPreview['period']>;

/**
 * On the import preview: what statistics were read (rows, period), and — when the files have statistics
 * but do not say their period — a form for it, saved on the preview (`PUT …/import-drafts/:id/period`)
 * and then with the import. Without a period every «в месяц» figure takes the statistics as 30 days.
 */
export function StatisticsPeriod({ preview, onPeriodSet }: { preview: ImportPreview; onPeriodSet: (period: Period) => void }) {
  const rows = preview.statistics_rows;
  const period = formatPeriod(preview.period);
  const rowsText = rows !== undefined && rows > 0 ? `${pluralRu(rows, ['прочитана', 'прочитаны', 'прочитано'])} ${formatCount(rows)} ${pluralRu(rows, ['строка', 'строки', 'строк'])}` : null;
  if (period) {
    return (
      <p className="import-preview__stats" data-testid="import-statistics">
        Статистика: {rowsText ? `${rowsText}, ` : ''}период {period}.
      </p>
    );
  }
  if (!rowsText) {
    return (
      <p className="muted" data-testid="import-statistics">
        {preview.source === 'files' ? 'Статистики в файлах нет' : 'Статистики нет'}: анализ проверит структуру, объявления и фразы, но не расход.
      </p>
    );
  }
  return (
    <div className="import-preview__stats" data-testid="import-statistics">
      <p>
        Статистика: {rowsText}. Период в файлах не указан — укажите его, иначе суммы в месяц будут посчитаны так, будто статистика за{' '}
        {defaultAnalysisSettings.daysPerMonth} дней.
      </p>
      <PeriodForm draftId={preview.draft_id} onPeriodSet={onPeriodSet} />
    </div>
  );
}

function PeriodForm({ draftId, onPeriodSet }: { draftId: string; onPeriodSet: (period: Period) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<StatsPeriodInput>({ resolver: valibotResolver(StatsPeriodInputSchema), mode: 'onTouched', defaultValues: { from: '', to: '' } });
  const save = useMutation({ mutationFn: (values: StatsPeriodInput) => setDraftPeriod(draftId, values), onSuccess: onPeriodSet });
  return (
    <form className="form__grid" noValidate aria-label="Период статистики" onSubmit={handleSubmit((values) => save.mutate(values))}>
      <FormField id="stats-period-from" label="Статистика с" error={errors.from?.message}>
        <input id="stats-period-from" className="input" type="date" aria-invalid={Boolean(errors.from)} {...register('from')} />
      </FormField>
      <FormField id="stats-period-to" label="по" error={errors.to?.message}>
        <input id="stats-period-to" className="input" type="date" aria-invalid={Boolean(errors.to)} {...register('to')} />
      </FormField>
      <div className="form__row">
        <button type="submit" className="btn btn--secondary" disabled={save.isPending} aria-busy={save.isPending}>
          Указать период
        </button>
      </div>
      {save.isError && (
        <p className="form-error" role="alert">
          {save.error.message}
        </p>
      )}
    </form>
  );
}
