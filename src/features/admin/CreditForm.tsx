import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import * as v from 'valibot';
import { AdminCreditSchema } from '@contract/tokens.js';
import { formatTokens } from '@contract/format';
import { FormErrorBox, FormField } from '@/components/ui/form';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useTokensMoved } from '@/lib/paid-runs';
import { adminKeys, creditTokens } from './api';

/**
 * Credits tokens to one user with a reason (`POST /admin/tokens/credit`). The idempotency key is made
 * when the form opens and kept for its retries, so a double click or a retried request credits once.
 */
export function CreditForm({ user, onDone }: { user: { id: string; email: string; full_name: string }; onDone: () => void }) {
  const queryClient = useQueryClient();
  // An admin crediting their own account sees it in the header at once.
  const tokensMoved = useTokensMoved();
  const [key] = useState(newIdempotencyKey);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const credit = useMutation({
    mutationFn: (body: v.InferOutput<typeof AdminCreditSchema>) => creditTokens(body),
    onSuccess: async (answer) => {
      toast.success(`Начислено ${formatTokens(Number(amount))} пользователю ${user.email}. Баланс: ${formatTokens(answer.balance)}.`);
      tokensMoved();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      onDone();
    },
    onError: (error: Error) => setProblem(error.message),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(AdminCreditSchema, { user_id: user.id, amount: amount.trim() === '' ? Number.NaN : Number(amount), reason, idempotency_key: key });
    if (!parsed.success) {
      setProblem(parsed.issues[0]!.message);
      return;
    }
    setProblem(null);
    credit.mutate(parsed.output);
  };

  const id = `credit-${user.id}`;
  return (
    <form className="admin-panel stack" onSubmit={submit} aria-label={`Начисление токенов: ${user.full_name || user.email}`}>
      <h3 className="card__title">Начислить токены: {user.full_name || user.email}</h3>
      <FormErrorBox message={problem} />
      <FormField id={`${id}-amount`} label="Сколько токенов">
        <input id={`${id}-amount`} className="input" inputMode="numeric" value={amount} onChange={(event) => setAmount(event.target.value)} autoFocus />
      </FormField>
      <FormField id={`${id}-reason`} label="Причина" hint="Видна пользователю в истории операций и в журнале действий.">
        <input id={`${id}-reason`} className="input" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} placeholder="Оплата по счёту № 17" />
      </FormField>
      <div className="admin-actions">
        <button type="submit" className="btn btn--primary" disabled={credit.isPending} aria-busy={credit.isPending}>
          Начислить
        </button>
        <button type="button" className="btn btn--secondary" onClick={onDone} disabled={credit.isPending}>
          Отмена
        </button>
      </div>
    </form>
  );
}
