import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import type { AgencyClientImport, AgencyClientList } from '@contract/direct-connections.js';
import { pluralRu } from '@contract/format';
import { agencyClientImportsQueryOptions, directConnectionKeys, startAgencyClientImports } from '@/lib/direct-connections-api';
import { formatCount } from '@/features/projects/format';
import { STAGE_LABELS } from './DirectImportProgress';
import { importErrorOf, type ImportErrorState } from './ImportErrors';

type Client = AgencyClientList['clients'][number];

interface Props {
  connectionId: string;
  clients: Client[];
  /** The picked logins (one picked client can also be read into the project being created). */
  picked: Set<string>;
  onPickedChange: (picked: Set<string>) => void;
  onError: (error: ImportErrorState | null) => void;
}

const matches = (client: Client, search: string) => {
  const needle = search.trim().toLocaleLowerCase('ru-RU');
  return !needle || client.name.toLocaleLowerCase('ru-RU').includes(needle) || client.login.toLocaleLowerCase('ru-RU').includes(needle);
};

/**
 * An agency's clients as checkboxes (search and «Выбрать всех» for long lists); «Создать проекты» makes a
 * project per picked client in the background. A client that already has a project is marked so: picking
 * it again refreshes that project, it never makes a second one.
 */
export function AgencyClientPicker({ connectionId, clients, picked, onPickedChange, onError }: Props) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => clients.filter((client) => matches(client, search)), [clients, search]);
  const allShownPicked = shown.length > 0 && shown.every((client) => picked.has(client.login));
  const imports = useQuery(agencyClientImportsQueryOptions(connectionId));
  const start = useMutation({
    mutationFn: () => startAgencyClientImports(connectionId, [...picked]),
    onMutate: () => onError(null),
    onSuccess: (list) => {
      queryClient.setQueryData(agencyClientImportsQueryOptions(connectionId).queryKey, list);
      onPickedChange(new Set());
    },
    onError: (error) => onError(importErrorOf(error)),
  });
  const toggle = (login: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(login);
    else next.delete(login);
    onPickedChange(next);
  };
  const toggleShown = (on: boolean) => {
    const next = new Set(picked);
    for (const client of shown) if (on) next.add(client.login);
    else next.delete(client.login);
    onPickedChange(next);
  };
  const refreshing = [...picked].filter((login) => clients.find((client) => client.login === login)?.project).length;
  const finishedTurns = imports.data?.imports.filter((turn) => turn.status === 'completed').length ?? 0;
  // A client whose project was just made shows it in the list (and is refreshed, not duplicated, when picked again).
  useEffect(() => {
    if (finishedTurns > 0) void queryClient.invalidateQueries({ queryKey: [...directConnectionKeys.all, connectionId, 'clients'] });
  }, [finishedTurns, connectionId, queryClient]);

  return (
    <fieldset className="agency-clients">
      <legend className="field__label">Клиенты агентства</legend>
      {clients.length > 8 && (
        <input type="search" className="input" aria-label="Поиск клиента" placeholder="Название или логин клиента" value={search} onChange={(event) => setSearch(event.target.value)} />
      )}
      <label className="checkbox">
        <input type="checkbox" checked={allShownPicked} onChange={(event) => toggleShown(event.target.checked)} disabled={shown.length === 0} />
        {search.trim() ? `Выбрать найденных (${formatCount(shown.length)})` : 'Выбрать всех'}
      </label>
      <ul className="agency-clients__list">
        {shown.map((client) => (
          <li key={client.login} className="agency-clients__item">
            <label className="checkbox">
              <input type="checkbox" checked={picked.has(client.login)} onChange={(event) => toggle(client.login, event.target.checked)} />
              {client.name === client.login ? client.login : `${client.name} (${client.login})`}
            </label>
            {client.project && (
              <span className="muted">
                {' · '}
                <Link to="/projects/$id" params={{ id: client.project.id }} className="link">
                  проект есть
                </Link>
                {client.project.units_spent !== null && `, последняя загрузка: ${formatCount(client.project.units_spent)} ${pluralRu(client.project.units_spent, ['балл', 'балла', 'баллов'])}`}
              </span>
            )}
          </li>
        ))}
        {shown.length === 0 && <li className="muted">Клиенты не найдены</li>}
      </ul>
      <div className="form__row">
        <button type="button" className="btn btn--secondary" disabled={picked.size === 0 || start.isPending} aria-busy={start.isPending} onClick={() => start.mutate()}>
          {start.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
          {picked.size === 0 ? 'Создать проекты для выбранных' : `Создать проекты: ${formatCount(picked.size)}`}
        </button>
        {refreshing > 0 && <span className="muted">У {formatCount(refreshing)} из выбранных проект уже есть: его кампании загрузятся заново.</span>}
      </div>
      {imports.data && imports.data.imports.length > 0 && <AgencyImportProgress imports={imports.data.imports} />}
    </fieldset>
  );
}

const STATUS_TEXT: Record<AgencyClientImport['status'], string> = {
  waiting: 'ждёт очереди',
  importing: 'загружается',
  completed: 'готово',
  failed: 'ошибка',
};

function turnDetail(turn: AgencyClientImport): string {
  if (turn.status === 'importing' && turn.stage && turn.stage in STAGE_LABELS) return `${STATUS_TEXT.importing}: ${STAGE_LABELS[turn.stage as keyof typeof STAGE_LABELS].toLowerCase()}`;
  if (turn.status === 'completed') return turn.refreshed ? 'проект обновлён' : 'проект создан';
  return STATUS_TEXT[turn.status];
}

/** Each picked client's import as it goes: status, points spent, the project to open, or why it failed. */
function AgencyImportProgress({ imports }: { imports: AgencyClientImport[] }) {
  const done = imports.filter((turn) => turn.status === 'completed' || turn.status === 'failed').length;
  return (
    <section className="agency-imports" aria-label="Загрузка клиентов агентства">
      <p className="muted" role="status">
        Готово {formatCount(done)} из {formatCount(imports.length)}
      </p>
      <ul className="agency-imports__list">
        {imports.map((turn) => (
          <li key={turn.id} className={`agency-imports__item agency-imports__item--${turn.status}`}>
            <strong>{turn.client_name}</strong> — {turnDetail(turn)}
            {turn.units_spent !== null && turn.units_spent > 0 && `, ${formatCount(turn.units_spent)} ${pluralRu(turn.units_spent, ['балл', 'балла', 'баллов'])} API`}
            {turn.project && turn.status === 'completed' && (
              <>
                {' · '}
                <Link to="/projects/$id" params={{ id: turn.project.id }} className="link">
                  Открыть проект «{turn.project.name}»
                </Link>
              </>
            )}
            {turn.status === 'failed' && turn.error && <p className="field__error">{turn.error}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
