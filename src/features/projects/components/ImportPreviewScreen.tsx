import type { ImportPreview } from '@contract/projects.js';
import { formatCount, formatDateTime } from '@/features/projects/format';
import { StatisticsPeriod } from './StatisticsPeriod';

const MAX_PROBLEMS_SHOWN = 50;

/**
 * What will be imported, before it is saved: totals, the statistics read (rows, period — asked for when the
 * files do not say it), campaigns, and the warnings found in the files. `onChange`: the preview with the period entered.
 */
export function ImportPreviewScreen({ preview, onChange }: { preview: ImportPreview; onChange: (preview: ImportPreview) => void }) {
  const { counts } = preview;
  const warnings = preview.problems;
  return (
    <section className="import-preview" aria-label="Что будет импортировано">
      <h2 className="card__title">Что будет импортировано</h2>
      {preview.file_names.length > 0 && <p className="muted">Файлы: {preview.file_names.join(', ')}</p>}
      {preview.source === 'direct_api' && <p className="muted">Источник: API Яндекс Директа</p>}
      <UnitsLine units={preview.units} />
      <dl className="stat-grid">
        <Stat label="Кампании" value={counts.campaigns} />
        <Stat label="Группы" value={counts.groups} />
        <Stat label="Объявления" value={counts.ads} />
        <Stat label="Ключевые фразы" value={counts.keywords} />
        {counts.searchQueries > 0 && <Stat label="Поисковые запросы" value={counts.searchQueries} />}
      </dl>
      <StatisticsPeriod preview={preview} onPeriodSet={(period) => onChange({ ...preview, period })} />
      {preview.campaigns.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Кампания</th>
                <th>Группы</th>
                <th>Объявления</th>
                <th>Фразы</th>
              </tr>
            </thead>
            <tbody>
              {preview.campaigns.map((campaign, index) => (
                <tr key={index}>
                  <td data-label="Кампания">{campaign.name}</td>
                  <td data-label="Группы">{formatCount(campaign.groups)}</td>
                  <td data-label="Объявления">{formatCount(campaign.ads)}</td>
                  <td data-label="Фразы">{formatCount(campaign.keywords)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {warnings.length > 0 && (
        <details className="details import-preview__problems">
          <summary>Замечания при чтении файлов: {warnings.length}</summary>
          <ul>
            {warnings.slice(0, MAX_PROBLEMS_SHOWN).map((problem, index) => (
              <li key={index}>
                {problem.file}
                {problem.row !== undefined && `, строка ${problem.row}`}
                {problem.column && `, «${problem.column}»`}: {problem.message}
              </li>
            ))}
          </ul>
          {warnings.length > MAX_PROBLEMS_SHOWN && <p className="muted">И ещё {warnings.length - MAX_PROBLEMS_SHOWN}.</p>}
        </details>
      )}
      <p className="field__hint">Предпросмотр хранится до {formatDateTime(preview.expires_at)}.</p>
    </section>
  );
}

/** Points the Direct API charged for the import (its Units header), so an agency sees what is left for today. */
function UnitsLine({ units }: { units: unknown }) {
  if (typeof units !== 'object' || units === null) return null;
  const { spent, available, daily } = units as { spent?: unknown; available?: unknown; daily?: unknown };
  if (typeof spent !== 'number') return null;
  return (
    <p className="muted">
      Баллы API Директа: потрачено {formatCount(spent)}
      {typeof available === 'number' && `, осталось ${formatCount(available)}`}
      {typeof daily === 'number' && ` из ${formatCount(daily)} в сутки`}
    </p>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="stat">
      <dt className="stat__label">{label}</dt>
      <dd className="stat__value">{formatCount(value)}</dd>
    </div>
  );
}
