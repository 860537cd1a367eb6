/**
 * Browser local storage access in one place. The key names are part of the spec (section 3):
 * the token pair lives under `access_token` and `refresh_token`.
 */
import type { Organization, TokenPair, User } from '../contract/auth.js';

export const ACCESS_TOKEN_KEY = 'access_token';
export const REFRESH_TOKEN_KEY = 'refresh_token';
/** Last known user and organization, so a reload while offline keeps the session (and its cached data). */
export const SESSION_SNAPSHOT_KEY = 'session_snapshot';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): behave as empty.
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Nothing useful to do when storage is blocked; the session lives in memory only.
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
    const raw = read(SESSION_SNAPSHOT_KEY);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as SessionSnapshot;
      return parsed && typeof parsed === 'object' && parsed.user ? parsed : null;
    } catch {
      return null;
    }
  },
  set(snapshot: SessionSnapshot): void {
    write(SESSION_SNAPSHOT_KEY, JSON.stringify(snapshot));
  },
  clear(): void {
    write(SESSION_SNAPSHOT_KEY, null);
  },
};

/** A plain string value (cookie consent and the like). */
export const localValue = { get: read, set: (key: string, value: string) => write(key, value), remove: (key: string) => write(key, null) };
