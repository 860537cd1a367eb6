import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DirectConnection } from '@contract/direct-connections.js';
import type { ImportJob } from '@contract/projects.js';
import { agencyClientsQueryOptions, directConnectionKeys, directConnectionsQueryOptions, disconnectDirectAccount, startConnectionImport, startDirectConnection } from '@/lib/direct-connections-api';
import { formatDate } from '@contract/format';
import { AgencyClientPicker } from './AgencyClientPicker';
import { importErrorOf, type ImportErrorState } from './ImportErrors';

interface Props {
  onStarted: (job: ImportJob) => void;
  onError: (error: ImportErrorState | null) => void;
}

/**
 * Yandex Direct accounts connected by OAuth: «Подключить Яндекс Директ» leaves for Yandex ID and comes back
 * here; each connected account is read with one click (an agency names its client's login). Nothing is shown
 * where the server has no Yandex ID application and nothing is connected: the pasted token stays as it was.
 */
export function DirectConnections({ onStarted, onError }: Props) {
  const connections = useQuery(directConnectionsQueryOptions());
  const connect = useMutation({
    mutationFn: () => startDirectConnection(window.location.pathname + window.location.search),
    onMutate: () => onError(null),
    onSuccess: (authorizeUrl) => window.location.assign(authorizeUrl),
    onError: (error) => onError(importErrorOf(error)),
  });
  const list = connections.data;
  if (!list || (!list.oauth_available && list.connections.length === 0)) return null;

  return (
    <section className="direct-connections" aria-label="Подключённые аккаунты Яндекс Директа">
      {list.connections.length > 0 && (
        <ul className="direct-connections__list">
          {list.connections.map((connection) => (
            <ConnectedAccount key={connection.id} connection={connection} onStarted={onStarted} onError={onError} />
          ))}
        </ul>
      )}
      {list.oauth_available && (
        <div className="form__row">
          <button type="button" className="btn btn--primary" disabled={connect.isPending} aria-busy={connect.isPending} onClick={() => connect.mutate()}>
            {connect.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
            {list.connections.length > 0 ? 'Подключить ещё аккаунт' : 'Подключить Яндекс Директ'}
          </button>
          <span className="muted">Вход через Яндекс ID: токен остаётся на сервере и продлевается сам.</span>
        </div>
      )}
    </section>
  );
}

function ConnectedAccount({ connection, onStarted, onError }: { connection: DirectConnection } & Props) {
  const queryClient = useQueryClient();
  const clients = useQuery(agencyClientsQueryOptions(connection.id));
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const agency = clients.data?.agency === true;
  // One picked client can be read into the project being created; several get a project each (the picker's button).
  const clientLogin = picked.size === 1 ? [...picked][0]! : '';
  const load = useMutation({
    mutationFn: () => startConnectionImport(connection.id, clientLogin.trim()),
    onMutate: () => onError(null),
    onSuccess: onStarted,
    onError: (error) => onError(importErrorOf(error)),
  });
  const disconnect = useMutation({
    mutationFn: () => disconnectDirectAccount(connection.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: directConnectionKeys.all }),
    onError: (error) => onError(importErrorOf(error)),
  });
  return (
    <li className="direct-connections__item">
      <div>
        <strong>{connection.login}</strong>
        <p className="muted">
          Подключён {formatDate(connection.connected_at)}
          {connection.connected_by && `, ${connection.connected_by}`} · доступ до {formatDate(connection.expires_at)}
        </p>
      </div>
      {agency && <AgencyClientPicker connectionId={connection.id} clients={clients.data!.clients} picked={picked} onPickedChange={setPicked} onError={onError} />}
      <div className="form__row">
        <button type="button" className="btn btn--primary" disabled={load.isPending || (agency && !clientLogin)} aria-busy={load.isPending} onClick={() => load.mutate()}>
          {load.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
          {agency ? 'Загрузить выбранного клиента в этот проект' : `Загрузить кампании ${connection.login}`}
        </button>
        <button type="button" className="btn btn--ghost" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
          Отключить
        </button>
      </div>
    </li>
  );
}
