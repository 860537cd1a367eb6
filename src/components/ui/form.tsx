import type { ReactNode } from 'react';

interface Props {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** A label, the input it labels, and the field's error under it. */
export function FormField({ id, label, error, hint, children }: Props) {
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

export function Spinner({ label = 'Загрузка' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

/** The red box above the submit button that shows the auth state's error. */
export function FormErrorBox({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert" data-testid="form-error">
      {message}
    </div>
  );
}

export function SubmitButton({ loading, disabled, children }: { loading: boolean; disabled: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn--primary btn--block" disabled={disabled || loading} aria-busy={loading}>
      {loading && <Spinner label="Отправка" />}
      <span>{children}</span>
    </button>
  );
}
