import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import {
  changeItemStatusLabels,
  changeKindLabels,
  changeSetStatusLabels,
  directFieldLabels,
  shownDirectValue,
  UNDO_DAYS,
  type ChangeItem,
  type ChangeItemStatus,
  type ChangeSet,
  type ChangeSetStatus,
  type DirectValues,
} from '@contract/changes.js';
import { formatDateTime } from '@contract/format.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { formatCount, pluralRu } from '@/lib/analysis-format';
import { applyChangeSet, changeKeys, changeSetQueryOptions, journalQueryOptions, selectChangeItems, undoChanges } from '@/features/changes/api';
import '@/features/changes/changes.css';

const setTone: Record<ChangeSetStatus, string> = { preview: 'badge--muted', applying: '', undoing: '', applied: 'badge--success', partly_applied: 'badge--warning', failed: 'badge--danger' };
const itemTone: Record<ChangeItemStatus, string> = { pending: 'badge--muted', applied: 'badge--success', failed: 'badge--danger', undone: 'badge--muted', undo_refused: 'badge--warning', undo_failed: 'badge--danger' };

/**
 * /projects/{id}/changes/{changeSetId}: what a change set writes to the Direct account (before → after, the
 * API points), applying it, each item's outcome with Yandex's reason, the journal, and undo (all or one item).
 */
export function ChangeSetScreen({ projectId, changeSetId }: { projectId: string; changeSetId: string }) {
  const query = useQuery(changeSetQueryOptions(changeSetId));
  if (query.isPending) return <p className="muted">Загрузка изменений…</p>;
  if (query.isError) return <p className="form-error" role="alert">{query.error.message}</p>;
  return <ChangeSetBody projectId={projectId} set={query.data} />;
}

function ChangeSetBody({ projectId, set }: { projectId: string; set: ChangeSet }) {
  const queryClient = useQueryClient();
  const refresh = (next: ChangeSet) => {
    queryClient.setQueryData(changeKeys.set(set.id), next);
    void queryClient.invalidateQueries({ queryKey: changeKeys.journal(set.id) });
  };
  const apply = useMutation({ mutationFn: () => applyChangeSet(set.id), onSuccess: refresh, onError: (error) => toast.error(error.message) });
  const undo = useMutation({ mutationFn: (itemIds?: string[]) => undoChanges(set.id, itemIds), onSuccess: refresh, onError: (error) => toast.error(error.message) });
  const choose = useMutation({ mutationFn: ({ itemId, selected }: { itemId: string; selected: boolean }) => selectChangeItems(set.id, [itemId], selected), onSuccess: refresh, onError: (error) => toast.error(error.message) });
  const choosing = set.status === 'preview';
  const kept = set.items.filter((item) => item.selected);
  const running = set.status === 'applying' || set.status === 'undoing';
  // A job that ends moves the status: the journal has new rows then.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: changeKeys.journal(set.id) });
  }, [queryClient, set.id, set.status]);
  const undoable = set.items.filter((item) => item.undoable);

  return (
    <section className="page change-set-page">
      <BackToProjectLink projectId={projectId} />
      <ChangeSetHeader set={set} kept={kept.length} />

      <section className="card" aria-labelledby="apply-title">
        <h2 id="apply-title" className="card__title">
          Применение
        </h2>
        <p data-testid="units-estimate">
          Потратит около {formatCount(set.units_estimate)} {pluralRu(set.units_estimate, ['балла', 'баллов', 'баллов'])} API Директа
          {set.units_spent > 0 && ` · потрачено ${formatCount(set.units_spent)}`}.
        </p>
        {set.error && (
          <p className="form-error" role="alert">
            {set.error}
          </p>
        )}
        {!set.can_apply && <p className="muted">Применять и отменять изменения в рекламном аккаунте может не каждый участник: это настройка организации.</p>}
        <div className="analysis-actions">
          {!running && kept.some((item) => item.status === 'pending') && (
            <button type="button" className="btn btn--primary" disabled={!set.can_apply || apply.isPending || choose.isPending} onClick={() => apply.mutate()}>
              {set.status === 'preview' ? 'Применить в Директе' : 'Применить оставшиеся'}
            </button>
          )}
          {undoable.length > 0 && (
            <button type="button" className="btn btn--secondary" disabled={!set.can_apply || running || undo.isPending} onClick={() => undo.mutate(undefined)}>
              Отменить все изменения
            </button>
          )}
        </div>
        {running && (
          <p role="status" className="muted">
            {set.status === 'applying' ? 'Применяем изменения…' : 'Отменяем изменения…'}
          </p>
        )}
        <p className="muted">Отменить применённое можно {UNDO_DAYS} дней. Если объект с тех пор изменили в Директе, отмена его не затронет и скажет, что изменилось.</p>
      </section>

      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title" className="card__title">
          Что изменится
        </h2>
        {choosing && set.items.length > 1 && <p className="muted">Снимите галочку с того, что применять не нужно: например, с фразы, которую останавливать рано.</p>}
        <ul className="change-items">
          {set.items.map((item) => (
            <ChangeItemRow
              key={item.id}
              item={item}
              canUndo={set.can_apply && !running && !undo.isPending}
              onUndo={() => undo.mutate([item.id])}
              choosing={choosing}
              onChoose={(selected) => choose.mutate({ itemId: item.id, selected })}
              choiceDisabled={choose.isPending}
            />
          ))}
        </ul>
        <SkippedChanges skipped={set.skipped} />
      </section>

      <JournalSection changeSetId={set.id} />
    </section>
  );
}

