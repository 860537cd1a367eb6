import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { adPlatformLabels } from '@contract/campaigns.js';
import { pluralRu } from '@contract/format';
import type { ImportPreview, ImportRecord, ProjectDetail } from '@contract/projects.js';
import { readDirectJobId, reimportDirectJobKey } from '@/features/projects/direct-import-job';
import { formatCount, formatDate, formatDateTime, formatMoney, formatPercent } from '@/features/projects/format';
import { moneyHeadline } from '@/lib/analysis-format';
import { useAnalysisMoney } from '@/lib/analysis-results';
import { CampaignTree } from './CampaignTree';
import { ImportPreviewScreen } from './ImportPreviewScreen';
import { ImportSourcePanel, type SavedConnection } from './ImportSourcePanel';
import { ProjectSettingsForm } from './ProjectSettingsForm';
import { mainThresholds, moreThresholds, thresholdTextsOf } from '@/components/project-settings/thresholds';

export const DELETE_CONFIRM_TEXT = 'Удалить проект? Кампании и история импортов будут недоступны.';

interface Props {
  project: ProjectDetail;
  onDelete: () => void;
  deleting: boolean;
  onApplyImport: (draftId: string, mode: 'replace' | 'append') => Promise<unknown>;
  applying: boolean;
  /** «Что изменилось» between the project's audits (the monitoring feature's section), under the figures. */
  changes?: ReactNode;
}

