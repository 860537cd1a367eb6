import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiMessages } from '../../contract/messages.js';
import { authRoutes as routes } from '../../contract/routes/auth.js';
import { HttpError } from '../lib/errors.js';
import { addRoute } from '../lib/routes.js';
import { callerOf } from './authenticate.js';
import { createLoginThrottle } from './login-throttle.js';
import * as auth from './service.js';

export const authRoutes: FastifyPluginAsync = async (app) => {
  // Clients often send `Content-Type: application/json` with no body on logout and resend: treat an
  // empty JSON body as no body (in this plugin only) instead of refusing it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
  // Per client address (the socket's, or the one TRUST_PROXY's proxies report); the counters live in
  // PostgreSQL or Redis (server/lib/rate-limit-store.ts), shared by every process.
  const rateLimited = { rateLimit: { max: app.config.rateLimit.max, timeWindow: app.config.rateLimit.timeWindowMs } };
  // Registration is rarer and each one is worth tokens (the welcome credit): a tighter limit of its own.
  const registerLimited = { rateLimit: { max: app.config.registerRateLimit.max, timeWindow: app.config.registerRateLimit.timeWindowMs } };
  // …and a login is limited per account too, whatever the address (server/auth/login-throttle.ts).
  const loginThrottle = createLoginThrottle(app.rateLimitCounter('login-account'), app.config.loginAccountRateLimit);

  addRoute(app, routes.register, { config: registerLimited }, async (request, reply) => {
    const answer = await auth.register(app, request.body);
    reply.status(202);
    return answer;
  });

  addRoute(app, routes.login, { config: rateLimited }, async (request) => {
    await loginThrottle.check(request.body.email);
    try {
      return await auth.login(app, request.body);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401) await loginThrottle.recordFailure(request.body.email);
      throw error;
    }
  });

  addRoute(app, routes.me, async (request) => {
    return auth.me(app, callerOf(request));
  });

  addRoute(app, routes.refresh, async (request) => {
    return auth.refresh(app, request.body.refresh_token);
  });

  addRoute(app, routes.logout, async (request, reply) => {
    await auth.logout(app, request.caller, request.body?.refresh_token || undefined);
    reply.status(204);
    return null;
  });

  addRoute(app, routes.switchOrganization, async (request) => {
    return auth.switchOrganization(app, callerOf(request), request.body.organization_id);
  });

  addRoute(app, routes.resetPassword, { config: rateLimited }, async (request) => {
    return auth.requestPasswordReset(app, request.body.email);
  });

  addRoute(app, routes.resetPasswordConfirm, async (request) => {
    return auth.confirmPasswordReset(app, request.body.token, request.body.password);
  });

  // Per account (the bearer's user, authenticated before this counter runs), in the same shared store:
  // a stolen session cannot guess the current password without limit. Every try counts.
  const { max: triesMax, timeWindowMs: triesWindowMs } = app.config.currentPasswordRateLimit;
  const currentPasswordTries = {
    rateLimit: {
      max: triesMax,
      timeWindow: triesWindowMs,
      keyGenerator: (request: FastifyRequest) => `account:${callerOf(request).userId}`,
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) => ({
        statusCode: 429,
        error: apiMessages.currentPasswordTooManyTries.replace('{minutes}', String(Math.ceil(triesWindowMs / 60_000))),
        code: 'RATE_LIMITED',
        retryAfter: context.after,
      }),
    },
  };

  addRoute(app, routes.newPassword, { config: currentPasswordTries }, async (request) => {
    return auth.changePassword(app, callerOf(request), request.body.current_password, request.body.password);
  });

  addRoute(app, routes.verifyEmail, async (request) => {
    return auth.verifyEmail(app, request.body.token);
  });

  addRoute(app, routes.resendVerification, { config: rateLimited }, async (request) => auth.resendVerification(app, request.caller, request.body?.email));
};
