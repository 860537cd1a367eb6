import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminUser } from '@contract/admin.js';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { Pager } from '@/components/ui/Pager';
import { formatDateTime, formatNumber } from '@contract/format';
import { adminKeys, adminUsersQuery, blockUser, unblockUser } from './api';
import { CreditForm } from './CreditForm';
import { QueryState, Table, type Column } from './components';

export interface UsersSearch {
  page?: number;
  q?: string;
  blocked?: boolean;
}

/** Users of every organization: search, balances, last login; crediting, blocking and unblocking. */
export function UsersScreen({ search, onSearch }: { search: UsersSearch; onSearch: (next: UsersSearch) => void }) {
  const { page = 1, q, blocked } = search;
  const users = useQuery(adminUsersQuery(page, q, blocked));
  const queryClient = useQueryClient();
  const [crediting, setCrediting] = useState<AdminUser | null>(null);
  const [blocking, setBlocking] = useState<AdminUser | null>(null);
  const [blockReason, setBlockReason] = useState('');

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
  const block = useMutation({
    mutationFn: (user: AdminUser) => blockUser(user.id, blockReason.trim() || undefined),
    onSuccess: async (user) => {
      toast.success(`${user.email} заблокирован: войти он не сможет, его сеансы завершены.`);
      setBlocking(null);
      setBlockReason('');
      await refresh();
    },
    onError: (error: Error) => toast.error(error.message),
  });
  const unblock = useMutation({
    mutationFn: (user: AdminUser) => unblockUser(user.id),
    onSuccess: async (user) => {
      toast.success(`${user.email} разблокирован.`);
      await refresh();
    },
    onError: (error: Error) => toast.error(error.message),
  });

  const columns = userColumns({ onCredit: setCrediting, onBlock: setBlocking, onUnblock: (user) => unblock.mutate(user), unblocking: unblock.isPending });

  const data = users.data;
  return (
    <div className="stack">
      <h1>Пользователи</h1>
      <UsersFilters q={q} blocked={blocked} onSearch={onSearch} />
      {crediting && <CreditForm key={crediting.id} user={crediting} onDone={() => setCrediting(null)} />}
      <QueryState isPending={users.isPending} error={users.error} isEmpty={data?.items.length === 0} emptyText={q ? 'Никого не нашлось.' : 'Пользователей нет.'} onRetry={() => void users.refetch()}>
        {data && (
          <>
            <p className="muted">Найдено: {formatNumber(data.total)}</p>
            <Table rows={data.items} columns={columns} caption="Пользователи" />
            <Pager label="Страницы пользователей" page={data.page} pageSize={data.page_size} total={data.total} pending={users.isPlaceholderData} onPage={(next) => onSearch({ ...search, page: next })} />
          </>
        )}
      </QueryState>
      {blocking && (
        <BlockUserDialog user={blocking} reason={blockReason} onReasonChange={setBlockReason} busy={block.isPending} onConfirm={() => block.mutate(blocking)} onCancel={() => setBlocking(null)} />
      )}
    </div>
  );
}

const roleLabels = { owner: 'владелец', admin: 'администратор', member: 'участник' } as const;

interface UserActions {
  onCredit: (user: AdminUser) => void;
  onBlock: (user: AdminUser) => void;
  onUnblock: (user: AdminUser) => void;
  unblocking: boolean;
}

/** The table's columns: who, where, role, e-mail, balance, last login, status, and the actions on the user. */
function userColumns({ onCredit, onBlock, onUnblock, unblocking }: UserActions): Column<AdminUser>[] {
return [
  {
    label: 'Пользователь',
    cell: (user) => (
      <>
        <strong>{user.full_name || '—'}</strong>
        <br />
        <span className="muted">{user.email}</span>
      </>
    ),
  },
  { label: 'Организации', cell: (user) => (user.organizations.length ? user.organizations.map((o) => `${o.name} (${roleLabels[o.role]})`).join(', ') : '—') },
  { label: 'Роль', cell: (user) => (user.role === 'admin' ? 'Администратор платформы' : 'Пользователь') },
  { label: 'Email подтверждён', cell: (user) => (user.is_verified ? 'Да' : 'Нет') },
  { label: 'Баланс, токенов', cell: (user) => formatNumber(user.balance) },
  { label: 'Последний вход', cell: (user) => (user.last_login_at ? formatDateTime(user.last_login_at) : 'не входил') },
  {
    label: 'Статус',
    cell: (user) => (user.blocked_at ? <span className="badge badge--danger">заблокирован {formatDateTime(user.blocked_at)}</span> : <span className="badge badge--success">активен</span>),
  },
  {
    label: 'Действия',
    cell: (user) => (
      <div className="admin-actions">
        <button type="button" className="btn btn--secondary btn--small" onClick={() => onCredit(user)} aria-label={`Начислить токены: ${user.email}`}>
          Начислить
        </button>
        {user.blocked_at ? (
          <button type="button" className="btn btn--secondary btn--small" onClick={() => onUnblock(user)} disabled={unblocking} aria-label={`Разблокировать ${user.email}`}>
            Разблокировать
          </button>
        ) : (
          <button type="button" className="btn btn--danger btn--small" onClick={() => onBlock(user)} aria-label={`Заблокировать ${user.email}`}>
            Заблокировать
          </button>
        )}
      </div>
    ),
  },
];
}

/** The search by e-mail or name, and «только заблокированные». */
function UsersFilters({ q, blocked, onSearch }: { q: string | undefined; blocked: boolean | undefined; onSearch: (next: UsersSearch) => void }) {
  const [query, setQuery] = useState(q ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ ...(query.trim() ? { q: query.trim() } : {}), ...(blocked ? { blocked } : {}) });
  };
  return (
    <form className="admin-filters" role="search" onSubmit={submit}>
      <input className="input input--small" type="search" placeholder="Email или имя" aria-label="Поиск пользователей" value={query} onChange={(event) => setQuery(event.target.value)} />
      <label className="admin-filters">
        <input type="checkbox" checked={Boolean(blocked)} onChange={(event) => onSearch({ ...(q ? { q } : {}), ...(event.target.checked ? { blocked: true } : {}) })} />
        только заблокированные
      </label>
      <button type="submit" className="btn btn--secondary btn--small">
        Найти
      </button>
    </form>
  );
}

/** Asks before blocking, with the reason for the audit log. */
function BlockUserDialog({ user, reason, onReasonChange, busy, onConfirm, onCancel }: { user: AdminUser; reason: string; onReasonChange: (reason: string) => void; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title={`Заблокировать ${user.email}?`}
      confirmLabel="Заблокировать"
      danger
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>Пользователь не сможет войти, его открытые сеансы завершатся сразу. Разблокировать можно здесь же.</p>
      <label className="field__label" htmlFor="block-reason">
        Причина (для журнала действий)
      </label>
      <input id="block-reason" className="input" value={reason} maxLength={500} onChange={(event) => onReasonChange(event.target.value)} />
    </ConfirmDialog>
  );
}
