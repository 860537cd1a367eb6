import { createFileRoute } from '@tanstack/react-router';
import { SharedReportScreen } from '@/features/reports/SharedReportScreen';

/** A shared client report: public (no login), white-label (no header or footer of the product), not indexed. */
export const Route = createFileRoute('/r/$token')({
  staticData: { hideHeader: true, hideFooter: true },
  component: SharedReportRoute,
});

function SharedReportRoute() {
  const { token } = Route.useParams();
  return <SharedReportScreen token={token} />;
}
