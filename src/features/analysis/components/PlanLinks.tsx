import { Link } from '@tanstack/react-router';

interface AuditIds {
  projectId: string;
  analysisId: string;
}

/** «← К результатам» at the top of a plan screen (the audit's own plan and the AI plan). */
export function BackToResultsLink({ projectId, analysisId }: AuditIds) {
  return (
    <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId }} className="link back-link">
      ← К результатам
    </Link>
  );
}

/**
 * Where to go from a plan: accept the audit's suggestions or return to the results. On the audit's own
 * plan accepting is the screen's main action; on the AI plan the request button is, so both links stay secondary.
 */
export function PlanNextSteps({ projectId, analysisId, acceptIsMainAction = false }: AuditIds & { acceptIsMainAction?: boolean }) {
  return (
    <div className="analysis-actions">
      <Link to="/projects/$id/analysis/$analysisId/semantic" params={{ id: projectId, analysisId }} className={`btn ${acceptIsMainAction ? 'btn--primary' : 'btn--secondary'}`}>
        Принять предложения
      </Link>
      <Link to="/projects/$id/analysis/$analysisId/results" params={{ id: projectId, analysisId }} className="btn btn--secondary">
        К результатам
      </Link>
    </div>
  );
}
