import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState, type DragEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { importTemplateColumns, importTemplateNotes } from '@contract/import-template.js';
import { DirectApiPreviewSchema, type DirectApiPreviewRequest, type ImportJob, type ImportPreview, type ProjectDetail } from '@contract/projects.js';
import { downloadTemplate, previewFiles, projectKeys, startConnectedDirectApiImport, startDirectApiImport } from '@/lib/projects-api';
import { readDirectJobId, saveDirectJobId } from '@/features/projects/direct-import-job';
import { formatCount } from '@/features/projects/format';
import { FormField } from '@/components/ui/form';
import { DirectConnections } from './DirectConnections';
import { DirectImportProgress } from './DirectImportProgress';
import { ImportErrors, importErrorOf, type ImportErrorState } from './ImportErrors';

/** Same limit as the server's (issue 4): refused here first, so a user never waits for a doomed upload. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const ACCEPTED_FILES = '.csv,.tsv,.txt,.xlsx';

type Source = 'files' | 'direct_api';

/** A project that already has a Direct API connection: its account can be read again without the token. */
export interface SavedConnection {
  projectId: string;
  connection: NonNullable<ProjectDetail['connection']>;
}

interface Props {
  platform?: string;
  onPreview: (preview: ImportPreview) => void;
  saved?: SavedConnection;
  /** Where the id of a running Direct import is kept (sessionStorage), so coming back finds it again. */
  jobStorageKey?: string;
}

/**
 * Where the campaigns come from: files dropped or chosen (several at once), or the Yandex Direct API.
 * A Direct import runs as a job on the server: while it runs, its progress takes the panel's place.
 */
export function ImportSourcePanel({ platform, onPreview, saved, jobStorageKey }: Props) {
  const [source, setSource] = useState<Source>(saved ? 'direct_api' : 'files');
  const [error, setError] = useState<ImportErrorState | null>(null);
  const [jobId, setJobId] = useState<string | null>(() => (jobStorageKey ? readDirectJobId(jobStorageKey) : null));
  const queryClient = useQueryClient();

  const trackJob = useCallback(
    (id: string | null) => {
      setJobId(id);
      if (jobStorageKey) saveDirectJobId(jobStorageKey, id);
    },
    [jobStorageKey],
  );
  const onStarted = (job: ImportJob) => {
    // The start's answer is the job's first state: shown at once, then followed live (src/lib/live-run.ts).
    queryClient.setQueryData(projectKeys.importJob(job.id), job);
    trackJob(job.id);
  };
  const onJobPreview = useCallback(
    (preview: ImportPreview) => {
      trackJob(null);
      onPreview(preview);
    },
    [trackJob, onPreview],
  );
  const onJobFailed = useCallback(
    (message: string) => {
      trackJob(null);
      setSource('direct_api');
      setError({ message, rows: [] });
    },
    [trackJob],
  );

  if (jobId) return <DirectImportProgress jobId={jobId} onPreview={onJobPreview} onFailed={onJobFailed} />;

  return (
    <div className="import-source">
      <div className="segmented" role="tablist" aria-label="Источник кампаний">
        <button type="button" role="tab" aria-selected={source === 'files'} className={`segmented__tab${source === 'files' ? ' segmented__tab--active' : ''}`} onClick={() => setSource('files')}>
          Файлы выгрузки
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={source === 'direct_api'}
          className={`segmented__tab${source === 'direct_api' ? ' segmented__tab--active' : ''}`}
          onClick={() => setSource('direct_api')}
        >
          API Яндекс Директа
        </button>
      </div>
      {source === 'files' ? (
        <FileUpload platform={platform} onPreview={onPreview} onError={setError} />
      ) : (
        <>
          {saved && <SavedConnectionReload saved={saved} onStarted={onStarted} onError={setError} />}
          <DirectConnections onStarted={onStarted} onError={setError} />
          <DirectApiForm onStarted={onStarted} onError={setError} />
        </>
      )}
      {error && <ImportErrors state={error} />}
    </div>
  );
}

