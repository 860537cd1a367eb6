import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Member } from '@contract/organizations.js';
import { displayName, userInitials } from '@/components/layout/initials';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { membersQueryOptions, organizationKeys, removeMember } from '@/features/organization/api';
import { roleLabel } from '@contract/labels';
import { QueryError } from '@/components/ui/QueryError';
import { TransferDialog } from './TransferDialog';
import { formatTokens } from '@contract/format';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';

export const MEMBER_REMOVED = 'Участник удалён';

function joinedText(joinedAt: string): string {
  const date = new Date(joinedAt);
  return Number.isNaN(date.getTime()) ? '' : `в команде с ${date.toLocaleDateString('ru-RU')}`;
}

/**
 * Members with their roles; the owner removes anyone except the owner and themselves, sees everyone's
 * token balance and moves tokens to a member or back.
 */
export function MemberList({ currentUserId }: { currentUserId: string | null }) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQueryOptions());
  const [candidate, setCandidate] = useState<Member | null>(null);
  const [transferTo, setTransferTo] = useState<Member | null>(null);
  const removal = useMutation({
    mutationFn: (member: Member) => removeMember(member.user_id),
    onSuccess: (_answer, member) => {
      // Spec section 4: the list drops that user_id locally, without reloading it.
      queryClient.setQueryData<Member[]>(organizationKeys.members(), (list) => list?.filter((item) => item.user_id !== member.user_id));
      setCandidate(null);
      toast.success(MEMBER_REMOVED);
    },
    onError: () => setCandidate(null),
  });

  const canRemove = (member: Member) => member.role !== 'owner' && member.user_id !== currentUserId;

  return (
    <section className="card organization-card" aria-labelledby="members-title">
      <div className="card__header">
        <h2 id="members-title" className="card__title">
          Участники{members.data ? ` (${members.data.length})` : ''}
        </h2>
      </div>
      <LoadingLine query={members} label="Загрузка участников…" offlineText={notSavedOffline('участники')} />
      {members.isError && <QueryError error={members.error} onRetry={() => void members.refetch()} />}
      {removal.isError && (
        <p className="form-error" role="alert">
          {removal.error.message}
        </p>
      )}
      {members.data && members.data.length === 0 && <p className="muted">В организации пока никого нет.</p>}
      {members.data && members.data.length > 0 && (
        <ul className="member-list" aria-label="Участники организации">
          {members.data.map((member) => {
            const name = displayName(member);
            return (
              <li key={member.user_id} className="member-list__item">
                <span className="member-list__avatar" aria-hidden="true">
                  {userInitials(member)}
                </span>
                <div className="member-list__who">
                  <span className="member-list__name">
                    {name}
                    {member.user_id === currentUserId && <span className="muted"> (вы)</span>}
                  </span>
                  <span className="member-list__email">{member.email}</span>
                  <span className="member-list__joined">{joinedText(member.joined_at)}</span>
                  {member.balance !== undefined && (
                    <span className="member-list__balance" data-testid="member-balance">
                      Баланс: {formatTokens(member.balance)}
                    </span>
                  )}
                </div>
                <span className={`badge${member.role === 'member' ? ' badge--muted' : ''} member-list__role`}>{roleLabel(member.role)}</span>
                <div className="member-list__actions">
                  {member.balance !== undefined && member.user_id !== currentUserId && (
                    <button type="button" className="btn btn--ghost btn--small" aria-label={`Токены: ${name}`} onClick={() => setTransferTo(member)}>
                      Токены
                    </button>
                  )}
                  {canRemove(member) && (
                    <button
                      type="button"
                      className="btn btn--ghost btn--small member-list__remove"
                      aria-label={`Удалить ${name}`}
                      onClick={() => setCandidate(member)}
                      disabled={removal.isPending}
                    >
                      Удалить
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {transferTo && <TransferDialog member={transferTo} onClose={() => setTransferTo(null)} />}
      {candidate && (
        <ConfirmDialog
          title="Удалить участника?"
          confirmLabel="Удалить"
          danger
          busy={removal.isPending}
          onConfirm={() => removal.mutate(candidate)}
          onCancel={() => setCandidate(null)}
        >
          {displayName(candidate)} ({candidate.email}) потеряет доступ к проектам организации.
          {Boolean(candidate.balance) && ` Токены на его балансе (${formatTokens(candidate.balance!)}) можно сначала вернуть себе кнопкой «Токены».`}
        </ConfirmDialog>
      )}
    </section>
  );
}
