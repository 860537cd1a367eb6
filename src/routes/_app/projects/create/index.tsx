import { createFileRoute, redirect } from '@tanstack/react-router';

/** /projects/create starts at step 1. */
export const Route = createFileRoute('/_app/projects/create/')({
  beforeLoad: () => {
    throw redirect({ to: '/projects/create/step1', replace: true });
  },
});
