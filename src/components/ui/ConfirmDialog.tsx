import { useEffect, useId, useRef, type ReactNode } from 'react';
import './ui.css';

interface Props {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button for actions that destroy something. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A small modal question before an action that cannot be undone. The focus starts on "cancel",
 * so Enter never destroys anything by accident; Escape cancels.
 */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Отмена', danger = false, busy = false, onConfirm, onCancel }: Props) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement | null>(null);
  // The latest handler, so the listener below is set up once per opening.
  const cancelHandler = useRef(onCancel);
  cancelHandler.current = onCancel;

  useEffect(() => {
    cancelRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') cancelHandler.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="confirm-dialog__backdrop">
      <div className="confirm-dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={children ? textId : undefined}>
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        {children && (
          <div id={textId} className="confirm-dialog__text">
            {children}
          </div>
        )}
        <div className="confirm-dialog__actions">
          <button type="button" ref={cancelRef} className="btn btn--secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`} onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
