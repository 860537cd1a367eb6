import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { server, useTestServer, ownerOrganization, verifiedUser } from '../lib/test-server';
import { landingPathOf, resetSession, signIn } from './router-harness';

useTestServer();
beforeEach(() => {
  resetSession();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

const unverifiedUser = { ...verifiedUser, is_verified: false };
const adminUser = { ...verifiedUser, role: 'admin' as const };
const memberOrganization = { ...ownerOrganization, role: 'member' as const };

describe('guard behaviour (spec section 2)', () => {
  it('with a stored access token and no loaded session, the guard first initialises the session (me, then organization)', async () => {
    localStorage.setItem('access_token', 'access-1');
    localStorage.setItem('refresh_token', 'refresh-1');
    const calls: string[] = [];
    server.use(
      http.get('/api/v1/auth/me', () => {
        calls.push('me');
        return HttpResponse.json(verifiedUser);
      }),
      http.get('/api/v1/organizations/current', () => {
        calls.push('organization');
        return HttpResponse.json(ownerOrganization);
      }),
    );
    // An owner-only page opens, which needs the organization role from the initialised session.
    expect(await landingPathOf('/organization')).toBe('/organization');
    // The session first (me, then organization); then the page's own data, loaded by its route loader.
    expect(calls).toEqual(['me', 'organization', 'organization']);
  });

  it('a failed start-up clears auth and the guard sends the user to /auth', async () => {
    localStorage.setItem('access_token', 'bad');
    server.use(
      http.get('/api/v1/auth/me', () => HttpResponse.json({ error: 'Недостаточно прав' }, { status: 403 })),
    );
    expect(await landingPathOf('/admin')).toBe('/auth');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('routes that skip the check pass: /auth/verify-email opens for a guest', async () => {
    expect(await landingPathOf('/auth/verify-email')).toBe('/auth/verify-email');
  });

  it('routes that skip the check pass: /auth/verify-email opens for an unverified user', async () => {
    signIn(unverifiedUser, ownerOrganization);
    expect(await landingPathOf('/auth/verify-email')).toBe('/auth/verify-email');
  });

  it('/about is public', async () => {
    expect(await landingPathOf('/about')).toBe('/about');
  });

  it('auth-required routes without a login go to /auth', async () => {
    expect(await landingPathOf('/organization')).toBe('/auth');
  });

  it('guest-only routes open for guests', async () => {
    expect(await landingPathOf('/auth')).toBe('/auth');
    expect(await landingPathOf('/auth/reset-password')).toBe('/auth/reset-password');
    expect(await landingPathOf('/auth/reset-password/confirm')).toBe('/auth/reset-password/confirm');
  });

  it('guest-only routes for a logged-in (verified) user go to /projects', async () => {
    signIn(verifiedUser, ownerOrganization);
    expect(await landingPathOf('/auth')).toBe('/projects');
    expect(await landingPathOf('/auth/reset-password')).toBe('/projects');
    expect(await landingPathOf('/auth/reset-password/confirm')).toBe('/projects');
  });

  it('guest-only routes for a logged-in user with an unverified email go to /auth/verify-email-required', async () => {
    signIn(unverifiedUser, ownerOrganization);
    expect(await landingPathOf('/auth')).toBe('/auth/verify-email-required');
    expect(await landingPathOf('/auth/reset-password')).toBe('/auth/verify-email-required');
  });

  it('auth routes for users who need email verification go to /auth/verify-email-required', async () => {
    signIn(unverifiedUser, ownerOrganization);
    expect(await landingPathOf('/organization')).toBe('/auth/verify-email-required');
    expect(await landingPathOf('/admin')).toBe('/auth/verify-email-required');
  });

  it('…except /auth/verify-email-required itself, which an unverified user may open', async () => {
    signIn(unverifiedUser, ownerOrganization);
    expect(await landingPathOf('/auth/verify-email-required')).toBe('/auth/verify-email-required');
  });

  it('/auth/verify-email-required sends a guest to /auth and a verified user to /projects', async () => {
    expect(await landingPathOf('/auth/verify-email-required')).toBe('/auth');
    signIn(verifiedUser, ownerOrganization);
    expect(await landingPathOf('/auth/verify-email-required')).toBe('/projects');
  });

  it('admin routes for non-admins go to /projects', async () => {
    signIn(verifiedUser, ownerOrganization);
    expect(await landingPathOf('/admin')).toBe('/projects');
    expect(await landingPathOf('/admin/projects/p1')).toBe('/projects');
    expect(await landingPathOf('/admin/analyses/a1/results')).toBe('/projects');
  });

  it('admin routes open for a platform admin (user.role = admin)', async () => {
    signIn(adminUser, memberOrganization);
    expect(await landingPathOf('/admin')).toBe('/admin');
    expect(await landingPathOf('/admin/projects/p1/analyses')).toBe('/admin/projects/p1/analyses');
  });

  it('organization routes for non-owners go to /projects', async () => {
    signIn(verifiedUser, memberOrganization);
    expect(await landingPathOf('/organization')).toBe('/projects');
    signIn(adminUser, { ...ownerOrganization, role: 'admin' });
    expect(await landingPathOf('/organization')).toBe('/projects');
  });

  it('organization routes open for the organization owner', async () => {
    signIn(verifiedUser, ownerOrganization);
    expect(await landingPathOf('/organization')).toBe('/organization');
  });

  it('/ redirects to /projects', async () => {
    signIn(verifiedUser, ownerOrganization);
    expect(await landingPathOf('/')).toBe('/projects');
  });

  it('/ for a guest ends on /auth (through the /projects guard)', async () => {
    expect(await landingPathOf('/')).toBe('/auth');
  });
});
