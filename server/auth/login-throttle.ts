/**
 * Failed logins per account. The per-address limit of the login route alone lets a botnet (or anyone
 * who can choose their address) guess one account's password from many addresses; this counter is kept
 * per email, whatever the address, in the same shared storage as the route limits (PostgreSQL or Redis).
 *
 * Only failures count, so a user who logs in often from several devices is never stopped. Once an
 * account has `max` failures in the window, every login to it answers 429 until the window ends — a
 * correct password too, or the limit would tell a guesser which of its tries was right. The key is the
 * email as typed (trimmed, lower-case), whether or not an account has it, so the answer never says
 * whether an account exists.
 */
import { RateLimitedError } from '../lib/errors.js';
import type { RateLimitCounter } from '../lib/rate-limit-store.js';

export interface LoginThrottle {
  /** Refuses (429) when the account has used up its failures in the current window. */
  check: (email: string) => Promise<void>;
  /** Counts one failed login of the account. */
  recordFailure: (email: string) => Promise<void>;
}

const accountKey = (email: string) => email.trim().toLowerCase();

export function createLoginThrottle(counter: RateLimitCounter, limit: { max: number; timeWindowMs: number }): LoginThrottle {
  return {
    check: async (email) => {
      const state = await counter.peek(accountKey(email));
      if (state.current >= limit.max) throw new RateLimitedError(Math.max(1, Math.ceil(state.ttl / 1000)));
    },
    recordFailure: async (email) => {
      await counter.hit(accountKey(email), limit.timeWindowMs);
    },
  };
}
