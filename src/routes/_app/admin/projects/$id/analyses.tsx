import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { adminProjectAnalysesQuery } from '../../-api';
import { AdminBackLink, Pager, QueryState, RecordTable, pickColumns } from '../../-components';

export const Route = createFileRoute('/_app/admin/projects/$id/analyses')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  component: AdminProjectAnalyses,
});

function AdminProjectAnalyses() {
  const { id } = Route.useParams();
  const { page = 1 } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const analyses = useQuery(adminProjectAnalysesQuery(id, page));

  return (
    <div className="stack">
      <AdminBackLink to="/admin/projects/$id" params={{ id }}>
        Проект
      </AdminBackLink>
      <h1>Анализы проекта</h1>
      <QueryState
        isPending={analyses.isPending}
        error={analyses.error}
        isEmpty={analyses.data?.items.length === 0}
        emptyText="По этому проекту анализов ещё не было."
        onRetry={() => void analyses.refetch()}
      >
        {analyses.data && (
          <>
            <RecordTable
              rows={analyses.data.items}
              columns={pickColumns(analyses.data.items[0], ['kind', 'status', 'score', 'cost', 'author_email', 'created_at'])}
              linkFor={(row) =>
                row.id ? (
                  <Link to="/admin/analyses/$analysisId" params={{ analysisId: String(row.id) }} className="link">
                    Подробнее
                  </Link>
                ) : null
              }
            />
            <Pager
              page={analyses.data.page}
              pageSize={analyses.data.page_size}
              total={analyses.data.total}
              onPage={(next) => void navigate({ search: { page: next } })}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
