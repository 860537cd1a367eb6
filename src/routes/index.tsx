import { createFileRoute, redirect } from '@tanstack/react-router';

// Spec section 2: '/' only sends the user to the project list (whose guard handles guests).
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/projects', replace: true });
  },
});
