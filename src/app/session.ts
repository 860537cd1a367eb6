/**
 * The session: who is logged in, in which organization, and the actions that change it.
 *
 * The state lives in jotai atoms of one module-level store, so the router guards (outside React)
 * and the components (through `useSession`) read the same values.
 */
import { atom, createStore, useAtomValue } from 'jotai';
import type { Organization, RegisterForm, RegisterPayload, TokenPair, User } from '@contract/auth.js';
import { fallbackMessages } from '@contract/messages.js';
import { authRoutes } from '@contract/routes/auth.js';
import { organizationRoutes } from '@contract/routes/organizations.js';
import { ApiError } from '@/lib/api-client';
import { callApi } from '@/lib/call-api';
import { sessionSnapshotStorage, tokenStorage } from '@/lib/storage';

export interface SessionState {
  user: User | null;
  organization: Organization | null;
  loading: boolean;
  error: string | null;
  /** True once start-up has run (or had nothing to do). */
  initialized: boolean;
  /** True when the user comes from the stored snapshot because the network was unreachable. */
  offline: boolean;
}

export interface SessionFlags {
  isAuthenticated: boolean;
  needsEmailVerification: boolean;
  isAdmin: boolean;
  isOrganizationOwner: boolean;
  isAdminOrOwner: boolean;
}

export type SessionView = SessionState & SessionFlags;

const initialState: SessionState = {
  user: null,
  organization: null,
  loading: false,
  error: null,
  initialized: false,
  offline: false,
};

export const sessionStore = createStore();
export const sessionStateAtom = atom<SessionState>(initialState);

export function deriveFlags(state: Pick<SessionState, 'user' | 'organization'>): SessionFlags {
  const isAuthenticated = state.user !== null;
  const orgRole = state.organization?.role;
  return {
    isAuthenticated,
    needsEmailVerification: isAuthenticated && state.user?.is_verified === false,
    isAdmin: state.user?.role === 'admin',
    isOrganizationOwner: isAuthenticated && orgRole === 'owner',
    isAdminOrOwner: isAuthenticated && (orgRole === 'owner' || orgRole === 'admin'),
  };
}


// ---------------------------------------------------------------------------------------------
// Wiring with the rest of the app (set up once in main.tsx; defaults keep tests and tools simple).

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => {
  if (typeof window !== 'undefined') window.location.assign(to);
};
const identityListeners = new Set<() => void>();

/** How the session moves the user (the router's navigate in the app). */
export function setSessionNavigator(fn: Navigate): void {
  navigate = fn;
}

/** Called whenever the identity changes (logout, expired session, other user or organization). */
export function onIdentityChange(listener: () => void): () => void {
  identityListeners.add(listener);
  return () => identityListeners.delete(listener);
}

function notifyIdentityChange(): void {
  for (const listener of identityListeners) listener();
}

// ---------------------------------------------------------------------------------------------

function getState(): SessionState {
  return sessionStore.get(sessionStateAtom);
}

function setState(patch: Partial<SessionState>): void {
  sessionStore.set(sessionStateAtom, { ...getState(), ...patch });
}

function view(): SessionView {
  const state = getState();
  return { ...state, ...deriveFlags(state) };
}

function remember(user: User, organization: Organization | null): void {
  sessionSnapshotStorage.set({ user, organization });
}

/** The message to show: the server's own words when it gave some, else the spec's fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const serverGaveNone = error.message === `HTTP ${error.status}` || !error.message;
    return serverGaveNone ? fallback : error.message;
  }
  return fallback;
}

async function fail(error: unknown, fallback: string): Promise<never> {
  const message = messageOf(error, fallback);
  console.error(fallback, error);
  setState({ loading: false, error: message });
  throw error instanceof Error ? error : new Error(message);
}

/** Forgets tokens, the snapshot and the state, without any server call or navigation. */
function clearLocal(): void {
  const hadIdentity = getState().user !== null || tokenStorage.getAccessToken() !== null;
  tokenStorage.clear();
  sessionSnapshotStorage.clear();
  sessionStore.set(sessionStateAtom, { ...initialState, initialized: true });
  if (hadIdentity) notifyIdentityChange();
}

let initializing: Promise<void> | null = null;

/**
 * Start-up (spec section 4): with a stored access token, fetch the user, then the organization.
 * On failure log it and clear auth. A network failure with a stored snapshot keeps the last known
 * session instead, so the installed app still opens offline with its cached data.
 */
function initialize(): Promise<void> {
  if (initializing) return initializing;
  initializing = (async () => {
    if (!tokenStorage.getAccessToken()) {
      setState({ initialized: true, loading: false });
      return;
    }
    setState({ loading: true });
    try {
      const user = await callApi(authRoutes.me);
      const organization = await callApi(organizationRoutes.current);
      remember(user, organization);
      setState({ user, organization, loading: false, initialized: true, offline: false, error: null });
    } catch (error) {
      const snapshot = sessionSnapshotStorage.get();
      if (error instanceof ApiError && error.status === 0 && snapshot && tokenStorage.getAccessToken()) {
        setState({ user: snapshot.user, organization: snapshot.organization, loading: false, initialized: true, offline: true });
        return;
      }
      console.error('Не удалось загрузить сессию', error);
      clearLocal();
    }
  })().finally(() => {
    initializing = null;
  });
  return initializing;
}

