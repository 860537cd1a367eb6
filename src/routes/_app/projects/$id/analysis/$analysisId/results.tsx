import { createFileRoute } from '@tanstack/react-router';
import { ResultsScreen } from '@/features/analysis/components/ResultsScreen';
import { findingsFilterOf, validateFindingsSearch } from '@/features/analysis/list-search';
import { aiPlanOverviewQueryOptions } from '@/features/analysis/ai-plan/api';
import { findingsQueryOptions, isEmptyFilter } from '@/features/analysis/pages-api';
import { resultsQueryOptions } from '@/lib/analysis-results';
import '@/features/analysis/analysis.css';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/analysis/$analysisId/results')({
  // The findings list's filters (severity, check, campaign, group, text, sort) live in the address.
  validateSearch: validateFindingsSearch,
  loaderDeps: ({ search }) => findingsFilterOf(search),
  // The results (summary and the first findings, kept on disk for offline), the plan link's overview, and
  // a filtered findings list when the address asks one (the unfiltered list starts from the results).
  loader: ({ context, params, deps: filter }) =>
    loadFirstData(
      context.queryClient,
      resultsQueryOptions(params.analysisId),
      aiPlanOverviewQueryOptions(params.analysisId),
      ...(isEmptyFilter(filter) ? [] : [findingsQueryOptions(params.analysisId, filter)]),
    ),
  component: ResultsRoute,
});

function ResultsRoute() {
  const { id, analysisId } = Route.useParams();
  const search = Route.useSearch();
  return <ResultsScreen key={analysisId} projectId={id} analysisId={analysisId} search={search} />;
}