/** The set's status, how many objects it changes (of how many found), who built and who applied it. */
function ChangeSetHeader({ set, kept }: { set: ChangeSet; kept: number }) {
  return (
    <header className="page-header">
      <h1>Изменения в Яндекс Директе</h1>
      <p className="muted">
        <span className={`badge ${setTone[set.status]}`.trim()} data-testid="change-set-status">
          {changeSetStatusLabels[set.status]}
        </span>{' '}
        {formatCount(kept)} {pluralRu(kept, ['объект', 'объекта', 'объектов'])}
        {kept < set.items.length && ` из ${formatCount(set.items.length)}`} · собрано {formatDateTime(set.created_at)}
        {set.created_by && ` · ${set.created_by}`}
        {set.applied_at && ` · применено ${formatDateTime(set.applied_at)}${set.applied_by ? `, ${set.applied_by}` : ''}`}
      </p>
    </header>
  );
}

/** What the audit accepted that the API cannot write (an automatic strategy, a full list of sites…), with why. */
function SkippedChanges({ skipped }: { skipped: ChangeSet['skipped'] }) {
  if (skipped.length === 0) return null;
  return (
    <>
      <h3>Не применяется через API</h3>
      <ul className="change-skipped">
        {skipped.map((entry) => (
          <li key={`${entry.suggestion_id}:${entry.reason}`}>
            <strong>{entry.label}</strong> — {entry.reason}
          </li>
        ))}
      </ul>
    </>
  );
}

interface ChangeItemRowProps {
  item: ChangeItem;
  canUndo: boolean;
  onUndo: () => void;
  /** The preview: each item has a checkbox, what is unticked is not applied. */
  choosing: boolean;
  onChoose: (selected: boolean) => void;
  choiceDisabled: boolean;
}

function ChangeItemRow({ item, canUndo, onUndo, choosing, onChoose, choiceDisabled }: ChangeItemRowProps) {
  const title = `${changeKindLabels[item.kind]}: ${item.label}`;
  return (
    <li className={`change-item${item.selected ? '' : ' change-item--left-out'}`} data-testid="change-item">
      <div className="change-item__head">
        {choosing ? (
          <label className="checkbox change-item__choice">
            <input type="checkbox" checked={item.selected} disabled={choiceDisabled} onChange={(event) => onChoose(event.target.checked)} aria-label={`Применить: ${title}`} />
            <strong>{title}</strong>
          </label>
        ) : (
          <strong>{title}</strong>
        )}{' '}
        <span className="muted">№ {item.object_id}</span>{' '}
        <span className={`badge ${item.selected ? itemTone[item.status] : 'badge--muted'}`.trim()}>{item.selected ? changeItemStatusLabels[item.status] : 'Не применяется'}</span>
      </div>
      <ValuesDiff before={item.replaced ?? item.before} after={item.written ?? item.after} />
      {item.warning && <p className="change-item__warning">{item.warning}</p>}
      {item.message && (
        <p className={item.status === 'applied' || item.status === 'undone' ? 'muted' : 'form-error'} data-testid="change-item-message">
          {item.message}
        </p>
      )}
      {item.undoable && (
        <button type="button" className="btn btn--ghost btn--small" disabled={!canUndo} onClick={onUndo}>
          Отменить
        </button>
      )}
    </li>
  );
}

const shown = (field: string, value: DirectValues[string]) => (Array.isArray(value) ? value.join(', ') : shownDirectValue(field, value));

/** Before → after of each field; of a list, what it gains (its whole length said). */
function ValuesDiff({ before, after }: { before: DirectValues; after: DirectValues }) {
  return (
    <dl className="change-diff">
      {Object.entries(after).map(([field, value]) => {
        const was = before[field] ?? null;
        const label = directFieldLabels[field] ?? field;
        if (Array.isArray(value)) {
          const had = Array.isArray(was) ? was : [];
          const added = value.filter((text) => !had.includes(text));
          return (
            <div key={field}>
              <dt>{label}</dt>
              <dd>
                {added.length > 0 ? `+ ${added.join(', ')}` : 'без изменений'}{' '}
                <span className="muted">
                  (было {formatCount(had.length)}, станет {formatCount(value.length)})
                </span>
              </dd>
            </div>
          );
        }
        return (
          <div key={field}>
            <dt>{label}</dt>
            <dd>
              <del>{shown(field, was)}</del> → <ins>{shown(field, value)}</ins>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function JournalSection({ changeSetId }: { changeSetId: string }) {
  const journal = useQuery(journalQueryOptions(changeSetId));
  const entries = journal.data?.entries ?? [];
  return (
    <section className="card" aria-labelledby="journal-title">
      <h2 id="journal-title" className="card__title">
        Журнал
      </h2>
      {entries.length === 0 ? (
        <p className="muted">Пока ничего не записано в Директ.</p>
      ) : (
        <ul className="change-journal" data-testid="journal">
          {entries.map((entry, index) => (
            <li key={`${entry.item_id}:${index}`}>
              {formatDateTime(entry.at)} · {entry.user ?? 'участник удалён'} · {entry.action === 'apply' ? 'применение' : 'отмена'} «{entry.label}»:{' '}
              {entry.outcome === 'done' ? 'выполнено' : entry.outcome === 'refused' ? 'не выполнено' : 'ошибка'}
              {entry.message && ` — ${entry.message}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
