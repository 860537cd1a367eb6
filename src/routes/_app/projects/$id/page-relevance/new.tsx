import { createFileRoute, redirect } from '@tanstack/react-router';

/** The page check's former address (in the product spec's route table): it lives at /page-check now. */
export const Route = createFileRoute('/_app/projects/$id/page-relevance/new')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/projects/$id/page-check/new', params, replace: true });
  },
});
