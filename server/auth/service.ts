import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AuthResponse, LoginPayload, Organization, RegisterPayload, TokenPair, User } from '../../contract/auth.js';
import { apiMessages } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import { prepareQuery } from '../db/prepared.js';
import type { OutgoingMail } from '../email/mailer.js';
import { forgotPasswordLink, registrationAttemptMail, resetPasswordLink, resetPasswordMail, signInLink, verificationMail, verifyEmailLink } from '../email/templates.js';
import { badRequest, forbidden, notFound, unauthorized, validationError } from '../lib/errors.js';
import { createAccount, findOrganizationByInvitationCode, findUserByEmail, grantWelcomeCredit, organizationView, userView } from './accounts.js';
import type { Caller } from './authenticate.js';
import { consumeEmailToken, createEmailToken, createResetTokenForEmail, retireEmailTokens } from './email-tokens.js';
import { refuseCommonPassword } from './common-passwords.js';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from './passwords.js';
import { moveSession, revokeSession, revokeSessionByRefreshToken, revokeUserSessions, rotateSession, startSession, type Session } from './sessions.js';

/** What the auth service needs from the app; tests and the CLI can pass the same pieces. */
export type AuthContext = Pick<FastifyInstance, 'db' | 'config' | 'accessTokens' | 'mailer' | 'log'>;

const invalidCredentials = () => unauthorized(apiMessages.invalidCredentials, 'INVALID_CREDENTIALS');
const refreshRefused = () => unauthorized(apiMessages.refreshInvalid, 'REFRESH_TOKEN_INVALID');

/**
 * Mails leave after the answer, so the answer time does not depend on the mail server (nor tell, for
 * a reset, whether a mail was sent at all). A failure is logged; the user can ask again.
 */
function sendInBackground(ctx: AuthContext, mail: () => Promise<OutgoingMail | null>): void {
  void mail()
    .then((message) => (message ? ctx.mailer.send(message) : undefined))
    .catch((error: unknown) => ctx.log.error({ err: error }, 'mail not sent'));
}

async function tokensFor(ctx: AuthContext, session: Session): Promise<TokenPair> {
  const access = await ctx.accessTokens.sign({ userId: session.userId, organizationId: session.organizationId, sessionId: session.familyId });
  return { access_token: access, refresh_token: session.refreshToken };
}