function FileUpload({ platform, onPreview, onError }: { platform?: string; onPreview: (p: ImportPreview) => void; onError: (e: ImportErrorState | null) => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (chosen: File[]) => previewFiles(chosen, platform),
    onMutate: () => onError(null),
    onSuccess: onPreview,
    onError: (error) => onError(importErrorOf(error)),
  });

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const chosen = Array.from(list);
    const tooBig = chosen.filter((file) => file.size > MAX_FILE_BYTES);
    if (tooBig.length > 0) {
      onError({ message: `Файл «${tooBig[0]!.name}» больше 50 МБ`, rows: [] });
      return;
    }
    onError(null);
    // A file chosen twice replaces the first copy.
    setFiles((previous) => [...previous.filter((file) => !chosen.some((next) => next.name === file.name)), ...chosen]);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  return (
    <div className="file-upload">
      <div
        className={`dropzone${dragging ? ' dropzone--active' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <p className="dropzone__title">Перетащите сюда файлы выгрузки</p>
        <p className="muted">
          Яндекс Директ (XLSX или CSV из веб-интерфейса или Коммандера), Google Ads Editor (CSV), отчёты по статистике и поисковым запросам. До 50 МБ на файл, можно
          несколько сразу.
        </p>
        <button type="button" className="btn btn--secondary" onClick={() => input.current?.click()}>
          Выбрать файлы
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPTED_FILES}
          hidden
          aria-label="Файлы выгрузки"
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
        />
      </div>
      {files.length > 0 && (
        <ul className="file-list" aria-label="Выбранные файлы">
          {files.map((file) => (
            <li key={file.name} className="file-list__item">
              <span>{file.name}</span>
              <span className="muted">{formatCount(Math.ceil(file.size / 1024))} КБ</span>
              <button type="button" className="btn btn--ghost btn--small" aria-label={`Убрать ${file.name}`} onClick={() => setFiles((list) => list.filter((f) => f !== file))}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="form__row">
        <button type="button" className="btn btn--primary" disabled={files.length === 0 || upload.isPending} aria-busy={upload.isPending} onClick={() => upload.mutate(files)}>
          {upload.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
          Проверить файлы
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => downloadTemplate().catch((error: unknown) => toast.error(error instanceof Error ? error.message : 'Не удалось скачать шаблон'))}
        >
          Скачать шаблон CSV
        </button>
      </div>
      <TemplateGuide />
    </div>
  );
}

/** What each column of our CSV template takes, for people who fill it by hand. */
function TemplateGuide() {
  return (
    <details className="details template-guide">
      <summary>Как заполнить шаблон CSV</summary>
      <p className="muted">Файл в кодировке UTF-8, столбцы разделены «;». Порядок столбцов любой; обязательные отмечены звёздочкой.</p>
      <dl className="template-guide__columns" aria-label="Столбцы шаблона">
        {importTemplateColumns.map((column) => (
          <div key={column.title} className="template-guide__column">
            <dt>
              {column.title}
              {'required' in column && column.required && <span aria-label="обязательный"> *</span>}
            </dt>
            <dd>{column.description}</dd>
          </div>
        ))}
      </dl>
      <ul className="template-guide__notes">
        {importTemplateNotes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </details>
  );
}

function SavedConnectionReload({ saved, onStarted, onError }: { saved: SavedConnection; onStarted: (job: ImportJob) => void; onError: (e: ImportErrorState | null) => void }) {
  const reload = useMutation({
    mutationFn: () => startConnectedDirectApiImport(saved.projectId),
    onMutate: () => onError(null),
    onSuccess: onStarted,
    onError: (error) => onError(importErrorOf(error)),
  });
  const { client_login, sandbox } = saved.connection;
  return (
    <div className="saved-connection">
      <p>
        Проект подключён к API Яндекс Директа{client_login && ` (Client-Login: ${client_login})`}
        {sandbox && ', песочница'}. Сохранённый токен хранится в зашифрованном виде.
      </p>
      <button type="button" className="btn btn--primary" disabled={reload.isPending} aria-busy={reload.isPending} onClick={() => reload.mutate()}>
        {reload.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
        Загрузить кампании заново
      </button>
      <p className="muted">Или подключите другой аккаунт:</p>
    </div>
  );
}

function DirectApiForm({ onStarted, onError }: { onStarted: (job: ImportJob) => void; onError: (e: ImportErrorState | null) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DirectApiPreviewRequest>({
    resolver: valibotResolver(DirectApiPreviewSchema),
    mode: 'onTouched',
    defaultValues: { token: '', client_login: '', sandbox: false },
  });
  const load = useMutation({
    mutationFn: startDirectApiImport,
    onMutate: () => onError(null),
    onSuccess: onStarted,
    onError: (error) => onError(importErrorOf(error)),
  });

  return (
    <form className="form" noValidate aria-label="Подключение API Яндекс Директа" onSubmit={handleSubmit((values) => load.mutate(values))}>
      <FormField id="direct-token" label="OAuth-токен" error={errors.token?.message} hint="Токен хранится в зашифрованном виде и никому не показывается.">
        <input id="direct-token" type="password" className="input" autoComplete="off" aria-invalid={Boolean(errors.token)} {...register('token')} />
      </FormField>
      <FormField id="direct-login" label="Client-Login (для агентских аккаунтов)" error={errors.client_login?.message}>
        <input id="direct-login" className="input" autoComplete="off" {...register('client_login')} />
      </FormField>
      <label className="checkbox">
        <input type="checkbox" {...register('sandbox')} /> Песочница API
      </label>
      <div className="form__row">
        <button type="submit" className="btn btn--primary" disabled={load.isPending} aria-busy={load.isPending}>
          {load.isPending && <span className="spinner" role="status" aria-label="Загрузка" />}
          Загрузить кампании
        </button>
      </div>
    </form>
  );
}
