import { createFileRoute } from '@tanstack/react-router';
import { SemanticView } from '../../../../../../features/analysis/components/SemanticView';
import { validateSuggestionsSearch } from '../../../../../../features/analysis/list-search';
import '../../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/semantic')({
  // The suggestions list's filters (kind, category, status, decision, campaign, group, text) live in the address.
  validateSearch: validateSuggestionsSearch,
  component: SemanticPage,
});

function SemanticPage() {
  const { id, analysisId } = Route.useParams();
  const search = Route.useSearch();
  return <SemanticView key={analysisId} projectId={id} analysisId={analysisId} search={search} />;
}