// Only what the answer shows: the password hash and the rest stay in the database. Compiled once
// (GET /api/v1/auth/me is read on every start of the PWA).
const selectUser = prepareQuery((db, userId: string) => db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name', 'role', 'is_verified']).where('id', '=', userId));

async function loadUser(db: DB, userId: string): Promise<User> {
  const [row] = await selectUser(db, userId);
  if (!row) throw unauthorized(apiMessages.unauthorized);
  return userView(row);
}

async function loadOrganization(db: DB, organizationId: string, userId: string): Promise<Organization> {
  const organization = await organizationView(db, organizationId, userId);
  if (!organization) throw unauthorized(apiMessages.unauthorized);
  return organization;
}

async function signIn(ctx: AuthContext, userId: string, organizationId: string): Promise<AuthResponse> {
  const session = await startSession(ctx.db, ctx.config, { userId, organizationId });
  await ctx.db.updateTable('users').set({ last_login_at: sql<Date>`now()` }).where('id', '=', userId).execute();
  return {
    user: await loadUser(ctx.db, userId),
    organization: await loadOrganization(ctx.db, organizationId, userId),
    tokens: await tokensFor(ctx, session),
  };
}

function sendVerificationMail(ctx: AuthContext, user: { id: string; email: string; first_name: string }): void {
  sendInBackground(ctx, async () => {
    const token = await createEmailToken(ctx.db, user.id, 'verify_email', ctx.config.emailTokenTtlSeconds);
    return verificationMail({ to: user.email, firstName: user.first_name, link: verifyEmailLink(ctx.config.publicUrl, token), ttlSeconds: ctx.config.emailTokenTtlSeconds });
  });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Tells the owner of an address that someone tried to register with it, with the ways into the account. */
function sendRegistrationAttemptMail(ctx: AuthContext, email: string): void {
  sendInBackground(ctx, async () => {
    const owner = await findUserByEmail(ctx.db, email);
    if (!owner) return null;
    return registrationAttemptMail({ to: owner.email, firstName: owner.first_name, signInLink: signInLink(ctx.config.publicUrl), resetLink: forgotPasswordLink(ctx.config.publicUrl) });
  });
}

/**
 * The same answer, without a session, whether or not the address has an account, so registration
 * does not tell a stranger which addresses do: a new address gets the account and its verification
 * link (the welcome credit comes with the verification), an existing one is left as it is and its
 * owner gets a mail instead. Everything that can refuse (password, invitation code) is checked first,
 * for both alike, and the password is hashed in both cases, so the answer time tells nothing either.
 */
export async function register(ctx: AuthContext, payload: RegisterPayload): Promise<{ message: string }> {
  refuseCommonPassword(payload.password);
  let organization: { create: string } | { joinId: string };
  if (payload.invitation_code) {
    const found = await findOrganizationByInvitationCode(ctx.db, payload.invitation_code);
    if (!found) throw notFound(apiMessages.invitationCodeUnknown, 'INVITATION_CODE_NOT_FOUND');
    organization = { joinId: found.id };
  } else {
    organization = { create: payload.organization_name! };
  }
  const answer = { message: apiMessages.registrationMailSent.replace('{email}', payload.email) };
  const passwordHash = await hashPassword(payload.password);
  if (await findUserByEmail(ctx.db, payload.email)) {
    sendRegistrationAttemptMail(ctx, payload.email);
    return answer;
  }
  let account;
  try {
    account = await ctx.db.transaction().execute((trx) =>
      createAccount(trx, {
        email: payload.email,
        passwordHash,
        firstName: payload.first_name,
        lastName: payload.last_name,
        organization,
        welcomeCredit: ctx.config.welcomeCredit,
      }),
    );
  } catch (error) {
    // Two registrations with one email at the same moment: the unique index decides, the other is an attempt.
    if (!isUniqueViolation(error)) throw error;
    sendRegistrationAttemptMail(ctx, payload.email);
    return answer;
  }
  sendVerificationMail(ctx, { id: account.userId, email: payload.email.toLowerCase(), first_name: payload.first_name });
  return answer;
}

/** The organization a login lands in: the last one used, else the oldest membership. */
async function landingOrganization(db: DB, userId: string, lastOrganizationId: string | null): Promise<string | null> {
  const row = await db
    .selectFrom('memberships')
    .select('organization_id')
    .where('user_id', '=', userId)
    .orderBy(sql`organization_id = ${lastOrganizationId}`, (ob) => ob.desc().nullsLast())
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.organization_id ?? null;
}

export async function login(ctx: AuthContext, payload: LoginPayload): Promise<AuthResponse> {
  const user = await findUserByEmail(ctx.db, payload.email);
  if (!user) {
    // Same work and the same answer as a wrong password: the answer does not tell who has an account.
    await verifyDummyPassword(payload.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.password_hash, payload.password))) throw invalidCredentials();
  // Said only after the right password, so the answer tells a stranger nothing about the account.
  if (user.blocked_at) throw forbidden(apiMessages.accountBlocked, 'ACCOUNT_BLOCKED');
  if (needsRehash(user.password_hash)) {
    await ctx.db.updateTable('users').set({ password_hash: await hashPassword(payload.password), updated_at: sql<Date>`now()` }).where('id', '=', user.id).execute();
  }
  const organizationId = await landingOrganization(ctx.db, user.id, user.last_organization_id);
  if (!organizationId) throw forbidden(apiMessages.noOrganization, 'NO_ORGANIZATION');
  return signIn(ctx, user.id, organizationId);
}

export function me(ctx: AuthContext, caller: Caller): Promise<User> {
  return loadUser(ctx.db, caller.userId);
}

export async function refresh(ctx: AuthContext, refreshToken: string): Promise<TokenPair> {
  const result = await rotateSession(ctx.db, ctx.config, refreshToken);
  if (!result.ok) {
    if (result.reason === 'reused') ctx.log.warn('refresh token reused: session family revoked');
    throw refreshRefused();
  }
  return tokensFor(ctx, result.session);
}

/** Ends the session of the access token and/or of the refresh token given; at least one is needed. */
export async function logout(ctx: AuthContext, caller: Caller | null, refreshToken: string | undefined): Promise<void> {
  if (!caller && !refreshToken) throw unauthorized(apiMessages.unauthorized);
  if (caller?.sessionId) await revokeSession(ctx.db, caller.sessionId, caller.userId);
  if (refreshToken) await revokeSessionByRefreshToken(ctx.db, refreshToken);
}

export async function switchOrganization(ctx: AuthContext, caller: Caller, organizationId: string): Promise<{ tokens: TokenPair; organization: Organization }> {
  const membership = await ctx.db.selectFrom('memberships').select('role').where('user_id', '=', caller.userId).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!membership) throw forbidden(apiMessages.notMember, 'NOT_MEMBER');
  // The login session carries on in the new organization; a token without a session starts one.
  const session = caller.sessionId
    ? await moveSession(ctx.db, ctx.config, caller.sessionId, caller.userId, organizationId)
    : await startSession(ctx.db, ctx.config, { userId: caller.userId, organizationId });
  if (!session) throw refreshRefused();
  await ctx.db.updateTable('users').set({ last_organization_id: organizationId }).where('id', '=', caller.userId).execute();
  return { tokens: await tokensFor(ctx, session), organization: await loadOrganization(ctx.db, organizationId, caller.userId) };
}

