import type { FastifyPluginAsync } from 'fastify';
import { organizationRoutes as routes } from '../../contract/routes/organizations.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { transferTokens } from '../tokens/transfer.js';
import { getCurrentOrganization, getInvitationCode, listMembers, listOrganizations, regenerateInvitationCode, removeMember, updateCurrentOrganization } from './service.js';

// Who may do what (spec section 6 leaves the server side open; this is our rule, declared per route in the
// contract's `access`): every member reads the organization and their own role; owners and admins manage it
// (settings, invitation code, members); the plan changes only by a platform administrator.

export const organizationRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.list, async (request) => ({
    organizations: await listOrganizations(app.db, callerOf(request).userId),
  }));

  addRoute(app, routes.current, async (request) => getCurrentOrganization(app.db, callerOf(request)));

  addRoute(app, routes.update, async (request) => updateCurrentOrganization(app.db, callerOf(request), request.body));

  addRoute(app, routes.userRole, async (request) => ({ role: callerOf(request).organizationRole }));

  addRoute(app, routes.invitationCode, async (request) => ({
    invitation_code: await getInvitationCode(app.db, callerOf(request).organizationId),
  }));

  addRoute(app, routes.regenerateInvitationCode, async (request) => ({
    invitation_code: await regenerateInvitationCode(app.db, callerOf(request).organizationId),
  }));

  addRoute(app, routes.members, async (request) => ({
    members: await listMembers(app.db, callerOf(request).organizationId, callerOf(request).organizationRole === 'owner' ? { balancesFor: callerOf(request).userId } : {}),
  }));

  addRoute(app, routes.transfer, async (request) =>
    transferTokens(app.db, callerOf(request), { memberId: request.params.userId, ...request.body, idempotencyKey: request.body.idempotency_key }),
  );

  addRoute(app, routes.removeMember, async (request, reply) => {
    await removeMember(app.db, callerOf(request), request.params.userId);
    reply.status(204);
    return null;
  });
};
