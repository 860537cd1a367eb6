import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { changeSetStatusLabels } from '@contract/changes.js';
import { formatDateTime } from '@contract/format.js';
import { BackToProjectLink } from '@/components/ui/BackToProjectLink';
import { formatCount } from '@/lib/analysis-format';
import { projectChangeSetsQueryOptions } from '@/features/changes/api';
import '@/features/changes/changes.css';

/** /projects/{id}/changes: the project's change sets, newest first, each opening its items, journal and undo. */
export function ChangeSetListScreen({ projectId }: { projectId: string }) {
  const query = useQuery(projectChangeSetsQueryOptions(projectId));
  return (
    <section className="page change-set-page">
      <BackToProjectLink projectId={projectId} />
      <header className="page-header">
        <h1>Изменения в Директе</h1>
        <p className="muted">Что записано в аккаунт через API: по каждому набору — изменения, журнал и отмена в течение 30 дней.</p>
      </header>
      {query.isPending && <p className="muted">Загрузка…</p>}
      {query.isError && (
        <p className="form-error" role="alert">
          {query.error.message}
        </p>
      )}
      {query.data && query.data.change_sets.length === 0 && <p className="muted">Пока ничего не применялось. Примите предложения аудита и нажмите «Применить через API Директа» на странице результатов.</p>}
      {query.data && query.data.change_sets.length > 0 && (
        <ul className="change-items" aria-label="Наборы изменений">
          {query.data.change_sets.map((set) => (
            <li key={set.id} className="change-item">
              <Link to="/projects/$id/changes/$changeSetId" params={{ id: projectId, changeSetId: set.id }} className="link">
                {formatDateTime(set.created_at)} · {changeSetStatusLabels[set.status]}
              </Link>
              <p className="muted">
                Объектов: {formatCount(set.items)}; применено сейчас {formatCount(set.applied)}, отменено {formatCount(set.undone)}, ошибок {formatCount(set.failed)}
                {set.applied_by && ` · ${set.applied_by}`}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
