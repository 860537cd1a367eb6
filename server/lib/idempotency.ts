/**
 * Idempotent starts (analyses, page checks, AI plans, admin credits): a retry with the same key returns
 * the first run, but the same key with a different request is a client bug that must not pass silently
 * (it would answer with a run of other campaigns, pages or amounts). The run keeps a fingerprint of what
 * was asked for; a later request with its key must have the same one, else 409.
 */
import { createHash } from 'node:crypto';
import { apiMessages } from '../../contract/messages.js';
import { conflict } from './errors.js';

/** JSON with object keys sorted at every depth, so the same request always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of what a request asks for: its target and its validated body without the key. */
export function requestFingerprint(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** 409 when a key's first request was a different one (rows stored before fingerprints pass). */
export function requireSameRequest(stored: string | null, fingerprint: string): void {
  if (stored !== null && stored !== fingerprint) throw conflict(apiMessages.idempotencyKeyOtherRequest, 'IDEMPOTENCY_KEY_REUSED');
}
