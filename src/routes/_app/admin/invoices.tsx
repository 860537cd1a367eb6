import { createFileRoute } from '@tanstack/react-router';
import { adminInvoicesQuery, FIRST_INVOICE_STATUS } from '@/features/admin/invoices/api';
import { AdminInvoicesScreen } from '@/features/admin/invoices/AdminInvoicesScreen';
import { loadFirstData } from '@/lib/route-data';

/** Invoices of every organization: mark paid (tokens credited once) or cancel. Admin guard in ./route.tsx. */
export const Route = createFileRoute('/_app/admin/invoices')({
  loader: ({ context }) => loadFirstData(context.queryClient, adminInvoicesQuery(FIRST_INVOICE_STATUS)),
  component: AdminInvoicesScreen,
});
