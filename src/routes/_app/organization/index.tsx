import { createFileRoute } from '@tanstack/react-router';
import { OrganizationPage } from '../../../features/organization/OrganizationPage';

/** The owner guard lives in ./route.tsx. */
export const Route = createFileRoute('/_app/organization/')({
  component: OrganizationPage,
});
