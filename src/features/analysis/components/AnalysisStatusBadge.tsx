import { analysisStatusLabels, type AnalysisStatus } from '@contract/analysis.js';

/** The .badge tone of each status; a queued or running analysis keeps the badge's own (primary) colours. */
const statusTone: Record<AnalysisStatus, string> = { queued: '', running: '', completed: 'badge--success', failed: 'badge--danger', cancelled: 'badge--muted' };

/** An analysis's status as a coloured badge, on the progress screen and in the history. */
export function AnalysisStatusBadge({ status }: { status: AnalysisStatus }) {
  return <span className={`badge ${statusTone[status]}`.trim()}>{analysisStatusLabels[status]}</span>;
}
