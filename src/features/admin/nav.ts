/**
 * The sections of the admin area, in the order of its navigation bar (route.tsx of /admin). A new
 * screen under /admin adds one line here.
 */
export interface AdminSection {
  to: '/admin' | '/admin/users' | '/admin/organizations' | '/admin/invoices' | '/admin/runs' | '/admin/audit' | (string & {});
  label: string;
}

export const adminSections: AdminSection[] = [
  { to: '/admin', label: 'Обзор' },
  { to: '/admin/users', label: 'Пользователи' },
  { to: '/admin/organizations', label: 'Организации' },
  { to: '/admin/invoices', label: 'Счета' },
  { to: '/admin/runs', label: 'Запуски и очереди' },
  { to: '/admin/audit', label: 'Журнал действий' },
];
