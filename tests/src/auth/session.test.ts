import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deriveFlags,
  onIdentityChange,
  session,
  sessionStateAtom,
  sessionStore,
  setSessionNavigator,
  toRegisterPayload,
} from '@/app/session';
import { ownerOrganization, server, tokens, useTestServer, verifiedUser } from '../lib/test-server';

useTestServer();

const navigate = vi.fn();
beforeEach(() => {
  sessionStore.set(sessionStateAtom, { user: null, organization: null, loading: false, error: null, initialized: false, offline: false });
  navigate.mockReset();
  setSessionNavigator(navigate);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const authResponse = { user: verifiedUser, organization: ownerOrganization, tokens };

describe('derived flags', () => {
  it('are all false without a user', () => {
    expect(deriveFlags({ user: null, organization: null })).toEqual({
      isAuthenticated: false,
      needsEmailVerification: false,
      isAdmin: false,
      isOrganizationOwner: false,
      isAdminOrOwner: false,
    });
  });

  it('mark an unverified user as needing verification, an admin by user.role, owner and admin-or-owner by organization role', () => {
    const unverified = deriveFlags({ user: { ...verifiedUser, is_verified: false }, organization: { ...ownerOrganization, role: 'member' } });
    expect(unverified).toMatchObject({ isAuthenticated: true, needsEmailVerification: true, isOrganizationOwner: false, isAdminOrOwner: false });
    expect(deriveFlags({ user: { ...verifiedUser, role: 'admin' }, organization: null }).isAdmin).toBe(true);
    expect(deriveFlags({ user: verifiedUser, organization: ownerOrganization })).toMatchObject({ isOrganizationOwner: true, isAdminOrOwner: true });
    expect(deriveFlags({ user: verifiedUser, organization: { ...ownerOrganization, role: 'admin' } })).toMatchObject({
      isOrganizationOwner: false,
      isAdminOrOwner: true,
    });
  });
});

describe('login and register', () => {
  it('login saves the tokens and sets user and organization', async () => {
    let body: unknown;
    server.use(
      http.post('/api/v1/auth/login', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(authResponse);
      }),
    );
    await session.login({ email: 'anna@example.ru', password: 'Secret123' });
    expect(body).toEqual({ email: 'anna@example.ru', password: 'Secret123' });
    expect(localStorage.getItem('access_token')).toBe('access-1');
    expect(localStorage.getItem('refresh_token')).toBe('refresh-1');
    expect(session.getState()).toMatchObject({ user: verifiedUser, organization: ownerOrganization, isAuthenticated: true, loading: false, error: null });
  });

  it("a failed login keeps the server's message as the error and rethrows", async () => {
    server.use(http.post('/api/v1/auth/login', () => HttpResponse.json({ error: 'Неверный email или пароль', code: 'INVALID_CREDENTIALS' }, { status: 401 })));
    await expect(session.login({ email: 'a@b.ru', password: 'x' })).rejects.toThrow('Неверный email или пароль');
    expect(session.getState()).toMatchObject({ error: 'Неверный email или пароль', loading: false, isAuthenticated: false });
    expect(console.error).toHaveBeenCalled();
  });

  it("without a server message the login error is 'Ошибка входа в систему'", async () => {
    server.use(http.post('/api/v1/auth/login', () => new HttpResponse(null, { status: 500 })));
    await expect(session.login({ email: 'a@b.ru', password: 'x' })).rejects.toThrow();
    expect(session.getState().error).toBe('Ошибка входа в систему');
  });

  it("without a server message the register error is 'Ошибка регистрации'", async () => {
    server.use(http.post('/api/v1/auth/register', () => new HttpResponse(null, { status: 500 })));
    await expect(
      session.register({ first_name: 'Анна', last_name: 'Петрова', email: 'a@b.ru', password: 'Secret123', organization_type: 'create', organization_name: 'Ромашка', terms_accepted: true }),
    ).rejects.toThrow();
    expect(session.getState().error).toBe('Ошибка регистрации');
  });

  it('the error is cleared before each submit', async () => {
    sessionStore.set(sessionStateAtom, { ...sessionStore.get(sessionStateAtom), error: 'старая ошибка' });
    let errorDuringRequest: string | null = 'unset';
    server.use(
      http.post('/api/v1/auth/login', () => {
        errorDuringRequest = session.getState().error;
        return HttpResponse.json(authResponse);
      }),
    );
    await session.login({ email: 'a@b.ru', password: 'x' });
    expect(errorDuringRequest).toBeNull();
  });

  it('register sends organization_name when creating, invitation_code when joining, never terms_accepted or organization_type', () => {
    const base = { first_name: ' Анна ', last_name: 'Петрова', email: 'a@b.ru', password: 'Secret123', terms_accepted: true as const };
    expect(toRegisterPayload({ ...base, organization_type: 'create', organization_name: ' Ромашка ', invitation_code: 'IGNORED' })).toEqual({
      first_name: 'Анна',
      last_name: 'Петрова',
      email: 'a@b.ru',
      password: 'Secret123',
      organization_name: 'Ромашка',
    });
    expect(toRegisterPayload({ ...base, organization_type: 'join', organization_name: 'ignored', invitation_code: 'ABCDE' })).toEqual({
      first_name: 'Анна',
      last_name: 'Петрова',
      email: 'a@b.ru',
      password: 'Secret123',
      invitation_code: 'ABCDE',
    });
  });
});

describe('start-up', () => {
  it('does nothing without a stored access token', async () => {
    await session.initialize();
    expect(session.getState()).toMatchObject({ initialized: true, isAuthenticated: false });
  });

  it('fetches the user, then the organization', async () => {
    localStorage.setItem('access_token', 'a');
    server.use(
      http.get('/api/v1/auth/me', () => HttpResponse.json(verifiedUser)),
      http.get('/api/v1/organizations/current', () => HttpResponse.json(ownerOrganization)),
    );
    await session.initialize();
    expect(session.getState()).toMatchObject({ user: verifiedUser, organization: ownerOrganization, initialized: true });
  });

  it('an expired access token is refreshed once during start-up and the session still loads', async () => {
    localStorage.setItem('access_token', 'expired');
    localStorage.setItem('refresh_token', 'r1');
    let refreshes = 0;
    server.use(
      http.get('/api/v1/auth/me', ({ request }) =>
        request.headers.get('authorization') === 'Bearer fresh' ? HttpResponse.json(verifiedUser) : HttpResponse.json({}, { status: 401 }),
      ),
      http.get('/api/v1/organizations/current', ({ request }) =>
        request.headers.get('authorization') === 'Bearer fresh' ? HttpResponse.json(ownerOrganization) : HttpResponse.json({}, { status: 401 }),
      ),
      http.post('/api/v1/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ access_token: 'fresh', refresh_token: 'r2' });
      }),
    );
    await session.initialize();
    expect(refreshes).toBe(1);
    expect(session.getState()).toMatchObject({ user: verifiedUser, organization: ownerOrganization });
    expect(localStorage.getItem('refresh_token')).toBe('r2');
  });

  it('on failure logs it and clears auth', async () => {
    localStorage.setItem('access_token', 'a');
    localStorage.setItem('refresh_token', 'r');
    server.use(
      http.get('/api/v1/auth/me', () => HttpResponse.json(verifiedUser)),
      http.get('/api/v1/organizations/current', () => HttpResponse.json({ error: 'Ошибка' }, { status: 500 })),
    );
    await session.initialize();
    expect(console.error).toHaveBeenCalled();
    expect(session.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('offline, the last known session is kept so the installed app opens with its cached data', async () => {
    localStorage.setItem('access_token', 'a');
    localStorage.setItem('session_snapshot', JSON.stringify({ user: verifiedUser, organization: ownerOrganization }));
    server.use(http.get('/api/v1/auth/me', () => HttpResponse.error()));
    await session.initialize();
    expect(session.getState()).toMatchObject({ user: verifiedUser, organization: ownerOrganization, offline: true });
    expect(localStorage.getItem('access_token')).toBe('a');
  });

  it('concurrent start-ups share one call', async () => {
    localStorage.setItem('access_token', 'a');
    let meCalls = 0;
    server.use(
      http.get('/api/v1/auth/me', () => {
        meCalls += 1;
        return HttpResponse.json(verifiedUser);
      }),
      http.get('/api/v1/organizations/current', () => HttpResponse.json(ownerOrganization)),
    );
    await Promise.all([session.ensureInitialized(), session.ensureInitialized(), session.initialize()]);
    expect(meCalls).toBe(1);
  });
});

describe('logout', () => {
  it('clears tokens and state, then goes to /auth', async () => {
    let logoutCalls = 0;
    server.use(
      http.post('/api/v1/auth/login', () => HttpResponse.json(authResponse)),
      http.post('/api/v1/auth/logout', () => {
        logoutCalls += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await session.login({ email: 'a@b.ru', password: 'x' });
    await session.logout();
    expect(logoutCalls).toBe(1);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('session_snapshot')).toBeNull();
    expect(session.getState().isAuthenticated).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/auth');
  });

  it('clears everything even when the server call fails', async () => {
    server.use(
      http.post('/api/v1/auth/login', () => HttpResponse.json(authResponse)),
      http.post('/api/v1/auth/logout', () => HttpResponse.json({ error: 'boom' }, { status: 500 })),
    );
    await session.login({ email: 'a@b.ru', password: 'x' });
    await expect(session.logout()).resolves.toBeUndefined();
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(session.getState().user).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth');
  });

  it('tells the app that the identity changed (so the cached data of this user is dropped)', async () => {
    const listener = vi.fn();
    const unsubscribe = onIdentityChange(listener);
    server.use(
      http.post('/api/v1/auth/login', () => HttpResponse.json(authResponse)),
      http.post('/api/v1/auth/logout', () => new HttpResponse(null, { status: 204 })),
    );
    await session.login({ email: 'a@b.ru', password: 'x' });
    listener.mockClear();
    await session.logout();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});

describe('organization switch and verification', () => {
  it('switching replaces both tokens and the current organization', async () => {
    server.use(
      http.post('/api/v1/auth/login', () => HttpResponse.json(authResponse)),
      http.post('/api/v1/auth/switch-organization', async ({ request }) => {
        const { organization_id } = (await request.json()) as { organization_id: string };
        return HttpResponse.json({
          tokens: { access_token: 'access-2', refresh_token: 'refresh-2' },
          organization: { id: organization_id, name: 'Вторая', plan_type: 'free', role: 'member' },
        });
      }),
    );
    await session.login({ email: 'a@b.ru', password: 'x' });
    await session.switchOrganization('33333333-3333-4333-8333-333333333333');
    expect(localStorage.getItem('access_token')).toBe('access-2');
    expect(localStorage.getItem('refresh_token')).toBe('refresh-2');
    expect(session.getState()).toMatchObject({ organization: { name: 'Вторая', role: 'member' }, isOrganizationOwner: false });
  });

  it("a failed switch stores 'Ошибка при смене организации' and rethrows", async () => {
    server.use(http.post('/api/v1/auth/switch-organization', () => new HttpResponse(null, { status: 500 })));
    await expect(session.switchOrganization('x')).rejects.toThrow();
    expect(session.getState().error).toBe('Ошибка при смене организации');
  });

  it('markVerified updates the status to verified', async () => {
    server.use(http.post('/api/v1/auth/login', () => HttpResponse.json({ ...authResponse, user: { ...verifiedUser, is_verified: false } })));
    await session.login({ email: 'a@b.ru', password: 'x' });
    expect(session.getState().needsEmailVerification).toBe(true);
    session.markVerified();
    expect(session.getState()).toMatchObject({ needsEmailVerification: false, user: { is_verified: true } });
  });

  it("password reset request and confirm store their fallbacks: 'Ошибка при запросе восстановления пароля', 'Ошибка при установке нового пароля'", async () => {
    server.use(
      http.post('/api/v1/auth/reset-password', () => new HttpResponse(null, { status: 500 })),
      http.post('/api/v1/auth/reset-password/confirm', () => new HttpResponse(null, { status: 500 })),
    );
    await expect(session.requestPasswordReset('a@b.ru')).rejects.toThrow();
    expect(session.getState().error).toBe('Ошибка при запросе восстановления пароля');
    await expect(session.confirmPasswordReset('t', 'Secret123')).rejects.toThrow();
    expect(session.getState().error).toBe('Ошибка при установке нового пароля');
  });
});
