import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { adminProjectQuery } from '../../-api';
import { AdminBackLink, DetailList, NestedBlocks, QueryState } from '../../-components';

export const Route = createFileRoute('/_app/admin/projects/$id/')({
  component: AdminProjectDetail,
});

function AdminProjectDetail() {
  const { id } = Route.useParams();
  const project = useQuery(adminProjectQuery(id));
  const title = typeof project.data?.name === 'string' ? project.data.name : 'Проект';

  return (
    <div className="stack">
      <AdminBackLink to="/admin">Все проекты</AdminBackLink>
      <div className="page-header">
        <h1>{title}</h1>
        <Link to="/admin/projects/$id/analyses" params={{ id }} className="btn btn--primary btn--small">
          Анализы проекта
        </Link>
      </div>
      <QueryState
        isPending={project.isPending}
        error={project.error}
        emptyText="Нет данных о проекте."
        onRetry={() => void project.refetch()}
      >
        {project.data && (
          <>
            <section className="card">
              <DetailList record={project.data} />
            </section>
            <NestedBlocks record={project.data} />
          </>
        )}
      </QueryState>
    </div>
  );
}
