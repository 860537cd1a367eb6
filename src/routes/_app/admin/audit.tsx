import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { AuditLogPage, type AuditSearch } from '../../../features/admin/AuditLogPage';

export const Route = createFileRoute('/_app/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.action === 'string' && search.action ? { action: search.action } : {}),
    };
  },
  component: AuditRoute,
});

function AuditRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <AuditLogPage search={search} onSearch={(next) => void navigate({ search: next })} />;
}
