import { createFileRoute } from '@tanstack/react-router';
import { AdminInvoicesPage } from '../../../features/admin/invoices/AdminInvoicesPage';

/** Invoices of every organization: mark paid (tokens credited once) or cancel. Admin guard in ./route.tsx. */
export const Route = createFileRoute('/_app/admin/invoices')({
  component: AdminInvoicesPage,
});
