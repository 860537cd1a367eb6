import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { copyText } from '@/lib/clipboard';
import { invitationCodeQueryOptions, organizationKeys, regenerateInvitationCode } from '@/features/organization/api';
import { QueryError } from '@/components/ui/QueryError';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';

export const CODE_COPIED = 'Код приглашения скопирован';
export const CODE_REGENERATED = 'Код приглашения обновлён';

/** The code colleagues enter when they register with "join": copy it, or replace it with a new one. */
export function InvitationCodeCard() {
  const queryClient = useQueryClient();
  const code = useQuery(invitationCodeQueryOptions());
  const [confirming, setConfirming] = useState(false);
  const regenerate = useMutation({
    mutationFn: regenerateInvitationCode,
    onSuccess: (invitationCode) => {
      queryClient.setQueryData(organizationKeys.invitationCode(), invitationCode);
      setConfirming(false);
      toast.success(CODE_REGENERATED);
    },
    onError: () => setConfirming(false),
  });

  const copy = async () => {
    if (!code.data) return;
    try {
      await copyText(code.data);
      toast.success(CODE_COPIED);
    } catch {
      toast.error('Не удалось скопировать код, выделите его и скопируйте вручную');
    }
  };

  return (
    <section className="card organization-card" aria-labelledby="invitation-code-title">
      <div className="card__header">
        <h2 id="invitation-code-title" className="card__title">
          Код приглашения
        </h2>
      </div>
      <p className="muted">
        Отправьте код коллегам: при регистрации они выберут «Присоединиться по коду» и введут его.
      </p>
      <LoadingLine query={code} label="Загрузка кода…" offlineText={notSavedOffline('код приглашения')} />
      {code.isError && <QueryError error={code.error} onRetry={() => void code.refetch()} />}
      {code.data && (
        <div className="invitation-code">
          <output className="invitation-code__value" aria-label="Текущий код приглашения">
            {code.data}
          </output>
          <div className="invitation-code__actions">
            <button type="button" className="btn btn--primary btn--small" onClick={copy}>
              Копировать
            </button>
            <button type="button" className="btn btn--secondary btn--small" onClick={() => setConfirming(true)} disabled={regenerate.isPending}>
              Обновить код
            </button>
          </div>
        </div>
      )}
      {regenerate.isError && (
        <p className="form-error" role="alert">
          {regenerate.error.message}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title="Обновить код приглашения?"
          confirmLabel="Обновить"
          busy={regenerate.isPending}
          onConfirm={() => regenerate.mutate()}
          onCancel={() => setConfirming(false)}
        >
          Старый код перестанет работать: присоединиться по нему будет нельзя.
        </ConfirmDialog>
      )}
    </section>
  );
}
