import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiMessages } from '../../src/contract/messages.js';
import type { OrganizationRole, PlatformRole } from '../db/tables/core.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { createAccessTokens } from './jwt.js';

/** Who is calling, read from the bearer token and checked against the database on every request. */
export interface Caller {
  userId: string;
  organizationId: string;
  /** The caller's role in the organization of the token. */
  organizationRole: OrganizationRole;
  /** Platform role: 'admin' marks a platform administrator. */
  role: PlatformRole;
  isVerified: boolean;
  email: string;
  /** The login session (refresh-token family) of the access token, when it carries one. */
  sessionId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** onRequest: requires a valid access token of a current member (added from the contract's `auth`). */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest: like `authenticate` when a bearer token is sent (a bad one is refused); lets the request through without one. */
    authenticateIfPresent: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preValidation factory: requires one of these organization roles (after the contract's authentication). */
    requireOrganizationRole: (...roles: OrganizationRole[]) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preValidation: requires a platform administrator (after the contract's authentication). */
    requirePlatformAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    accessTokens: ReturnType<typeof createAccessTokens>;
  }
}

/** The caller of an authenticated route (the preHandler has already refused everyone else). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized(apiMessages.unauthorized);
  return request.caller;
}

export const authenticatePlugin = fp(
  async (app) => {
    const accessTokens = createAccessTokens(app.config);
    app.decorate('accessTokens', accessTokens);
    app.decorateRequest('caller', null);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw unauthorized(apiMessages.unauthorized);
      const claims = await accessTokens.verify(token);
      if (!claims) throw unauthorized(apiMessages.unauthorized);
      // A member removed from the organization loses access at once, not when the token expires;
      // so does a session that was logged out (its refresh-token family revoked). One query for both.
      const sessionId = claims.sessionId;
      const row = await app.db
        .selectFrom('users')
        .innerJoin('memberships', 'memberships.user_id', 'users.id')
        .select(['users.id', 'users.role', 'users.is_verified', 'users.email', 'memberships.role as organization_role'])
        .where('users.id', '=', claims.userId)
        .where('memberships.organization_id', '=', claims.organizationId)
        // A user blocked by a platform admin loses access at once, whatever token they still hold.
        .where('users.blocked_at', 'is', null)
        .$if(sessionId !== undefined, (query) =>
          query.where(({ exists, selectFrom }) =>
            exists(
              selectFrom('refresh_tokens')
                .select('refresh_tokens.id')
                .where('refresh_tokens.family_id', '=', sessionId!)
                .where('refresh_tokens.user_id', '=', claims.userId)
                .where('refresh_tokens.revoked_at', 'is', null),
            ),
          ),
        )
        .executeTakeFirst();
      if (!row) throw unauthorized(apiMessages.unauthorized);
      request.caller = {
        userId: row.id,
        organizationId: claims.organizationId,
        organizationRole: row.organization_role,
        role: row.role,
        isVerified: row.is_verified,
        email: row.email,
        ...(sessionId ? { sessionId } : {}),
      };
    });

    app.decorate('authenticateIfPresent', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.headers.authorization) await app.authenticate(request, reply);
    });

    app.decorate('requireOrganizationRole', (...roles: OrganizationRole[]) => async (request: FastifyRequest) => {
      if (!roles.includes(callerOf(request).organizationRole)) throw forbidden(apiMessages.forbidden);
    });

    app.decorate('requirePlatformAdmin', async (request: FastifyRequest) => {
      if (callerOf(request).role !== 'admin') throw forbidden(apiMessages.forbidden);
    });
  },
  { name: 'authenticate', dependencies: ['config', 'db'] },
);
