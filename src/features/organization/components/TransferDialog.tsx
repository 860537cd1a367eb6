import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { toast } from 'sonner';
import type { TransferDirection } from '@contract/payments.js';
import type { Member } from '@contract/organizations.js';
import { displayName } from '@/components/layout/initials';
import { formatTokens } from '@contract/format';
import { newIdempotencyKey } from '@/lib/idempotency';
import { refreshTokenViews, transferTokens } from '@/lib/payments-api';

/** While the dialog is open: its first field has the focus, and Escape closes it. */
function useFocusAndEscape(first: RefObject<HTMLInputElement | null>, onClose: () => void) {
  useEffect(() => {
    first.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [first, onClose]);
}

/** What is wrong with the amount, in Russian; null when it may be sent. */
function amountProblem(tokens: number, direction: TransferDirection, member: Member): string | null {
  if (!Number.isInteger(tokens) || tokens < 1) return 'Количество токенов: целое число от 1';
  if (direction === 'from_member' && member.balance !== undefined && tokens > member.balance) return 'На балансе участника недостаточно токенов';
  // Only what this owner gave and the member has not spent moves back (not what the member bought).
  if (direction === 'from_member' && member.returnable !== undefined && tokens > member.returnable) {
    return `Вернуть можно не больше ${member.returnable.toLocaleString('ru-RU')}: только переданные вами токены, которые участник ещё не потратил`;
  }
  return null;
}

/**
 * The owner moves tokens to a member or takes them back (a member who leaves). One idempotency key per
 * opened dialog: a double click or a retried request moves once.
 */
export function TransferDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const queryClient = useQueryClient();
  const titleId = useId();
  const [direction, setDirection] = useState<TransferDirection>('to_member');
  const [amount, setAmount] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  const amountRef = useRef<HTMLInputElement | null>(null);
  const name = displayName(member);

  useFocusAndEscape(amountRef, onClose);

  const transfer = useMutation({
    mutationFn: (tokens: number) => transferTokens(member.user_id, { direction, amount: tokens, idempotency_key: key.current }),
    onSuccess: async (_answer, tokens) => {
      await refreshTokenViews(queryClient);
      toast.success(direction === 'to_member' ? `Перевод участнику ${name}: ${formatTokens(tokens)}` : `Возврат от ${name}: ${formatTokens(tokens)}`);
      onClose();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const tokens = Number(amount);
    const problem = amountProblem(tokens, direction, member);
    setInvalid(problem);
    if (!problem) transfer.mutate(tokens);
  };
  // A changed request is a new operation, with a key of its own.
  const change = (update: () => void) => {
    update();
    key.current = newIdempotencyKey();
  };

  return (
    <div className="confirm-dialog__backdrop">
      <form className="confirm-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onSubmit={submit} noValidate>
        <h2 id={titleId} className="confirm-dialog__title">
          Токены: {name}
        </h2>
        <p className="muted">
          На балансе участника: {(member.balance ?? 0).toLocaleString('ru-RU')}
          {member.returnable !== undefined && `, из них можно вернуть: ${member.returnable.toLocaleString('ru-RU')}`}
        </p>
        <div className="segmented" role="radiogroup" aria-label="Что сделать">
          <label className="segmented__option">
            <input type="radio" name="direction" value="to_member" checked={direction === 'to_member'} onChange={() => change(() => setDirection('to_member'))} />
            <span>Перевести участнику</span>
          </label>
          <label className="segmented__option">
            <input type="radio" name="direction" value="from_member" checked={direction === 'from_member'} onChange={() => change(() => setDirection('from_member'))} />
            <span>Вернуть себе</span>
          </label>
        </div>
        <div className={`field${invalid ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${titleId}-amount`}>
            Количество токенов
          </label>
          <input
            id={`${titleId}-amount`}
            ref={amountRef}
            className="input"
            inputMode="numeric"
            value={amount}
            aria-invalid={Boolean(invalid)}
            onChange={(event) => change(() => setAmount(event.target.value.trim()))}
          />
          {invalid && (
            <p className="field__error" role="alert">
              {invalid}
            </p>
          )}
        </div>
        {transfer.isError && (
          <p className="form-error" role="alert">
            {transfer.error.message}
          </p>
        )}
        <div className="confirm-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={transfer.isPending}>
            Отмена
          </button>
          <button type="submit" className="btn btn--primary" disabled={transfer.isPending} aria-busy={transfer.isPending}>
            {direction === 'to_member' ? 'Перевести' : 'Вернуть'}
          </button>
        </div>
      </form>
    </div>
  );
}
