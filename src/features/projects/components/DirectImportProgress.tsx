import { useEffect, useRef } from 'react';
import { isImportJobFinished, type DirectImportStage, type DirectImportStageProgress, type ImportJob, type ImportPreview } from '@contract/projects.js';
import { projectRoutes } from '@contract/routes/projects.js';
import { ApiError } from '@/lib/api-client';
import { useLiveRun } from '@/lib/live-run';
import { importJobQueryOptions } from '@/lib/projects-api';
import { formatCount } from '@/features/projects/format';

export const STAGE_LABELS: Record<DirectImportStage, string> = {
  campaigns: 'Кампании',
  groups: 'Группы объявлений',
  ads: 'Объявления',
  keywords: 'Ключевые фразы',
  extensions: 'Быстрые ссылки, уточнения и изображения',
  statistics: 'Статистика за 30 дней',
  search_queries: 'Поисковые запросы',
};

/** One stage as a line: what it waits for, how far it got, or what it read. */
export function stageText(entry: DirectImportStageProgress): string {
  const { stage, status, done, total, items } = entry;
  if (status === 'pending') return 'ожидает';
  if (status === 'skipped') return 'пропущено';
  const isReport = stage === 'statistics' || stage === 'search_queries';
  if (status === 'done') return isReport ? `готово, строк: ${formatCount(items)}` : `готово: ${formatCount(items)}`;
  if (isReport) return 'Яндекс готовит отчёт';
  if (stage === 'campaigns') return 'загружаем список';
  if (stage === 'extensions') return `запросов ${formatCount(done)} из ${formatCount(total ?? 0)}`;
  return `кампаний ${formatCount(done)} из ${formatCount(total ?? 0)}, загружено ${formatCount(items)}`;
}

const STATUS_MARKS: Record<DirectImportStageProgress['status'], string> = { pending: '○', running: '…', done: '✓', skipped: '–' };

/** An event's body is the job itself (as its GET answers). */
const importJobOfEvent = (body: unknown) => {
  const job = body as ImportJob | null;
  return typeof job?.id === 'string' && typeof job.status === 'string' ? job : null;
};
const isJobFinished = (job: ImportJob) => isImportJobFinished(job.status);

interface Props {
  jobId: string;
  onPreview: (preview: ImportPreview) => void;
  /** The job failed (its Russian message) or cannot be read any more (gone, another account). */
  onFailed: (message: string) => void;
}

/**
 * The progress of a Direct API import job, live until it ends (src/lib/live-run.ts): stage by stage with counts and the
 * API points spent; a completed job hands its preview on, a failed one its message.
 */
export function DirectImportProgress({ jobId, onPreview, onFailed }: Props) {
  const { data: job, error } = useLiveRun({ query: importJobQueryOptions(jobId), events: projectRoutes.importJobEvents, id: jobId, fromEvent: importJobOfEvent, finished: isJobFinished });
  // The callbacks run once per job end, whatever re-renders follow.
  const reported = useRef(false);
  useEffect(() => {
    if (reported.current) return;
    if (job?.status === 'completed' && job.preview) {
      reported.current = true;
      onPreview(job.preview);
    } else if (job?.status === 'failed') {
      reported.current = true;
      onFailed(job.error ?? 'Не удалось загрузить кампании из API Яндекс Директа');
    } else if (error instanceof ApiError && error.status === 404) {
      reported.current = true;
      onFailed((error.body as { error?: string } | null)?.error ?? error.message);
    }
  }, [job, error, onPreview, onFailed]);

  return (
    <section className="direct-import-progress" aria-label="Загрузка из API Яндекс Директа">
      <h3 className="card__title">Загружаем кампании из API Яндекс Директа</h3>
      <p className="muted" role="status">
        {headline(job)}
      </p>
      {job && (
        <ol className="direct-import-progress__stages" aria-label="Этапы загрузки">
          {job.progress.stages.map((entry) => (
            <li key={entry.stage} className={`direct-import-progress__stage direct-import-progress__stage--${entry.status}`}>
              <span aria-hidden="true">{STATUS_MARKS[entry.status]}</span> {STAGE_LABELS[entry.stage]}: {stageText(entry)}
            </li>
          ))}
        </ol>
      )}
      {job && job.progress.units.spent > 0 && (
        <p className="muted">
          Баллы API Директа: потрачено {formatCount(job.progress.units.spent)}
          {job.progress.units.available !== null && `, осталось ${formatCount(job.progress.units.available)}`}
        </p>
      )}
      <p className="field__hint">Большой аккаунт загружается несколько минут. Можно уйти со страницы: загрузка продолжится, а при возвращении вы увидите её ход.</p>
    </section>
  );
}

function headline(job: ImportJob | undefined): string {
  if (!job) return 'Запускаем загрузку…';
  if (job.status === 'queued') return 'Загрузка в очереди, сейчас начнётся';
  if (job.status === 'completed') return 'Готово, открываем предпросмотр';
  if (job.status === 'failed') return 'Загрузка не удалась';
  const { stage, done, total } = job.progress;
  if (stage === 'saving' || stage === 'done') return 'Сохраняем предпросмотр';
  if (stage === 'queued') return 'Загрузка в очереди, сейчас начнётся';
  return `Сейчас: ${STAGE_LABELS[stage].toLowerCase()}${total !== null && total > 0 ? ` (${formatCount(done)} из ${formatCount(total)})` : ''}`;
}
