import { createFileRoute } from '@tanstack/react-router';
import { OrganizationSettingsPage } from '../../../features/organization/OrganizationSettingsPage';

/** The owner guard lives in ./route.tsx. */
export const Route = createFileRoute('/_app/organization/settings')({
  component: OrganizationSettingsPage,
});
