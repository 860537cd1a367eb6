import type { ReactNode } from 'react';

/** A label, its input, a hint, and the field's error under it (the same markup as the other forms). */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !error && <p className="field__hint">{hint}</p>}
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function StepIndicator({ step }: { step: 1 | 2 }) {
  return (
    <ol className="steps" aria-label="Шаги создания проекта">
      <li className={step === 1 ? 'steps__item steps__item--current' : 'steps__item steps__item--done'} aria-current={step === 1 ? 'step' : undefined}>
        1. Проект
      </li>
      <li className={step === 2 ? 'steps__item steps__item--current' : 'steps__item'} aria-current={step === 2 ? 'step' : undefined}>
        2. Кампании
      </li>
    </ol>
  );
}
