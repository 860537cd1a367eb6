import { createFileRoute } from '@tanstack/react-router';
import { SharedReportPage } from '@/features/reports/SharedReportPage';

/** A shared client report: public (no login), white-label (no header or footer of the product), not indexed. */
export const Route = createFileRoute('/r/$token')({
  staticData: { hideHeader: true, hideFooter: true },
  component: SharedReportRoute,
});

function SharedReportRoute() {
  const { token } = Route.useParams();
  return <SharedReportPage token={token} />;
}
