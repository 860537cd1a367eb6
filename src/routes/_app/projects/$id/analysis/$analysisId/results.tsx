import { createFileRoute } from '@tanstack/react-router';
import { ResultsView } from '../../../../../../features/analysis/components/ResultsView';
import { validateFindingsSearch } from '../../../../../../features/analysis/list-search';
import '../../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/results')({
  // The findings list's filters (severity, check, campaign, group, text, sort) live in the address.
  validateSearch: validateFindingsSearch,
  component: ResultsPage,
});

function ResultsPage() {
  const { id, analysisId } = Route.useParams();
  const search = Route.useSearch();
  return <ResultsView key={analysisId} projectId={id} analysisId={analysisId} search={search} />;
}
