import type { OrganizationRole } from '../../contract/organizations.js';

export const organizationRoleLabels: Record<OrganizationRole, string> = {
  owner: 'Владелец',
  admin: 'Администратор',
  member: 'Участник',
};

export function roleLabel(role: string): string {
  return organizationRoleLabels[role as OrganizationRole] ?? role;
}
