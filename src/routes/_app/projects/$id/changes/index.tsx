import { createFileRoute } from '@tanstack/react-router';
import { projectChangeSetsQueryOptions } from '@/features/changes/api';
import { ChangeSetListView } from '@/features/changes/components/ChangeSetListView';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/changes/')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, projectChangeSetsQueryOptions(params.id)),
  component: ChangeSetListPage,
});

function ChangeSetListPage() {
  const { id } = Route.useParams();
  return <ChangeSetListView projectId={id} />;
}
