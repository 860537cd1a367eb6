/**
 * Browser storage access in one place: local storage (kept on the device) and session storage (this tab
 * only), both behaving as empty where the browser blocks them. The key names of the session are part of the
 * spec (section 3): the token pair lives under `access_token` and `refresh_token`.
 */
import type { Organization, TokenPair, User } from '@contract/auth.js';

export const ACCESS_TOKEN_KEY = 'access_token';
export const REFRESH_TOKEN_KEY = 'refresh_token';
/** Last known user and organization, so a reload while offline keeps the session (and its cached data). */
export const SESSION_SNAPSHOT_KEY = 'session_snapshot';

function readFrom(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): behave as empty.
    return null;
  }
}

function writeTo(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Nothing useful to do when storage is blocked: the value lives in memory only, or not at all.
  }
}

const local = () => localStorage;
const tab = () => sessionStorage;
const read = (key: string) => readFrom(local, key);
const write = (key: string, value: string | null) => writeTo(local, key, value);

/** A stored JSON value, or null when there is none or it does not parse. */
function parsed<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export const tokenStorage = {
  getAccessToken: (): string | null => read(ACCESS_TOKEN_KEY),
  getRefreshToken: (): string | null => read(REFRESH_TOKEN_KEY),
  setTokens(tokens: TokenPair): void {
    write(ACCESS_TOKEN_KEY, tokens.access_token);
    write(REFRESH_TOKEN_KEY, tokens.refresh_token);
  },
  clear(): void {
    write(ACCESS_TOKEN_KEY, null);
    write(REFRESH_TOKEN_KEY, null);
  },
};

export interface SessionSnapshot {
  user: User;
  organization: Organization | null;
}

export const sessionSnapshotStorage = {
  get(): SessionSnapshot | null {
    const snapshot = parsed<SessionSnapshot>(read(SESSION_SNAPSHOT_KEY));
    return snapshot && typeof snapshot === 'object' && snapshot.user ? snapshot : null;
  },
  set(snapshot: SessionSnapshot): void {
    write(SESSION_SNAPSHOT_KEY, JSON.stringify(snapshot));
  },
  clear(): void {
    write(SESSION_SNAPSHOT_KEY, null);
  },
};

/** A plain string value kept on the device (cookie consent and the like). */
export const localValue = { get: read, set: (key: string, value: string) => write(key, value), remove: (key: string) => write(key, null) };

/** A JSON value kept on the device. */
export const localJson = {
  get: <T>(key: string): T | null => parsed<T>(read(key)),
  set: (key: string, value: unknown) => write(key, value === null ? null : JSON.stringify(value)),
};

/** A string value for this tab only (session storage): a reload keeps it, closing the tab forgets it. */
export const tabValue = {
  get: (key: string) => readFrom(tab, key),
  set: (key: string, value: string | null) => writeTo(tab, key, value),
};

/** A JSON value for this tab only. */
export const tabJson = {
  get: <T>(key: string): T | null => parsed<T>(readFrom(tab, key)),
  set: (key: string, value: unknown) => writeTo(tab, key, value === null ? null : JSON.stringify(value)),
};
