import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiMessages } from '../../contract/messages.js';
import type { ApiRoute } from '../../contract/routes/route.js';
import type { OrganizationRole, PlatformRole } from '../db/tables/core.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import type { DB } from '../db/database.js';
import { createAccessTokens, type AccessClaims } from './jwt.js';
import { createSessionCache, type SessionCache } from './session-cache.js';

/**
 * Who is calling, read from the bearer token and checked against the database (or the session cache,
 * which the database's change notifications keep current).
 */
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

/** The `done` of a callback-style fastify hook. */
type HookDone = (error?: Error) => void;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** onRequest: requires a valid access token of a current member (added from the contract's `auth`). */
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void;
    /** onRequest: like `authenticate` when a bearer token is sent (a bad one is refused); lets the request through without one. */
    authenticateIfPresent: (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void;
    accessTokens: ReturnType<typeof createAccessTokens>;
    /** Verified sessions of this process, dropped on every session change any process commits. */
    sessionCache: SessionCache<Caller>;
  }
}

/** The caller of an authenticated route (the preHandler has already refused everyone else). */
/**
 * The checks of a route's `access` in the route table (the onRoute hook of server/app.ts adds them, at
 * preValidation: after authentication, before the body is validated).
 */
export const accessChecks: Record<NonNullable<ApiRoute['access']>, (request: FastifyRequest) => Promise<void>> = {
  'platform-admin': async (request) => {
    if (callerOf(request).role !== 'admin') throw forbidden(apiMessages.forbidden);
  },
  'organization-manager': async (request) => {
    const role = callerOf(request).organizationRole;
    if (role !== 'owner' && role !== 'admin') throw forbidden(apiMessages.forbidden);
  },
};

/** The check of routes marked `verifiedEmail` in the route table (the onRoute hook of server/app.ts adds it). */
export async function requireVerifiedEmail(request: FastifyRequest): Promise<void> {
  if (!callerOf(request).isVerified) throw forbidden(apiMessages.emailNotVerified, 'EMAIL_NOT_VERIFIED');
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized(apiMessages.unauthorized);
  return request.caller;
}

/**
 * The caller an access token's claims stand for, read from the database: the user, their membership in
 * the token's organization and, for a token of a login session, that the session is still live. A member
 * removed from the organization loses access at once, not when the token expires; so does a session that
 * was logged out (its refresh-token family revoked). One query for all of it; null when any is missing.
 */
export async function loadCaller(db: DB, claims: AccessClaims): Promise<Caller | null> {
  const sessionId = claims.sessionId;
  const row = await db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.role', 'users.is_verified', 'users.email', 'memberships.role as organization_role'])
    .where('users.id', '=', claims.userId)
    .where('memberships.organization_id', '=', claims.organizationId)
    // A user blocked by a platform admin loses access at once, whatever token they still hold (the
    // block changes the users row, so its trigger drops the cached sessions too).
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
  if (!row) return null;
  return Object.freeze({
    userId: row.id,
    organizationId: claims.organizationId,
    organizationRole: row.organization_role,
    role: row.role,
    isVerified: row.is_verified,
    email: row.email,
    ...(sessionId ? { sessionId } : {}),
  });
}

/** Methods that never change anything; every other request may have ended or altered sessions. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const authenticatePlugin = fp(
  async (app) => {
    const accessTokens = createAccessTokens(app.config);
    app.decorate('accessTokens', accessTokens);
    app.decorateRequest('caller', null);
    const sessionCache = createSessionCache<Caller>({ connectionString: app.databaseUrl, ...app.config.sessionCache, log: app.log });
    app.decorate('sessionCache', sessionCache);
    app.addHook('onClose', () => sessionCache.close());
    // Listening before the first request, so the cache works from the start (until then, and whenever
    // the connection is down, every request reads the database).
    await sessionCache.start();
    // A request that may have ended a session (logout, a member removed, a password changed…) answers
    // only once this process's cache has applied what its commits notified: the next request is judged
    // by the new state. One round trip on the listening connection; reads skip it.
    // (A callback hook: reads, the hot path, pass without a promise.)
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (READ_ONLY_METHODS.has(request.method)) return done(null, payload);
      sessionCache.sync().then(() => done(null, payload), done);
    });

    /** The caller of a token that is not in the cache: its signature checked, its session read. */
    const verifyAndLoad = async (token: string): Promise<Caller> => {
      const claims = await accessTokens.verify(token);
      if (!claims) throw unauthorized(apiMessages.unauthorized);
      const generation = sessionCache.generation();
      const caller = await loadCaller(app.db, claims);
      if (!caller) throw unauthorized(apiMessages.unauthorized);
      sessionCache.remember(token, caller, claims.expiresAt * 1000, generation);
      return caller;
    };

    // A callback hook, so a cached session (the common case) passes without a promise.
    app.decorate('authenticate', (request: FastifyRequest, _reply: FastifyReply, done: HookDone) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) return done(unauthorized(apiMessages.unauthorized));
      const cached = sessionCache.get(token);
      if (cached) {
        request.caller = cached;
        return done();
      }
      verifyAndLoad(token).then((caller) => {
        request.caller = caller;
        done();
      }, done);
    });

    app.decorate('authenticateIfPresent', (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
      if (request.headers.authorization) app.authenticate(request, reply, done);
      else done();
    });
  },
  { name: 'authenticate', dependencies: ['config', 'db'] },
);
