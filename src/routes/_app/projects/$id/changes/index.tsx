import { createFileRoute } from '@tanstack/react-router';
import { projectChangeSetsQueryOptions } from '@/features/changes/api';
import { ChangeSetListScreen } from '@/features/changes/components/ChangeSetListScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/changes/')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, projectChangeSetsQueryOptions(params.id)),
  component: ChangeSetListRoute,
});

function ChangeSetListRoute() {
  const { id } = Route.useParams();
  return <ChangeSetListScreen projectId={id} />;
}
