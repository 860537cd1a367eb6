/** /api/v1/auth: registration, login, tokens, passwords, email verification (spec section 7). */
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
} from '../auth.js';
import { ErrorBodySchema, MessageSchema, NoContentSchema } from '../common.js';
import { defineRoute } from './route.js';

const tags = ['auth'];

export const authRoutes = {
  register: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/register',
    body: RegisterRequestSchema,
    response: { 202: MessageSchema, 404: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema },
    tags,
    summary:
      'Register: create an organization (owner) or join one by invitation code (member). The same answer, without a session, whether or not the email has an account: a new address gets the verification link, an existing one a notice to its owner',
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/login',
    body: LoginSchema,
    response: { 200: AuthResponseSchema, 401: ErrorBodySchema, 429: ErrorBodySchema },
    tags,
    summary: 'Log in with email and password',
  }),
  me: defineRoute({ method: 'GET', path: '/api/v1/auth/me', response: { 200: UserSchema }, tags, summary: 'The current user', auth: true }),
  refresh: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/refresh',
    body: RefreshSchema,
    response: { 200: TokenPairSchema, 401: ErrorBodySchema },
    tags,
    summary: 'New token pair for a refresh token (rotated; a reused token revokes its session)',
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/logout',
    body: LogoutSchema,
    response: { 204: NoContentSchema, 401: ErrorBodySchema },
    tags,
    summary: 'Log out: revokes the session of the bearer token (and of the refresh token, if sent)',
    auth: 'optional',
  }),
  switchOrganization: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/switch-organization',
    body: SwitchOrganizationSchema,
    response: { 200: SwitchOrganizationResponseSchema, 403: ErrorBodySchema },
    tags,
    summary: 'Continue the session in another organization of the user',
    auth: true,
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/reset-password',
    body: ResetPasswordRequestSchema,
    response: { 200: MessageSchema, 429: ErrorBodySchema },
    tags,
    summary: 'Send a password-reset link (same answer for any email)',
  }),
  resetPasswordConfirm: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/reset-password/confirm',
    body: ResetPasswordConfirmSchema,
    response: { 200: MessageSchema, 400: ErrorBodySchema },
    tags,
    summary: 'Set a new password from a reset link',
  }),
  newPassword: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/new-password',
    body: NewPasswordRequestSchema,
    response: { 200: MessageSchema, 422: ErrorBodySchema, 429: ErrorBodySchema },
    tags,
    summary: 'Change the password (logged in; a few tries of current_password per account, then 429)',
    auth: true,
  }),
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/verify-email',
    body: VerifyEmailSchema,
    response: { 200: VerifyEmailResponseSchema, 400: ErrorBodySchema },
    tags,
    summary: 'Confirm the email with the token from the mail',
  }),
  resendVerification: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/resend-verification',
    // A logged-in user may send no body at all.
    body: v.nullish(ResendVerificationSchema),
    response: { 200: MessageSchema, 429: ErrorBodySchema },
    tags,
    summary: 'Send the verification mail again (bearer, or {email})',
    auth: 'optional',
  }),
};
