import type { Evidence, Finding } from '../../../contract/analysis-results.js';
import { formatEvidenceValue, formatPeriod, formatRub, formatRubPerMonth } from '../format';
import { placeOf } from './SuggestionItem';

/**
 * One finding as a marketer checks it: where, the numbers it rests on with the threshold each was
 * compared with, the period of the statistics, the money, and what to do.
 */
export function FindingCard({ finding }: { finding: Finding }) {
  const period = formatPeriod(finding.period);
  return (
    <article className="finding" data-testid="finding">
      <p className="finding__place">
        <strong>{finding.target.label ?? placeOf(finding.target)}</strong>
        {finding.target.label && <span className="muted"> · {placeOf(finding.target)}</span>}
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
    </article>
  );
}

/** The numbers a flag rests on, each with the threshold it was compared with. */
export function EvidenceList({ evidence }: { evidence: Evidence[] }) {
  if (evidence.length === 0) return null;
  return (
    <dl className="finding__evidence">
      {evidence.map((item) => (
        <div key={item.label} className="finding__fact">
          <dt>{item.label}</dt>
          <dd>
            {formatEvidenceValue(item.value, item.unit)}
            {item.threshold !== undefined && <span className="muted"> (порог {formatEvidenceValue(item.threshold, item.unit)})</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
