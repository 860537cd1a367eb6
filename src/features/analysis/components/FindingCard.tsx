import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EntityLevel, Finding, FindingFile, FindingItem, StoredEvidence } from '@contract/analysis-results.js';
import { Spinner } from '@/components/ui/form';
import { saveBlob } from '@/lib/download';
import { useOnlineStatus } from '@/lib/useOnlineStatus';
import { formatCount, formatEvidenceValue, formatPeriod, formatRub, formatRubPerMonth, placeAround, placeOf, pluralRu } from '@/lib/analysis-format';
import { findingItemsQueryOptions, itemsOf, totalOf } from '@/features/analysis/pages-api';
import { LoadMore, NeedsNetwork } from './PagedList';

const itemNouns: Partial<Record<EntityLevel, [string, string, string]>> = {
  keyword: ['фраза', 'фразы', 'фраз'],
  ad: ['объявление', 'объявления', 'объявлений'],
  query: ['запрос', 'запроса', 'запросов'],
  group: ['группа', 'группы', 'групп'],
  campaign: ['кампания', 'кампании', 'кампаний'],
};

/** «12 фраз», «3 объявления»: what an aggregated finding covers, named after its items. */
export function itemsCountText(finding: Finding): string {
  const count = finding.count ?? 0;
  const level = finding.items?.[0]?.target.level ?? 'keyword';
  return `${formatCount(count)} ${pluralRu(count, itemNouns[level] ?? ['место', 'места', 'мест'])}`;
}

/**
 * One finding as a marketer checks it: where, the numbers it rests on with the threshold each was
 * compared with, the period of the statistics, the money, and what to do. An aggregated finding («N фраз»)
 * shows its worst examples and the whole list a click away (read page by page).
 */
export function FindingCard({ finding, analysisId }: { finding: Finding; analysisId?: string }) {
  const period = formatPeriod(finding.period);
  const aggregated = finding.count !== undefined && finding.count > 0;
  return (
    <article className="finding" data-testid="finding">
      <p className="finding__place">
        <strong>{finding.target.label ?? placeOf(finding.target)}</strong>
        {finding.target.label && placeAround(finding.target) && <span className="muted"> · {placeAround(finding.target)}</span>}
        {aggregated && <span className="finding__count"> · {itemsCountText(finding)}</span>}
      </p>
      <EvidenceList evidence={finding.evidence} />
      {(period || finding.moneyPerMonth !== undefined) && (
        <p className="finding__money">
          {finding.moneyPerMonth !== undefined && finding.moneyPerMonth > 0 && <strong>{formatRubPerMonth(finding.moneyPerMonth)}</strong>}
          {finding.money !== undefined && finding.money > 0 && period && <span className="muted"> · {formatRub(finding.money)} за период</span>}
          {period && <span className="muted"> · период {period}</span>}
        </p>
      )}
      <p className="finding__explanation">{finding.explanation}</p>
      <p className="finding__fix">
        <strong>Что сделать:</strong> {finding.fix}
      </p>
      {finding.file && <FindingFileButton file={finding.file} />}
      {aggregated && <FindingItems finding={finding} analysisId={analysisId} />}
    </article>
  );
}

/** The ready file of a finding (the sites to exclude), saved from the page: it is in the finding already. */
function FindingFileButton({ file }: { file: FindingFile }) {
  return (
    <button type="button" className="link-button" onClick={() => saveBlob(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }), file.name)}>
      {file.label}
    </button>
  );
}

/** The examples an aggregated finding carries, and a button that reads all of its items. */
function FindingItems({ finding, analysisId }: { finding: Finding; analysisId?: string }) {
  const [open, setOpen] = useState(false);
  const examples = finding.items ?? [];
  const more = (finding.count ?? 0) > examples.length;
  return (
    <div className="finding__items">
      {!open && examples.length > 0 && (
        <ul className="finding-items" aria-label={`Примеры: ${finding.title}`}>
          {examples.map((item) => (
            <FindingItemRow key={item.target.key} item={item} />
          ))}
        </ul>
      )}
      {open && analysisId && <AllFindingItems finding={finding} analysisId={analysisId} />}
      {more && analysisId && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
          {open ? 'Свернуть' : `Все ${itemsCountText(finding)}`}
        </button>
      )}
    </div>
  );
}

function AllFindingItems({ finding, analysisId }: { finding: Finding; analysisId: string }) {
  const online = useOnlineStatus();
  const query = useInfiniteQuery(findingItemsQueryOptions(analysisId, finding.id));
  const items = itemsOf(query.data);
  const total = totalOf(query.data) ?? finding.count ?? 0;
  if (query.isPending) return !online || query.fetchStatus === 'paused' ? <NeedsNetwork noun="все места замечания" /> : <Spinner label="Загрузка списка" />;
  if (query.isError && items.length === 0) return <p className="form-error" role="alert">{query.error.message}</p>;
  return (
    <>
      <ul className="finding-items finding-items--all" aria-label={`Все места: ${finding.title}`}>
        {items.map((item) => (
          <FindingItemRow key={item.target.key} item={item} />
        ))}
      </ul>
      <p className="muted">
        Показано {formatCount(items.length)} из {formatCount(total)}
      </p>
      <LoadMore query={query} online={online} noun="места замечания" />
    </>
  );
}

function FindingItemRow({ item }: { item: FindingItem }) {
  return (
    <li className="finding-item" data-testid="finding-item">
      <span className="finding-item__label">{item.target.label ?? placeOf(item.target)}</span>
      {item.moneyPerMonth !== undefined && item.moneyPerMonth > 0 && <span className="finding-item__money"> {formatRubPerMonth(item.moneyPerMonth)}</span>}
      {item.evidence.length > 0 && (
        <span className="muted finding-item__facts"> · {item.evidence.map((fact) => `${fact.label}: ${formatEvidenceValue(fact)}`).join(', ')}</span>
      )}
    </li>
  );
}

/** The numbers a flag rests on, each with the threshold it was compared with. */
export function EvidenceList({ evidence }: { evidence: readonly StoredEvidence[] }) {
  if (evidence.length === 0) return null;
  return (
    <dl className="finding__evidence">
      {evidence.map((item) => (
        <div key={item.label} className="finding__fact">
          <dt>{item.label}</dt>
          <dd>
            {formatEvidenceValue(item)}
            {item.threshold !== undefined && <span className="muted"> (порог {formatEvidenceValue(item, 'threshold')})</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
