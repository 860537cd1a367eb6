import type { FastifyPluginAsync } from 'fastify';
import { ErrorBodySchema, NoContentSchema } from '../../src/contract/common.js';
import {
  CurrentOrganizationSchema,
  InvitationCodeResponseSchema,
  MemberListSchema,
  MemberParamsSchema,
  OrganizationListSchema,
  UpdateOrganizationSchema,
  UserRoleResponseSchema,
} from '../../src/contract/organizations.js';
import { TransferResponseSchema, TransferSchema } from '../../src/contract/payments.js';
import { callerOf } from '../auth/authenticate.js';
import { transferTokens } from '../tokens/transfer.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { getCurrentOrganization, getInvitationCode, listMembers, listOrganizations, regenerateInvitationCode, removeMember, updateCurrentOrganization } from './service.js';

// Who may do what (spec section 6 leaves the server side open; this is our rule):
// every member reads the organization and their own role; owners and admins manage it
// (settings, invitation code, members); the plan changes only by a platform administrator.

const tags = ['organizations'];

const list = { response: { 200: OrganizationListSchema }, tags, summary: "All of the caller's organizations (for switching)", auth: true } satisfies RouteContract;
const current = { response: { 200: CurrentOrganizationSchema }, tags, summary: 'The current organization (invitation_code for owners and admins)', auth: true } satisfies RouteContract;
const update = {
  body: UpdateOrganizationSchema,
  response: { 200: CurrentOrganizationSchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
  tags,
  summary: 'Rename the organization (owner or admin); plan_type only by a platform admin',
  auth: true,
} satisfies RouteContract;
const userRole = { response: { 200: UserRoleResponseSchema }, tags, summary: "The caller's role in the current organization", auth: true } satisfies RouteContract;
const invitationCode = { response: { 200: InvitationCodeResponseSchema, 403: ErrorBodySchema }, tags, summary: 'The invitation code (owner or admin)', auth: true } satisfies RouteContract;
const regenerate = { response: { 200: InvitationCodeResponseSchema, 403: ErrorBodySchema }, tags, summary: 'Replace the invitation code with a new one (owner or admin)', auth: true } satisfies RouteContract;
const members = { response: { 200: MemberListSchema, 403: ErrorBodySchema }, tags, summary: 'Members of the current organization (owner or admin)', auth: true } satisfies RouteContract;
const removal = {
  params: MemberParamsSchema,
  response: { 204: NoContentSchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
  tags,
  summary: "Remove a member (owner or admin; never the owner or oneself; only the owner removes admins); revokes the member's sessions here",
  auth: true,
} satisfies RouteContract;

const transfer = {
  params: MemberParamsSchema,
  body: TransferSchema,
  response: { 200: TransferResponseSchema, 402: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
  tags,
  summary: "Move tokens from the owner's balance to a member's (to_member) or back (from_member); owner only; one idempotency_key moves once",
  auth: true,
} satisfies RouteContract;

export const organizationRoutes: FastifyPluginAsync = async (app) => {
  // After the contract's authentication (onRequest) and before the body is validated.
  const manager = [app.requireOrganizationRole('owner', 'admin')];

  app.get('/', { schema: routeSchema(list) }, async (request) => ({
    organizations: await listOrganizations(app.db, callerOf(request).userId),
  }));

  app.get('/current', { schema: routeSchema(current) }, async (request) => getCurrentOrganization(app.db, callerOf(request)));

  app.put<Req<typeof update>>('/current', { schema: routeSchema(update), preValidation: manager }, async (request) =>
    updateCurrentOrganization(app.db, callerOf(request), request.body),
  );

  app.get('/user-role', { schema: routeSchema(userRole) }, async (request) => ({ role: callerOf(request).organizationRole }));

  app.get('/invitation-code', { schema: routeSchema(invitationCode), preValidation: manager }, async (request) => ({
    invitation_code: await getInvitationCode(app.db, callerOf(request).organizationId),
  }));

  app.post('/regenerate-invitation-code', { schema: routeSchema(regenerate), preValidation: manager }, async (request) => ({
    invitation_code: await regenerateInvitationCode(app.db, callerOf(request).organizationId),
  }));

  app.get('/members', { schema: routeSchema(members), preValidation: manager }, async (request) => ({
    members: await listMembers(app.db, callerOf(request).organizationId, { withBalances: callerOf(request).organizationRole === 'owner' }),
  }));

  app.post<Req<typeof transfer>>('/members/:userId/transfer', { schema: routeSchema(transfer) }, async (request) =>
    transferTokens(app.db, callerOf(request), { memberId: request.params.userId, ...request.body, idempotencyKey: request.body.idempotency_key }),
  );

  app.delete<Req<typeof removal>>('/members/:userId', { schema: routeSchema(removal), preValidation: manager }, async (request, reply) => {
    await removeMember(app.db, callerOf(request), request.params.userId);
    return reply.status(204).send();
  });
};
