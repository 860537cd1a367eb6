import { createFileRoute } from '@tanstack/react-router';
import { SemanticScreen } from '@/features/analysis/components/SemanticScreen';
import { suggestionsFilterOf, validateSuggestionsSearch } from '@/features/analysis/list-search';
import { suggestionsQueryOptions } from '@/features/analysis/pages-api';
import { resultsQueryOptions } from '@/lib/analysis-results';
import '@/features/analysis/analysis.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/semantic')({
  // The suggestions list's filters (kind, category, status, decision, campaign, group, text) live in the address.
  validateSearch: validateSuggestionsSearch,
  loaderDeps: ({ search }) => suggestionsFilterOf(search),
  // The results (the counts of the header) and the first page of the suggestions the address filters.
  loader: ({ context, params, deps: filter }) =>
    loadFirstData(context.queryClient, resultsQueryOptions(params.analysisId), suggestionsQueryOptions(params.analysisId, filter)),
  component: SemanticRoute,
});

function SemanticRoute() {
  const { id, analysisId } = Route.useParams();
  const search = Route.useSearch();
  return <SemanticScreen key={analysisId} projectId={id} analysisId={analysisId} search={search} />;
}
