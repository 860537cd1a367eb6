import { createFileRoute } from '@tanstack/react-router';
import { HistoryView } from '../../../../../features/analysis/components/HistoryView';
import '../../../../../features/analysis/analysis.css';

export const Route = createFileRoute('/_app/projects/$id/analysis/history')({
  component: HistoryPage,
});

function HistoryPage() {
  const { id } = Route.useParams();
  return <HistoryView projectId={id} />;
}
