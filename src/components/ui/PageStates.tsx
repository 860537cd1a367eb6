import { Link } from '@tanstack/react-router';
import { Spinner } from './form';

/** A whole screen still loading what it shows: only a spinner, named for screen readers. */
export function PageLoading({ label }: { label: string }) {
  return (
    <section className="page state-line">
      <Spinner label={label} />
    </section>
  );
}

/** A run the server does not know (a campaign audit or a page-relevance check), with the way back to its project. */
export function AnalysisNotFound({ projectId }: { projectId: string }) {
  return (
    <div className="state-card state-card--error" role="alert">
      <h1>Анализ не найден</h1>
      <Link to="/projects/$id" params={{ id: projectId }} className="btn btn--primary">
        К проекту
      </Link>
    </div>
  );
}
