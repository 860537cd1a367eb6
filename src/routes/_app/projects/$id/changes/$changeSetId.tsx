import { createFileRoute } from '@tanstack/react-router';
import { changeSetQueryOptions, journalQueryOptions } from '@/features/changes/api';
import { ChangeSetScreen } from '@/features/changes/components/ChangeSetScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/projects/$id/changes/$changeSetId')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, changeSetQueryOptions(params.changeSetId), journalQueryOptions(params.changeSetId)),
  component: ChangeSetRoute,
});

function ChangeSetRoute() {
  const { id, changeSetId } = Route.useParams();
  return <ChangeSetScreen key={changeSetId} projectId={id} changeSetId={changeSetId} />;
}
