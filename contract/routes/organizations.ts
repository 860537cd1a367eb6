/** /api/v1/organizations: the caller's organizations, the current one's settings, invitation code and members. */
import { ErrorBodySchema, NoContentSchema } from '../common.js';
import {
  CurrentOrganizationSchema,
  InvitationCodeResponseSchema,
  MemberListSchema,
  MemberParamsSchema,
  OrganizationListSchema,
  UpdateOrganizationSchema,
  UserRoleResponseSchema,
} from '../organizations.js';
import { TransferResponseSchema, TransferSchema } from '../payments.js';
import { defineRoute } from './route.js';

const tags = ['organizations'];

export const organizationRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations',
    response: { 200: OrganizationListSchema },
    tags,
    summary: "All of the caller's organizations (for switching)",
    auth: true,
  }),
  current: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/current',
    response: { 200: CurrentOrganizationSchema },
    tags,
    summary: 'The current organization (invitation_code for owners and admins)',
    auth: true,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/organizations/current',
    body: UpdateOrganizationSchema,
    response: { 200: CurrentOrganizationSchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Rename the organization (owner or admin); plan_type only by a platform admin',
    access: 'organization-manager',
    auth: true,
  }),
  userRole: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/user-role',
    response: { 200: UserRoleResponseSchema },
    tags,
    summary: "The caller's role in the current organization",
    auth: true,
  }),
  invitationCode: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/invitation-code',
    response: { 200: InvitationCodeResponseSchema, 403: ErrorBodySchema },
    tags,
    summary: 'The invitation code (owner or admin)',
    access: 'organization-manager',
    auth: true,
  }),
  regenerateInvitationCode: defineRoute({
    method: 'POST',
    path: '/api/v1/organizations/regenerate-invitation-code',
    response: { 200: InvitationCodeResponseSchema, 403: ErrorBodySchema },
    tags,
    summary: 'Replace the invitation code with a new one (owner or admin)',
    access: 'organization-manager',
    auth: true,
  }),
  members: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/members',
    response: { 200: MemberListSchema, 403: ErrorBodySchema },
    tags,
    summary: 'Members of the current organization (owner or admin)',
    access: 'organization-manager',
    auth: true,
  }),
  transfer: defineRoute({
    method: 'POST',
    path: '/api/v1/organizations/members/:userId/transfer',
    params: MemberParamsSchema,
    body: TransferSchema,
    response: { 200: TransferResponseSchema, 402: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: "Move tokens from the owner's balance to a member's (to_member) or back (from_member); owner only; one idempotency_key moves once",
    auth: true,
    verifiedEmail: true,
  }),
  removeMember: defineRoute({
    method: 'DELETE',
    path: '/api/v1/organizations/members/:userId',
    params: MemberParamsSchema,
    response: { 204: NoContentSchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
    tags,
    summary: "Remove a member (owner or admin; never the owner or oneself; only the owner removes admins); revokes the member's sessions here",
    access: 'organization-manager',
    auth: true,
  }),
};