/** The guard's first step: initialise when a token is stored but no session is loaded. */
async function ensureInitialized(): Promise<SessionView> {
  if (tokenStorage.getAccessToken() && getState().user === null) await initialize();
  else if (!getState().initialized) setState({ initialized: true });
  return view();
}

function establish(response: { user: User; organization: Organization; tokens: TokenPair }): void {
  const previousUserId = getState().user?.id ?? sessionSnapshotStorage.get()?.user.id ?? null;
  tokenStorage.setTokens(response.tokens);
  remember(response.user, response.organization);
  setState({ user: response.user, organization: response.organization, loading: false, error: null, initialized: true, offline: false });
  if (previousUserId !== response.user.id) notifyIdentityChange();
}

async function login(payload: { email: string; password: string }): Promise<void> {
  setState({ loading: true, error: null });
  try {
    const response = await callApi(authRoutes.login, { body: payload, skipAuthRefresh: true });
    establish(response);
  } catch (error) {
    return fail(error, fallbackMessages.login);
  }
}

/** Turns the register form into the request: terms_accepted and organization_type are never sent. */
export function toRegisterPayload(form: RegisterForm): RegisterPayload {
  const payload: RegisterPayload = {
    first_name: form.first_name.trim(),
    last_name: form.last_name.trim(),
    email: form.email.trim(),
    password: form.password,
  };
  if (form.organization_type === 'create') payload.organization_name = (form.organization_name ?? '').trim();
  else payload.invitation_code = (form.invitation_code ?? '').trim();
  return payload;
}

/**
 * Registration starts no session (issue 27): the server answers the same whether or not the address
 * has an account, and the person signs in after following the link from the mail. Resolves with the
 * server's «we sent a mail» message.
 */
const register = (form: RegisterForm) =>
  runWithError(() => callApi(authRoutes.register, { body: toRegisterPayload(form), skipAuthRefresh: true }), fallbackMessages.register);

/** Logs out on the server when it can; tokens and state are cleared whatever the server says. */
async function logout(): Promise<void> {
  const refreshToken = tokenStorage.getRefreshToken();
  try {
    if (tokenStorage.getAccessToken()) {
      await callApi(authRoutes.logout, { body: refreshToken ? { refresh_token: refreshToken } : undefined, skipAuthRefresh: true });
    }
  } catch (error) {
    console.error('Ошибка при выходе', error);
  } finally {
    clearLocal();
    navigate('/auth');
  }
}

async function switchOrganization(organizationId: string): Promise<void> {
  setState({ loading: true, error: null });
  try {
    const response = await callApi(authRoutes.switchOrganization, { body: { organization_id: organizationId } });
    tokenStorage.setTokens(response.tokens);
    const user = getState().user;
    if (user) remember(user, response.organization);
    setState({ organization: response.organization, loading: false });
    // Cached data belongs to the previous organization.
    notifyIdentityChange();
  } catch (error) {
    return fail(error, fallbackMessages.switchOrganization);
  }
}

function markVerified(): void {
  const user = getState().user;
  if (!user) return;
  const verified = { ...user, is_verified: true };
  remember(verified, getState().organization);
  setState({ user: verified });
}

async function runWithError<T>(action: () => Promise<T>, fallback: string): Promise<T> {
  setState({ loading: true, error: null });
  try {
    const result = await action();
    setState({ loading: false });
    return result;
  } catch (error) {
    return fail(error, fallback);
  }
}

const requestPasswordReset = (email: string) =>
  runWithError(
    () => callApi(authRoutes.resetPassword, { body: { email }, skipAuthRefresh: true }),
    fallbackMessages.resetRequest,
  );

const confirmPasswordReset = (token: string, password: string) =>
  runWithError(
    () => callApi(authRoutes.resetPasswordConfirm, { body: { token, password }, skipAuthRefresh: true }),
    fallbackMessages.newPassword,
  );

const changePassword = (currentPassword: string, password: string) =>
  runWithError(
    () => callApi(authRoutes.newPassword, { body: { current_password: currentPassword, password } }),
    fallbackMessages.newPassword,
  );

function clearError(): void {
  if (getState().error !== null) setState({ error: null });
}

/** Replaces the organization after an edit elsewhere (name, plan) so the header shows it. */
function setOrganization(organization: Organization): void {
  const user = getState().user;
  const merged = { ...organization, role: organization.role ?? getState().organization?.role };
  if (user) remember(user, merged);
  setState({ organization: merged });
}

export const session = {
  getState: view,
  subscribe: (listener: () => void) => sessionStore.sub(sessionStateAtom, listener),
  initialize,
  ensureInitialized,
  login,
  register,
  logout,
  switchOrganization,
  markVerified,
  requestPasswordReset,
  confirmPasswordReset,
  changePassword,
  clearError,
  clearLocal,
  setOrganization,
};

export type Session = typeof session;

/** Everything about the session for components: state, derived flags and actions. */
export function useSession(): SessionView & Omit<Session, 'getState' | 'subscribe'> {
  const state = useAtomValue(sessionStateAtom, { store: sessionStore });
  const { getState: _getState, subscribe: _subscribe, ...actions } = session;
  return { ...state, ...deriveFlags(state), ...actions };
}