/** Always the same answer; a mail leaves only when the email belongs to an account. */
export async function requestPasswordReset(ctx: AuthContext, email: string): Promise<{ message: string }> {
  const created = await createResetTokenForEmail(ctx.db, email, ctx.config.emailTokenTtlSeconds);
  if (created) {
    sendInBackground(ctx, async () => {
      const user = await ctx.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', created.userId).executeTakeFirst();
      if (!user) return null;
      return resetPasswordMail({ to: user.email, firstName: user.first_name, link: resetPasswordLink(ctx.config.publicUrl, created.token), ttlSeconds: ctx.config.emailTokenTtlSeconds });
    });
  }
  return { message: apiMessages.resetRequested };
}

/**
 * Sets the password from a reset link. The link proves the mailbox is the user's, so the email counts
 * as verified; every session ends, since whoever forgot (or lost) the password may not be the only one
 * holding a session.
 */
export async function confirmPasswordReset(ctx: AuthContext, token: string, password: string): Promise<{ message: string }> {
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    const userId = await consumeEmailToken(trx, 'reset_password', token);
    if (!userId) throw badRequest(apiMessages.emailTokenInvalid, 'EMAIL_TOKEN_INVALID');
    await trx.updateTable('users').set({ password_hash: passwordHash, is_verified: true, updated_at: sql<Date>`now()` }).where('id', '=', userId).execute();
    await grantWelcomeCredit(trx, userId, ctx.config.welcomeCredit);
    await retireEmailTokens(trx, userId, 'reset_password');
    await revokeUserSessions(trx, userId);
  });
  return { message: apiMessages.passwordChanged };
}

/** A logged-in change: the current password is checked; the other sessions end, this one stays. */
export async function changePassword(ctx: AuthContext, caller: Caller, currentPassword: string, password: string): Promise<{ message: string }> {
  refuseCommonPassword(password);
  const user = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', caller.userId).executeTakeFirst();
  if (!user || !(await verifyPassword(user.password_hash, currentPassword))) {
    throw validationError([{ loc: ['body', 'current_password'], msg: apiMessages.currentPasswordInvalid }]);
  }
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: sql<Date>`now()` }).where('id', '=', caller.userId).execute();
    await retireEmailTokens(trx, caller.userId, 'reset_password');
    await revokeUserSessions(trx, caller.userId, caller.sessionId ? { except: caller.sessionId } : {});
  });
  return { message: apiMessages.passwordChanged };
}

export async function verifyEmail(ctx: AuthContext, token: string): Promise<{ message: string; user: User }> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const userId = await consumeEmailToken(trx, 'verify_email', token);
    if (!userId) throw badRequest(apiMessages.emailTokenInvalid, 'EMAIL_TOKEN_INVALID');
    const verified = await trx.updateTable('users').set({ is_verified: true, updated_at: sql<Date>`now()` }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
    await grantWelcomeCredit(trx, userId, ctx.config.welcomeCredit);
    return verified;
  });
  return { message: apiMessages.emailVerified, user: userView(row) };
}

/**
 * A new verification link, for the logged-in user or for an email. By email the answer is the same
 * whether or not the address has an account.
 */
export async function resendVerification(ctx: AuthContext, caller: Caller | null, email: string | undefined): Promise<{ message: string }> {
  if (caller) {
    const user = await ctx.db.selectFrom('users').select(['id', 'email', 'first_name', 'is_verified']).where('id', '=', caller.userId).executeTakeFirstOrThrow();
    if (user.is_verified) return { message: apiMessages.alreadyVerified };
    sendVerificationMail(ctx, user);
    return { message: apiMessages.verificationSent };
  }
  if (!email) throw unauthorized(apiMessages.unauthorized);
  const user = await findUserByEmail(ctx.db, email);
  if (user && !user.is_verified) sendVerificationMail(ctx, user);
  return { message: apiMessages.verificationSent };
}