/** The project screen: what it holds, what was imported when, and where to go next. */
export function ProjectDetailScreen({ project, onDelete, deleting, onApplyImport, applying, changes }: Props) {
  return (
    <section className="page project-detail">
      <Link to="/projects" className="link back-link">
        ← Проекты
      </Link>
      <header className="project-detail__header">
        <div>
          <h1>{project.name}</h1>
          <p className="muted">
            <a href={project.site_url} target="_blank" rel="noreferrer noopener" className="link">
              {project.site_url.replace(/^https?:\/\//, '')}
            </a>{' '}
            · {adPlatformLabels[project.platform]}
            {project.region && ` · ${project.region}`}
            {project.target_cpa !== null && ` · целевая цена конверсии ${formatMoney(project.target_cpa)}`}
          </p>
          {project.connection && (
            <p className="muted">
              Подключён API Яндекс Директа{project.connection.client_login && ` (Client-Login: ${project.connection.client_login})`}
              {project.connection.sandbox && ', песочница'}
            </p>
          )}
        </div>
        <div className="project-detail__actions">
          {/* These screens belong to the analysis routes (issue 5). */}
          <Link to={'/projects/$id/analysis/new' as never} params={{ id: project.id } as never} className="btn btn--primary">
            Новый анализ
          </Link>
          <Link to={'/projects/$id/page-check/new' as never} params={{ id: project.id } as never} className="btn btn--secondary">
            Проверка страниц
          </Link>
          <Link to={'/projects/$id/analysis/history' as never} params={{ id: project.id } as never} className="btn btn--secondary">
            История анализов
          </Link>
          {project.connection && (
            <Link to="/projects/$id/changes" params={{ id: project.id }} className="btn btn--secondary">
              Изменения в Директе
            </Link>
          )}
        </div>
      </header>

      <dl className="stat-grid">
        <Stat label="Кампании" value={formatCount(project.counts.campaigns)} />
        <Stat label="Группы" value={formatCount(project.counts.groups)} />
        <Stat label="Объявления" value={formatCount(project.counts.ads)} />
        <Stat label="Ключевые фразы" value={formatCount(project.counts.keywords)} />
        {project.last_analysis && <Stat label="Последний анализ" value={project.last_analysis.score === null ? '—' : `${Math.round(project.last_analysis.score)} / 100`} />}
        {project.last_analysis && project.last_analysis.score !== null && <LastAnalysisMoney analysisId={project.last_analysis.id} given={project.last_analysis.money_per_month} />}
      </dl>

      {changes}

      <ProjectStatsCard project={project} />

      <CampaignsCard project={project} onApplyImport={onApplyImport} applying={applying} />

      <Card title="История импортов">
        <ImportHistory imports={project.imports} />
      </Card>

      <SettingsCard project={project} />

      <DeleteProject onDelete={onDelete} deleting={deleting} />
    </section>
  );
}

/** The statistics of the imported period, when the import had any. */
function ProjectStatsCard({ project }: { project: ProjectDetail }) {
  if (!project.stats) return null;
  return (
    <Card title={`Статистика${project.period ? ` за ${formatDate(project.period.from)} — ${formatDate(project.period.to)}` : ''}`}>
      <dl className="stat-grid">
        <Stat label="Показы" value={formatCount(project.stats.impressions)} />
        <Stat label="Клики" value={formatCount(project.stats.clicks)} />
        <Stat label="CTR" value={project.stats.impressions > 0 ? formatPercent(project.stats.clicks / project.stats.impressions) : '—'} />
        <Stat label="Расход" value={formatMoney(project.stats.cost)} />
        <Stat label="Конверсии" value={formatCount(project.stats.conversions)} />
        <Stat label="Цена конверсии" value={project.stats.conversions > 0 ? formatMoney(project.stats.cost / project.stats.conversions) : '—'} />
      </dl>
    </Card>
  );
}

/** The campaign tree, and the panel that imports them again (files or the Direct API). */
function CampaignsCard({ project, onApplyImport, applying }: { project: ProjectDetail; onApplyImport: Props['onApplyImport']; applying: boolean }) {
  // A Direct import still running from an earlier visit reopens the import panel with its progress.
  const [reimporting, setReimporting] = useState(() => readDirectJobId(reimportDirectJobKey(project.id)) !== null);
  return (
    <Card
      title="Кампании"
      action={
        <button type="button" className="btn btn--secondary btn--small" onClick={() => setReimporting(!reimporting)} aria-expanded={reimporting}>
          {project.counts.campaigns > 0 ? 'Обновить кампании' : 'Загрузить кампании'}
        </button>
      }
    >
      {reimporting && (
        <Reimport
          projectId={project.id}
          platform={project.platform}
          saved={project.connection ? { projectId: project.id, connection: project.connection } : undefined}
          hasCampaigns={project.counts.campaigns > 0}
          applying={applying}
          onApply={async (draftId, mode) => {
            try {
              await onApplyImport(draftId, mode);
              setReimporting(false);
            } catch {
              // The screen shows the error as a toast; the preview stays for another try.
            }
          }}
        />
      )}
      <CampaignTree projectId={project.id} campaigns={project.campaigns} />
      {project.search_queries > 0 && <p className="muted">Поисковых запросов в отчёте: {formatCount(project.search_queries)}</p>}
    </Card>
  );
}

/** The project's settings, shown or edited. */
function SettingsCard({ project }: { project: ProjectDetail }) {
  const [editing, setEditing] = useState(false);
  return (
    <Card
      title="Настройки проекта"
      action={
        !editing && (
          <button type="button" className="btn btn--secondary btn--small" onClick={() => setEditing(true)}>
            Изменить настройки
          </button>
        )
      }
    >
      {editing ? <ProjectSettingsForm project={project} onClose={() => setEditing(false)} /> : <SettingsSummary project={project} />}
    </Card>
  );
}

/** «Удалить проект», asked again before it is done. */
function DeleteProject({ onDelete, deleting }: { onDelete: () => void; deleting: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="project-detail__danger">
      {confirming ? (
        <div className="confirm" role="alertdialog" aria-labelledby="delete-project-question">
          <p id="delete-project-question">{DELETE_CONFIRM_TEXT}</p>
          <div className="form__row">
            <button type="button" className="btn btn--danger" onClick={onDelete} disabled={deleting} aria-busy={deleting}>
              Удалить
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setConfirming(false)} disabled={deleting}>
              Отмена
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn btn--ghost" onClick={() => setConfirming(true)}>
          Удалить проект
        </button>
      )}
    </div>
  );
}

interface ReimportProps {
  projectId: string;
  platform: string;
  saved?: SavedConnection;
  hasCampaigns: boolean;
  applying: boolean;
  onApply: (draftId: string, mode: 'replace' | 'append') => Promise<void>;
}

function Reimport({ projectId, platform, saved, hasCampaigns, applying, onApply }: ReimportProps) {
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  if (!preview) return <ImportSourcePanel platform={platform} onPreview={setPreview} saved={saved} jobStorageKey={reimportDirectJobKey(projectId)} />;
  return (
    <div className="reimport">
      <ImportPreviewScreen preview={preview} onChange={setPreview} />
      {hasCampaigns && (
        <div className="segmented" role="radiogroup" aria-label="Что сделать с текущими кампаниями">
          <label className="segmented__option">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => setMode('replace')} />
            <span>Заменить текущие</span>
          </label>
          <label className="segmented__option">
            <input type="radio" name="import-mode" value="append" checked={mode === 'append'} onChange={() => setMode('append')} />
            <span>Добавить к текущим</span>
          </label>
        </div>
      )}
      <div className="form__row">
        <button type="button" className="btn btn--primary" disabled={applying} aria-busy={applying} onClick={() => void onApply(preview.draft_id, mode)}>
          Сохранить импорт
        </button>
        <button type="button" className="btn btn--secondary" disabled={applying} onClick={() => setPreview(null)}>
          Загрузить другие данные
        </button>
      </div>
    </div>
  );
}

