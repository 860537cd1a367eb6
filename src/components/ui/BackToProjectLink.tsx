import { Link } from '@tanstack/react-router';

/** «← К проекту» at the top of a project's analysis screens (audit and page check). */
export function BackToProjectLink({ projectId }: { projectId: string }) {
  return (
    <Link to="/projects/$id" params={{ id: projectId }} className="link back-link">
      ← К проекту
    </Link>
  );
}
