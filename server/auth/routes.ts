import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  AuthResponseSchema,
  LoginSchema,
  LogoutSchema,
  NewPasswordRequestSchema,
  RefreshSchema,
  RegisterRequestSchema,
  ResendVerificationSchema,
  ResetPasswordConfirmSchema,
  ResetPasswordRequestSchema,
  SwitchOrganizationResponseSchema,
  SwitchOrganizationSchema,
  TokenPairSchema,
  UserSchema,
  VerifyEmailResponseSchema,
  VerifyEmailSchema,
} from '../../src/contract/auth.js';
import { ErrorBodySchema, MessageSchema, NoContentSchema } from '../../src/contract/common.js';
import { apiMessages } from '../../src/contract/messages.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { HttpError } from '../lib/errors.js';
import { callerOf } from './authenticate.js';
import { createLoginThrottle } from './login-throttle.js';
import * as auth from './service.js';

const tags = ['auth'];

const registerContract = {
  body: RegisterRequestSchema,
  response: { 201: AuthResponseSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema },
  tags,
  summary: 'Register: create an organization (owner) or join one by invitation code (member)',
} satisfies RouteContract;
const loginContract = { body: LoginSchema, response: { 200: AuthResponseSchema, 401: ErrorBodySchema, 429: ErrorBodySchema }, tags, summary: 'Log in with email and password' } satisfies RouteContract;
const meContract = { response: { 200: UserSchema }, tags, summary: 'The current user', auth: true } satisfies RouteContract;
const refreshContract = {
  body: RefreshSchema,
  response: { 200: TokenPairSchema, 401: ErrorBodySchema },
  tags,
  summary: 'New token pair for a refresh token (rotated; a reused token revokes its session)',
} satisfies RouteContract;
const logoutContract = { body: LogoutSchema, response: { 204: NoContentSchema, 401: ErrorBodySchema }, tags, summary: 'Log out: revokes the session of the bearer token (and of the refresh token, if sent)', auth: 'optional' } satisfies RouteContract;
const switchContract = {
  body: SwitchOrganizationSchema,
  response: { 200: SwitchOrganizationResponseSchema, 403: ErrorBodySchema },
  tags,
  summary: 'Continue the session in another organization of the user',
  auth: true,
} satisfies RouteContract;
const resetContract = { body: ResetPasswordRequestSchema, response: { 200: MessageSchema, 429: ErrorBodySchema }, tags, summary: 'Send a password-reset link (same answer for any email)' } satisfies RouteContract;
const resetConfirmContract = { body: ResetPasswordConfirmSchema, response: { 200: MessageSchema, 400: ErrorBodySchema }, tags, summary: 'Set a new password from a reset link' } satisfies RouteContract;
const newPasswordContract = { body: NewPasswordRequestSchema, response: { 200: MessageSchema, 422: ErrorBodySchema, 429: ErrorBodySchema }, tags, summary: 'Change the password (logged in; a few tries of current_password per account, then 429)', auth: true } satisfies RouteContract;
const verifyContract = { body: VerifyEmailSchema, response: { 200: VerifyEmailResponseSchema, 400: ErrorBodySchema }, tags, summary: 'Confirm the email with the token from the mail' } satisfies RouteContract;
const resendContract = {
  // A logged-in user may send no body at all.
  body: v.nullish(ResendVerificationSchema),
  response: { 200: MessageSchema, 429: ErrorBodySchema },
  tags,
  summary: 'Send the verification mail again (bearer, or {email})',
  auth: 'optional',
} satisfies RouteContract;

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

  app.post<Req<typeof registerContract>>('/register', { schema: routeSchema(registerContract), config: registerLimited }, async (request, reply) => {
    return reply.status(201).send(await auth.register(app, request.body));
  });

  app.post<Req<typeof loginContract>>('/login', { schema: routeSchema(loginContract), config: rateLimited }, async (request) => {
    await loginThrottle.check(request.body.email);
    try {
      return await auth.login(app, request.body);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 401) await loginThrottle.recordFailure(request.body.email);
      throw error;
    }
  });

  app.get('/me', { schema: routeSchema(meContract) }, async (request) => {
    return auth.me(app, callerOf(request));
  });

  app.post<Req<typeof refreshContract>>('/refresh', { schema: routeSchema(refreshContract) }, async (request) => {
    return auth.refresh(app, request.body.refresh_token);
  });

  app.post<Req<typeof logoutContract>>('/logout', { schema: routeSchema(logoutContract) }, async (request, reply) => {
    await auth.logout(app, request.caller, request.body?.refresh_token || undefined);
    return reply.status(204).send();
  });

  app.post<Req<typeof switchContract>>('/switch-organization', { schema: routeSchema(switchContract) }, async (request) => {
    return auth.switchOrganization(app, callerOf(request), request.body.organization_id);
  });

  app.post<Req<typeof resetContract>>('/reset-password', { schema: routeSchema(resetContract), config: rateLimited }, async (request) => {
    return auth.requestPasswordReset(app, request.body.email);
  });

  app.post<Req<typeof resetConfirmContract>>('/reset-password/confirm', { schema: routeSchema(resetConfirmContract) }, async (request) => {
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

  app.post<Req<typeof newPasswordContract>>('/new-password', { schema: routeSchema(newPasswordContract), config: currentPasswordTries }, async (request) => {
    return auth.changePassword(app, callerOf(request), request.body.current_password, request.body.password);
  });

  app.post<Req<typeof verifyContract>>('/verify-email', { schema: routeSchema(verifyContract) }, async (request) => {
    return auth.verifyEmail(app, request.body.token);
  });

  app.post<Req<typeof resendContract>>(
    '/resend-verification',
    { schema: routeSchema(resendContract), config: rateLimited },
    async (request) => auth.resendVerification(app, request.caller, request.body?.email),
  );
};