/** The thresholds the next analysis starts from (the project's own over the defaults). */
function SettingsSummary({ project }: { project: ProjectDetail }) {
  const texts = thresholdTextsOf(project.settings);
  return (
    <>
      <dl className="stat-grid" aria-label="Пороги анализа">
        {mainThresholds.map((field) => (
          <Stat key={field.key} label={field.label} value={texts[field.key]} />
        ))}
      </dl>
      {/* The dozens of per-check thresholds fold away: on a phone they were most of the page. */}
      <p className="muted">Конкуренты: {texts.competitors || 'не указаны'}</p>
      <details className="threshold-fields__more">
        <summary>Остальные пороги ({moreThresholds.length})</summary>
        <dl className="stat-grid" aria-label="Остальные пороги анализа">
          {moreThresholds.map((field) => (
            <Stat key={field.key} label={field.label} value={texts[field.key]} />
          ))}
        </dl>
      </details>
    </>
  );
}

const SOURCE_LABELS: Record<ImportRecord['source'], string> = { files: 'Файлы', direct_api: 'API Яндекс Директа' };
const MODE_LABELS: Record<ImportRecord['mode'], string> = { create: 'создание', replace: 'замена', append: 'добавление' };

function ImportHistory({ imports }: { imports: ImportRecord[] }) {
  if (imports.length === 0) return <p className="muted">Импортов ещё не было.</p>;
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th>Когда</th>
            <th>Источник</th>
            <th>Режим</th>
            <th>Кампании</th>
            <th>Фразы</th>
            <th>Объявления</th>
            <th>Замечания</th>
            <th>Кто</th>
          </tr>
        </thead>
        <tbody>
          {imports.map((record) => (
            <tr key={record.id}>
              <td data-label="Когда">{formatDateTime(record.created_at)}</td>
              <td data-label="Источник" title={record.file_names.join(', ')}>
                {SOURCE_LABELS[record.source]}
                {record.file_names.length > 0 && <span className="muted"> ({record.file_names.join(', ')})</span>}
                {record.units_spent !== null && (
                  <span className="muted">
                    {' '}
                    · {formatCount(record.units_spent)} {pluralRu(record.units_spent, ['балл', 'балла', 'баллов'])} API
                  </span>
                )}
              </td>
              <td data-label="Режим">{MODE_LABELS[record.mode]}</td>
              <td data-label="Кампании">{formatCount(record.counts.campaigns)}</td>
              <td data-label="Фразы">{formatCount(record.counts.keywords)}</td>
              <td data-label="Объявления">{formatCount(record.counts.ads)}</td>
              <td data-label="Замечания">{record.problems.length}</td>
              <td data-label="Кто">{record.created_by?.full_name ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Card({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="card">
      <div className="card__header">
        <h2 className="card__title">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <dt className="stat__label">{label}</dt>
      <dd className="stat__value">{value}</dd>
    </div>
  );
}

/**
 * The last analysis' one money figure, from its results summary (read once, kept for offline: the
 * results screen then opens at once). Older analyses without the money story show nothing here.
 */
function LastAnalysisMoney({ analysisId, given }: { analysisId: string; given: number | null | undefined }) {
  const perMonth = useAnalysisMoney(analysisId, given, { fetch: true });
  if (perMonth === null) return null;
  return <Stat label="Потери денег" value={perMonth > 0 ? moneyHeadline(perMonth) : 'Не найдено'} />;
}
