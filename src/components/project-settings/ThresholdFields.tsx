import { mainThresholds, moreThresholds, type ThresholdErrors, type ThresholdField, type ThresholdTexts } from './thresholds';
import './project-settings.css';

interface Props {
  values: ThresholdTexts;
  errors: ThresholdErrors;
  onChange: (key: keyof ThresholdTexts, value: string) => void;
}

/**
 * The analysis threshold inputs: the main ones at once, the rest and the competitors folded away
 * (unfolded when one of them is wrong). Controlled: the form around it owns the texts and the errors.
 */
export function ThresholdFields({ values, errors, onChange }: Props) {
  const moreHaveErrors = moreThresholds.some((field) => errors[field.key]) || Boolean(errors.competitors);
  return (
    <>
      <div className="threshold-fields">
        {mainThresholds.map((field) => (
          <ThresholdInput key={field.key} field={field} value={values[field.key]} error={errors[field.key]} onChange={(value) => onChange(field.key, value)} />
        ))}
      </div>
      <details className="threshold-fields__more" open={moreHaveErrors || undefined}>
        <summary>Остальные пороги и конкуренты</summary>
        <div className="threshold-fields">
          {moreThresholds.map((field) => (
            <ThresholdInput key={field.key} field={field} value={values[field.key]} error={errors[field.key]} onChange={(value) => onChange(field.key, value)} />
          ))}
        </div>
        <div className={`field${errors.competitors ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor="threshold-competitors">
            Конкуренты
          </label>
          <textarea
            id="threshold-competitors"
            className="input"
            rows={2}
            value={values.competitors}
            aria-invalid={Boolean(errors.competitors)}
            aria-describedby="threshold-competitors-hint"
            onChange={(event) => onChange('competitors', event.target.value)}
          />
          <p className={errors.competitors ? 'field__error' : 'field__hint'} id="threshold-competitors-hint">
            {errors.competitors ?? 'Бренды через запятую: запросы с ними предлагаются в минус-слова кампании.'}
          </p>
        </div>
      </details>
    </>
  );
}

function ThresholdInput({ field, value, error, onChange }: { field: ThresholdField; value: string; error?: string; onChange: (value: string) => void }) {
  const id = `threshold-${field.key}`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {field.label}
      </label>
      <input id={id} className="input" inputMode="decimal" value={value} aria-invalid={Boolean(error)} aria-describedby={`${id}-hint`} onChange={(event) => onChange(event.target.value)} />
      <p className={error ? 'field__error' : 'field__hint'} id={`${id}-hint`}>
        {error ?? field.hint}
      </p>
    </div>
  );
}
