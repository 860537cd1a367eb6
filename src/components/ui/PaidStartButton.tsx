import { paidStartWaits, type PaidStartWait } from '@/lib/paid-runs';

interface Props {
  /** Why the start waits (usePaidRunStart's `wait`): the button says it instead of its label. */
  wait: PaidStartWait | null;
  pending: boolean;
  /** Other reasons the start cannot be pressed (nothing chosen, short balance): the screen says them. */
  disabled?: boolean;
  label: string;
  pendingLabel?: string;
  /** The id of the hint (PaidStartWaitHint) the button points to while it waits. */
  hintId: string;
  onClick?: () => void;
}

/** The button of a paid start: pressed only online with the price on screen; otherwise it says what it waits for. */
export function PaidStartButton({ wait, pending, disabled = false, label, pendingLabel, hintId, onClick }: Props) {
  return (
    <button
      type={onClick ? 'button' : 'submit'}
      className="btn btn--primary"
      disabled={disabled || pending || wait !== null}
      aria-busy={pending}
      aria-describedby={wait ? hintId : undefined}
      onClick={onClick}
    >
      {pending && <span className="spinner" aria-hidden="true" />}
      {wait ? paidStartWaits[wait].button : pending && pendingLabel ? pendingLabel : label}
    </button>
  );
}

/** Why the paid start waits, in a sentence beside its button (nothing while it can be pressed). */
export function PaidStartWaitHint({ wait, id }: { wait: PaidStartWait | null; id: string }) {
  if (!wait) return null;
  return (
    <p id={id} className="muted paid-start-wait" role="status">
      {paidStartWaits[wait].hint}
    </p>
  );
}
