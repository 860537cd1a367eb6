/**
 * API points ("баллы") accounting. Every answer of a JSON service carries
 * `Units: <spent by this request>/<left now>/<daily limit>` (e.g. `10/20828/64000`), and
 * `Units-Used-Login` names whose points were spent (the advertiser's, or the agency's with
 * `Use-Operator-Units: true`).
 */

export interface UnitsReading {
  spent: number;
  available: number;
  daily: number;
}

/** What a client has spent so far and what the latest answer said is left. */
export interface DirectUnits {
  /** Points spent by all requests of this client, summed. */
  spent: number;
  /** Points left after the latest request, or null before any answer carried the header. */
  available: number | null;
  /** The daily limit from the latest answer, or null. */
  daily: number | null;
  /** Requests that carried a `Units` header. */
  requests: number;
  /** Whose points were spent (`Units-Used-Login`), when the API said. */
  usedLogin: string | null;
}

export function parseUnitsHeader(value: string | null | undefined): UnitsReading | null {
  if (!value) return null;
  const parts = value.trim().split('/').map((part) => Number(part.trim()));
  if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return null;
  const [spent, available, daily] = parts as [number, number, number];
  return { spent, available, daily };
}

export function createUnitsAccount() {
  const state: DirectUnits = { spent: 0, available: null, daily: null, requests: 0, usedLogin: null };
  return {
    record(headers: Headers): void {
      const reading = parseUnitsHeader(headers.get('units'));
      if (!reading) return;
      state.spent += reading.spent;
      state.available = reading.available;
      state.daily = reading.daily;
      state.requests += 1;
      state.usedLogin = headers.get('units-used-login') ?? state.usedLogin;
    },
    /** A copy, so callers can keep it without seeing later changes. */
    snapshot(): DirectUnits {
      return { ...state };
    },
  };
}
