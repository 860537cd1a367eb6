import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { adminAuditLogQuery } from '@/features/admin/api';
import { AuditLogScreen, type AuditSearch } from '@/features/admin/AuditLogScreen';
import { loadFirstData } from '@/lib/route-data';

export const Route = createFileRoute('/_app/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => {
    const page = Number(search.page);
    return {
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(typeof search.action === 'string' && search.action ? { action: search.action } : {}),
    };
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadFirstData(context.queryClient, adminAuditLogQuery(deps.page ?? 1, deps.action)),
  component: AuditRoute,
});

function AuditRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <AuditLogScreen search={search} onSearch={(next) => void navigate({ search: next })} />;
}
