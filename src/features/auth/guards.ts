/**
 * The guard rules of spec section 2 ("Guard behaviour"), one function per kind of route. Layout
 * routes call them in `beforeLoad`; each one first makes sure a stored session is loaded.
 */
import { redirect } from '@tanstack/react-router';
import type { Session, SessionView } from '@/app/session';

type GuardSession = Pick<Session, 'ensureInitialized'>;

export const AUTH_PATH = '/auth';
export const HOME_PATH = '/projects';
export const VERIFY_REQUIRED_PATH = '/auth/verify-email-required';

/** Guests only (/auth, reset-password): a logged-in user goes home, or to verification first. */
export async function requireGuest(session: GuardSession): Promise<SessionView> {
  const state = await session.ensureInitialized();
  if (state.isAuthenticated) {
    throw redirect({ to: state.needsEmailVerification ? VERIFY_REQUIRED_PATH : HOME_PATH, replace: true });
  }
  return state;
}

/** Everything behind a login: no session → /auth; unverified email → the verification notice. */
export async function requireVerifiedUser(session: GuardSession): Promise<SessionView> {
  const state = await session.ensureInitialized();
  if (!state.isAuthenticated) throw redirect({ to: AUTH_PATH, replace: true });
  if (state.needsEmailVerification) throw redirect({ to: VERIFY_REQUIRED_PATH, replace: true });
  return state;
}

/** The verification notice itself: only for logged-in users who still need to verify. */
export async function requireUnverifiedUser(session: GuardSession): Promise<SessionView> {
  const state = await session.ensureInitialized();
  if (!state.isAuthenticated) throw redirect({ to: AUTH_PATH, replace: true });
  if (!state.needsEmailVerification) throw redirect({ to: HOME_PATH, replace: true });
  return state;
}

/** Platform admin area (user.role === 'admin'). */
export async function requireAdmin(session: GuardSession): Promise<SessionView> {
  const state = await requireVerifiedUser(session);
  if (!state.isAdmin) throw redirect({ to: HOME_PATH, replace: true });
  return state;
}

/** Organization pages: the organization owner only. */
export async function requireOrganizationOwner(session: GuardSession): Promise<SessionView> {
  const state = await requireVerifiedUser(session);
  if (!state.isOrganizationOwner) throw redirect({ to: HOME_PATH, replace: true });
  return state;
}
