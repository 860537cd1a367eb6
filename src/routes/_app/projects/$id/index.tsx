import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { toast } from 'sonner';
import { applyImport, deleteProject, projectKeys, projectQueryOptions } from '@/lib/projects-api';
import { loadFirstData } from '@/lib/route-data';
import { ProjectDetailScreen } from '@/features/projects/components/ProjectDetailScreen';
import { ProjectLoader } from '@/features/projects/components/ProjectLoader';
import { AuditChangesSection } from '@/features/monitoring/components/AuditChangesSection';
import { ProjectCareSection } from '@/features/monitoring/components/ProjectCareSection';
import '@/features/projects/projects.css';

export const Route = createFileRoute('/_app/projects/$id/')({
  loader: ({ context, params }) => loadFirstData(context.queryClient, projectQueryOptions(params.id)),
  component: ProjectRoute,
});

function ProjectRoute() {
  const { id } = Route.useParams();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();

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

  return (
    <ProjectLoader projectId={id}>
      {(project) => (
        <ProjectDetailScreen
          project={project}
          onDelete={() => remove.mutate()}
          deleting={remove.isPending}
          applying={reimport.isPending}
          onApplyImport={(draftId, mode) => reimport.mutateAsync({ draftId, mode })}
          changes={
            <>
              {project.last_analysis && <AuditChangesSection projectId={project.id} />}
              <ProjectCareSection projectId={project.id} />
            </>
          }
        />
      )}
    </ProjectLoader>
  );
}
