import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import { applyImport, deleteProject, projectKeys, projectQueryOptions } from '../../../../features/projects/api';
import { ProjectDetailView } from '../../../../features/projects/components/ProjectDetailView';
import { ApiError } from '../../../../lib/api-client';
import '../../../../features/projects/projects.css';

export const Route = createFileRoute('/_app/projects/$id/')({
  component: ProjectPage,
});

function ProjectPage() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  const project = useQuery(projectQueryOptions(id));

  const remove = useMutation({
    mutationFn: () => deleteProject(id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      toast.success('Проект удалён');
      void navigate({ to: '/projects' });
    },
    onError: (error) => toast.error(error.message),
  });

  const reimport = useMutation({
    mutationFn: ({ draftId, mode }: { draftId: string; mode: 'replace' | 'append' }) => applyImport(id, { draft_id: draftId, mode }),
    onSuccess: async (detail) => {
      queryClient.setQueryData(projectKeys.detail(id), detail);
      queryClient.removeQueries({ queryKey: [...projectKeys.detail(id), 'campaign'] });
      await queryClient.invalidateQueries({ queryKey: ['projects', 'list'] });
      toast.success('Кампании обновлены');
    },
    onError: (error) => toast.error(error.message),
  });

  if (project.isPending) {
    return (
      <section className="page state-line">
        <span className="spinner" role="status" aria-label="Загрузка проекта" />
      </section>
    );
  }
  if (!project.data) {
    const notFound = project.error instanceof ApiError && project.error.status === 404;
    return (
      <section className="page page--narrow state-card state-card--error" role="alert">
        <h1>{notFound ? 'Проект не найден' : 'Не удалось загрузить проект'}</h1>
        {!notFound && <p className="muted">{project.error?.message}</p>}
        <Link to="/projects" className="btn btn--primary">
          К проектам
        </Link>
      </section>
    );
  }
  return (
    <ProjectDetailView
      project={project.data}
      onDelete={() => remove.mutate()}
      deleting={remove.isPending}
      applying={reimport.isPending}
      onApplyImport={(draftId, mode) => reimport.mutateAsync({ draftId, mode })}
    />
  );
}
