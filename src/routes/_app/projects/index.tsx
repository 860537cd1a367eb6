import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { PROJECT_SORTS } from '@contract/projects.js';
import { projectListQueryOptions } from '@/lib/projects-api';
import { loadFirstData } from '@/lib/route-data';
import { useWaitsForNetwork } from '@/components/ui/PageStates';
import { ProjectListScreen } from '@/features/projects/components/ProjectListScreen';
import '@/features/projects/projects.css';

// Both optional, so every link to /projects works without search params.
const SearchSchema = v.object({
  search: v.optional(v.fallback(v.string(), '')),
  sort: v.optional(v.fallback(v.picklist(PROJECT_SORTS), 'updated')),
});

/** Typing in the search box waits this long before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

export const Route = createFileRoute('/_app/projects/')({
  validateSearch: (search) => v.parse(SearchSchema, search),
  loaderDeps: ({ search: { search = '', sort = 'updated' } }) => ({ search, sort }),
  loader: ({ context, deps }) => loadFirstData(context.queryClient, projectListQueryOptions(deps)),
  component: ProjectsRoute,
});

function ProjectsRoute() {
  const { search = '', sort = 'updated' } = Route.useSearch();
  const navigate = Route.useNavigate();
  const [typed, setTyped] = useState(search);
  const query = useQuery({ ...projectListQueryOptions({ search, sort }), placeholderData: (previous) => previous });
  const offline = useWaitsForNetwork(query);

  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => void navigate({ search: (prev) => ({ ...prev, search: typed || undefined }), replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, navigate]);

  return (
    <ProjectListScreen
      projects={query.data?.items}
      loading={query.isPending}
      offline={offline}
      error={query.error ? query.error.message : null}
      search={typed}
      sort={sort}
      onSearchChange={setTyped}
      onSortChange={(next) => void navigate({ search: (prev) => ({ ...prev, sort: next }), replace: true })}
      onRetry={() => void query.refetch()}
    />
  );
}
