import { Link, Outlet, createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/features/auth/guards';
import { adminSections } from '@/features/admin/nav';
import '@/features/admin/admin.css';

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
        <span className="badge badge--muted">администратор платформы</span>
      </div>
      <nav className="admin-nav" aria-label="Разделы админки">
        {adminSections.map((section) => (
          // The sections are plain paths (nav.ts), so another screen is one line there, not a new link here.
          <Link
            key={section.to}
            to={section.to as '/admin'}
            className="admin-nav__link"
            activeProps={{ className: 'admin-nav__link admin-nav__link--active', 'aria-current': 'page' }}
            activeOptions={{ exact: section.to === '/admin' }}
          >
            {section.label}
          </Link>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
