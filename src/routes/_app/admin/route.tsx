import { Link, Outlet, createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '../../../features/auth/guards';

/** The platform admin area: user.role === 'admin' only, everyone else goes to /projects. */
export const Route = createFileRoute('/_app/admin')({
  beforeLoad: async ({ context }) => {
    await requireAdmin(context.session);
  },
  component: AdminLayout,
});

function AdminLayout() {
  return (
    <div className="page admin">
      <div className="admin__bar">
        <Link to="/admin" className="admin__title" activeOptions={{ exact: true }}>
          Админка
        </Link>
        <Link to="/admin/invoices" className="link">Счета</Link>
        <span className="badge badge--muted">администратор платформы</span>
      </div>
      <Outlet />
    </div>
  );
}
