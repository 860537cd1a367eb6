import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ProjectDetail } from '@contract/projects.js';
import { PageLoading } from '@/components/ui/PageStates';
import { ApiError } from '@/lib/api-client';
import { projectQueryOptions } from '@/lib/projects-api';

/**
 * Loads a project for a screen of its own (detail, new analysis) and hands it to `children` once
 * loaded; meanwhile a spinner, and for a missing or unreadable project one error card with the way back.
 */
export function ProjectLoader({ projectId, children }: { projectId: string; children: (project: ProjectDetail) => ReactNode }) {
  const project = useQuery(projectQueryOptions(projectId));
  if (project.isPending) {
    return <PageLoading label="Загрузка проекта" query={project} offlineText="Этот проект ещё не открывался на этом устройстве: он загрузится, когда связь появится." />;
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
  return <>{children(project.data)}</>;
}
